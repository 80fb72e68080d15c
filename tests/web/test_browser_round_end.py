"""Each game's round end as a player sees it (issue 23), in real Chromium against bots: the page
plays by clicking cards and fields until the first round is over; the round's result is up, the
next deal waits for the player's Continue (the table really holds), and the page fits both a
1280 x 800 screen and a 390 x 844 phone without horizontal scroll. Screenshots of both are kept
(P2PTAROT_SHOTS=dir). Arcanum has no rounds (one game of 8 turns, scored on its board)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2ptarot.app.events import RoundHeld
from p2ptarot.engine import games
from tests.web.cdp import Browser
from tests.web.tables import CLICK, ELEUSIS_FORMS, bot_spawner, close_table, host, human, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth + 1"
ROUND_UP = "document.getElementById('continue') !== null"


@pytest.mark.parametrize("game", ["sinople", "trois-roses", "paris-divins", "arcanoid", "eleusis"])
async def test_the_first_round_end_holds_the_deal_and_fits_both_screens(game: str, tmp_path: Path) -> None:
    gi = next(g for g in games() if g.name == game)
    players = gi.min_players
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots: list[asyncio.Task] = []

    spawn = bot_spawner(tmp_path, game, players, bots)

    try:
        host(alice, game, players, on_listening=spawn)
        page = await browser.page(alice.url)
        await page.size(390, 844, mobile=True)
        await page.wait_for(f"document.getElementById('players').textContent.includes('Bot{players - 1}')",
                            timeout=120)
        clicks = 0
        while not await page.js(ROUND_UP):
            assert not alice.task.done() and clicks < 1500
            if await page.js("(S.turn && !S.answered)"):
                if await page.js(ELEUSIS_FORMS) or await page.js(CLICK):
                    clicks += 1
            await asyncio.sleep(0.05)
        # the round's result is up and the table waits for this player: for the Continue, or for
        # his move when what follows opens with it (paris divins' choice, the next Eleusis
        # dealer's rule): then his move goes out when he makes it
        waiting = await page.wait_for("((document.getElementById('holdnote') || {}).textContent === "
                                      "' the next deal waits for you') ? 'hold' : (S.turn && !S.answered) ? 'turn' : ''",
                                      timeout=60)
        assert waiting in ("turn", "hold"), waiting
        held = [e for e in alice.hub.history if isinstance(e, RoundHeld)]
        # (a paris divins seat that is out sends nothing: later rounds end without holding)
        title = await page.js("document.querySelector('#results h2').textContent")
        assert title.startswith("Round ") and title.endswith(" over"), title
        number = int(title.split()[1])
        if game == "eleusis":  # the opened rule, each judgment re-checked, the round's scores
            head = await page.js("Array.from(document.querySelectorAll('#round-result th')).map((t) => t.textContent).join('|')")
            assert head == "rule|scores"
            assert await page.js("document.querySelector('#results p.detailshead').textContent") == \
                "Each judgment re-checked against the opened rule:"
            assert await page.js("document.querySelectorAll('#round-details li').length") >= 1
        for width, height, mobile in ((1280, 800, False), (390, 844, True)):
            await page.size(width, height, mobile=mobile)
            await page.js("document.getElementById('results').scrollIntoView()")
            assert await page.js(NO_SIDEWAYS), f"{game} scrolls sideways at {width} px"
            keep_shot(await page.screenshot(tmp_path / f"round-end-{game}-{width}.png", full=False))
        if waiting == "hold":
            assert held and held[-1].held and held[-1].number == number
            assert alice.hub.round_held == number  # nothing moved on while the result was read
        await page.js("document.getElementById('continue').click()")
        await page.wait_for("document.getElementById('continue') === null", timeout=10)
        if waiting == "turn":  # the player's own move goes out at once: nothing is held
            turn = await page.js("S.turn.turn")
            assert await page.js(ELEUSIS_FORMS) or await page.js(CLICK)
            # answered, or already past it: the Eleusis dealer's next turn (the optional hint)
            # can follow the committed rule before a poll sees the answered one
            await page.wait_for(f"S.answered || !S.turn || S.turn.turn !== {turn}", timeout=30)
            for _ in range(200):  # read and played: whatever this peer sends next is not held
                if alice.hub.round_held is None:
                    break
                await asyncio.sleep(0.05)
            assert alice.hub.round_held is None
            return
        for _ in range(200):  # the deal goes on at the click
            if alice.hub.round_held is None and not alice.hub.history[-1] == held[-1]:
                break
            await asyncio.sleep(0.05)
        released = [e for e in alice.hub.history if isinstance(e, RoundHeld) and not e.held]
        assert released and released[-1].number == number and released[-1].until < held[-1].until
    finally:
        await close_table(browser, [alice], bots)
