"""After a game in `p2ptarot web`, as a player sees it (real Chromium, a real bot process, mental
poker on 127.0.0.1): each round's result stays up until "Continue", the final standings say what
the score counts and where the player finished, and "Rematch" opens the same table again (the
bot sits down again; the page starts afresh, the finished game no longer replayed)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.events import GameFinished, TableOpened
from p2ptarot.app.hub import Hub
from p2ptarot.web.lobby import Lobby
from p2ptarot.web.server import WebServer
from tests.web.tables import CLICK, ELEUSIS_FORMS, FINISHED, config, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
SEATS = "document.querySelector('#lobby table.seats') ? document.querySelector('#lobby table.seats').textContent : ''"


async def _host(page, game: str, variant: str, options: dict | None, seats: int) -> None:
    await page.wait_for("document.getElementById('hostgame') !== null", timeout=60)
    if options is not None:  # the page's form has no options: the command it would send, with them
        await page.js("send(" + json.dumps({"cmd": "host", "game": game, "variant": variant, "seats": seats,
                                            "bots": _bots(game, seats), "name": "Hana",
                                            "options": options}) + ")")
        return
    await page.js(f"const g = document.getElementById('hostgame'); g.value = '{game}';"
                  "g.dispatchEvent(new Event('change'))")
    await page.js("document.getElementById('myname').value = 'Hana';"
                  "document.getElementById('hostseats').value = '3';"
                  "document.getElementById('hostbots').value = '1';"
                  "document.getElementById('hostbtn').click()")


#: (game, variant, table options, what the final score counts, seats: one left free, all but the
#: host's bots, Hana's fewest turns): games short enough to play to the end by clicking on a phone
#: (arcanoid and Eleusis in one round, the three roses in one deal; the page writes a library rule
#: when Hana deals; an Eleusis round can end after two of her turns)
GAMES = [("paris-divins", "", None, "tokens in reserve", 3, 3),
         ("arcanoid", "", {"rounds": 1}, "fields won", 3, 3),
         ("eleusis", "", {"rounds": 1}, "points (all rounds)", 5, 1),
         ("trois-roses", "single-deal", {}, "points (match total)", 4, 3),
         ("arcanum", "", {"length": "short"}, "victory points (VP)", 3, 3)]


def _bots(game: str, seats: int) -> int:
    """The host's bots: every seat but the host's and one left free (Arcanum's short game is
    for exactly 3: no seat free)."""
    return seats - 1 if game == "arcanum" else seats - 2


@pytest.mark.parametrize("game,variant,options,score,seats,turns", GAMES)
async def test_round_results_final_place_and_rematch(game: str, variant: str, options: dict | None,
                                                     score: str, seats: int, turns: int,
                                                     tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    hub = Hub()
    cfg = config(tmp_path, "Hana", hub)
    cfg.ready = False
    lobby = Lobby(hub, cfg, ["127.0.0.1"])
    server = WebServer(hub, on_command=lobby.command)
    url = await server.start()
    watching = asyncio.create_task(lobby.watch(every=0.3))
    try:
        page = await browser.page(url)
        await page.size(390, 844, mobile=True)
        await _host(page, game, variant, options, seats)
        # every bot seated and ready (a slow one would be left out): start now, the free seat empty;
        # a full table starts when its host is ready
        await page.wait_for(f"({SEATS}).split('ready ✓').length - 1 === {_bots(game, seats)}", timeout=90)
        await page.js("(document.getElementById('startnow') || document.getElementById('ready')).click()")
        await page.wait_for("document.getElementById('players').textContent.includes('bot-1')", timeout=60)
        rounds_seen, clicks = 0, 0
        while not await page.js(FINISHED):  # not OVER: it would click Continue before we count it
            # the round's result and its Continue read at once (under load the hold may end between
            # two reads and the final standings replace it)
            text = await page.js("document.getElementById('continue') === null ? null"
                                 " : document.getElementById('results').textContent")
            if text is not None:
                rounds_seen += 1
                if rounds_seen == 1:
                    assert "Round " in text and " over" in text
                    keep_shot(await page.screenshot(tmp_path / "round-over-phone.png", full=False))
                await page.js("(() => { const go = document.getElementById('continue'); if (go) go.click(); })()")
            if await page.js("(S.turn && !S.answered)") and (await page.js(ELEUSIS_FORMS)
                                                             or await page.js(CLICK)):
                clicks += 1
            await asyncio.sleep(0.05)
        assert rounds_seen >= (1 if game == "paris-divins" else 0) and clicks >= turns, (rounds_seen, clicks)
        results = await page.js("document.getElementById('results').textContent")
        finished = next(e for e in hub.history if isinstance(e, GameFinished))
        assert score in results and finished.score_label == score
        assert "bot-1" in results and "Hana" in results
        if game == "arcanoid":  # the round's fields and who won them
            assert "swords" in results
        log = await page.js("document.getElementById('log').textContent")
        assert "bot-1: " in log and "Hana: " in log and "seat 0" not in log
        assert finished.personal.startswith("you finished ") and finished.personal in results
        assert await page.js("document.documentElement.scrollWidth") <= 390
        keep_shot(await page.screenshot(tmp_path / "final-phone.png", full=False))
        assert await page.js("document.getElementById('tolobby') !== null")
        await page.js("window.beforeRematch = true; document.getElementById('rematch').click()")
        # the same table again (a fresh page): the bot sits down anew, the finished game is gone
        await page.wait_for(f"!window.beforeRematch && ({SEATS}).includes('bot-{_bots(game, seats)}')",
                            timeout=90)
        stale = [type(e).__name__ for e in hub.history if isinstance(e, (GameFinished, TableOpened))]
        assert not stale, (stale, [type(e).__name__ for e in hub.history])
        assert game.split("-")[0] in (await page.js("document.getElementById('lobby').textContent")).lower()
        assert lobby.hosted is not None and dict(lobby.hosted.options) == (options or {})
    finally:
        watching.cancel()
        await lobby.close()
        await server.close()
        await browser.close()
