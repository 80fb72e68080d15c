"""After a game in `p2ptarot web`, as a player sees it (real Chromium, a real bot process, mental
poker on 127.0.0.1): each round's result stays up until "Continue", the final standings say what
the score counts and where the player finished, and "Rematch" opens the same table again (the
bot sits down again; the page starts afresh, the finished game no longer replayed)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.events import GameFinished, TableOpened
from p2ptarot.app.table import Hub
from p2ptarot.web.lobby import Lobby
from p2ptarot.web.server import WebServer
from tests.web.tables import CLICK, FINISHED, config, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
SEATS = "document.querySelector('#lobby table.seats') ? document.querySelector('#lobby table.seats').textContent : ''"


async def _host(page, game: str) -> None:
    await page.wait_for("document.getElementById('hostgame') !== null", timeout=60)
    await page.js(f"const g = document.getElementById('hostgame'); g.value = '{game}';"
                  "g.dispatchEvent(new Event('change'))")
    await page.js("document.getElementById('myname').value = 'Hana';"
                  "document.getElementById('hostseats').value = '3';"
                  "document.getElementById('hostbots').value = '1';"
                  "document.getElementById('hostbtn').click()")


async def test_round_results_final_place_and_rematch(tmp_path: Path) -> None:
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
        await _host(page, "paris-divins")
        await page.wait_for(f"({SEATS}).includes('bot-1')", timeout=60)
        await page.js("document.getElementById('startnow').click()")
        await page.wait_for("document.getElementById('players').textContent.includes('bot-1')", timeout=60)
        rounds_seen = 0
        while not await page.js(FINISHED):  # not OVER: it would click Continue before we count it
            if await page.js("document.getElementById('continue') !== null"):
                rounds_seen += 1
                if rounds_seen == 1:
                    text = await page.js("document.getElementById('results').textContent")
                    assert "Round " in text and " over" in text
                    keep_shot(await page.screenshot(tmp_path / "round-over-phone.png", full=False))
                await page.js("document.getElementById('continue').click()")
            if await page.js("(S.turn && !S.answered)"):
                await page.js(CLICK)
            await asyncio.sleep(0.05)
        assert rounds_seen >= 1
        results = await page.js("document.getElementById('results').textContent")
        finished = next(e for e in hub.history if isinstance(e, GameFinished))
        assert "tokens in reserve" in results and finished.score_label == "tokens in reserve"
        assert finished.personal.startswith("you finished ") and finished.personal in results
        assert await page.js("document.documentElement.scrollWidth") <= 390
        keep_shot(await page.screenshot(tmp_path / "final-phone.png", full=False))
        assert await page.js("document.getElementById('tolobby') !== null")
        await page.js("window.beforeRematch = true; document.getElementById('rematch').click()")
        # the same table again (a fresh page): the bot sits down anew, the finished game is gone
        await page.wait_for(f"!window.beforeRematch && ({SEATS}).includes('bot-1')", timeout=90)
        stale = [type(e).__name__ for e in hub.history if isinstance(e, (GameFinished, TableOpened))]
        assert not stale, (stale, [type(e).__name__ for e in hub.history])
        assert "paris" in (await page.js("document.getElementById('lobby').textContent")).lower()
    finally:
        watching.cancel()
        await lobby.close()
        await server.close()
        await browser.close()
