"""Every registered game is playable from the browser page without game-specific page code: a
human seat against bots makes its first moves through the page (the registry decides the list)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.engine import games
from tests.web.tables import CLICK, OVER, bot_spawner, close_table, host, human, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
MOVES = 4


@pytest.mark.parametrize("game", [g.name for g in games()])
async def test_a_human_makes_moves_through_the_page(game: str, tmp_path: Path) -> None:
    gi = next(g for g in games() if g.name == game)
    players = gi.min_players
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots: list[asyncio.Task] = []

    spawn = bot_spawner(tmp_path, game, players, bots)

    try:
        host(alice, game, players, on_listening=spawn)
        page = await browser.page(alice.url)
        await page.wait_for(f"document.getElementById('players').textContent.includes('Bot{players - 1}')",
                            timeout=120)
        clicks = 0
        while clicks < MOVES and not alice.task.done():
            if await page.js("(S.turn && !S.answered)"):
                before = await page.js("S.turn ? S.turn.turn : 0")
                made = await page.js(CLICK)
                if made == "pick":  # one card of several chosen in the picker: nothing sent yet
                    await asyncio.sleep(0.05)
                    continue
                if made:
                    clicks += 1
                    # the page takes the click: its buttons go, or the next turn replaces them
                    await page.wait_for("!(S.turn && !S.answered)"
                                        f" || (S.turn && S.turn.turn !== {before})", timeout=60)
            else:  # a round over before her moves are made (an Eleusis round can be that short)
                await page.js(OVER)  # holds its deal until she clicks Continue, as a player would
            await asyncio.sleep(0.05)
        assert clicks == MOVES or alice.task.done()
        log = await page.js("document.getElementById('log').textContent")
        assert "Alice: " in log and "seat 0" not in log
        title = await page.js("document.getElementById('title').textContent")
        assert title.startswith(gi.title)
        keep_shot(await page.screenshot(tmp_path / f"game-{game}.png"))
    finally:
        await close_table(browser, [alice], bots)
