"""Whole games played by a human seat through the browser page (real headless Chromium over the
DevTools protocol, real peers, real mental poker, everything on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.hub import Hub
from p2ptarot.web.server import WebServer
from tests.web.tables import CLICK, OVER, host, human, join_bot, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]


async def _play_through_page(page, shots: Path, prefix: str, max_clicks: int = 3000) -> dict:
    """Click playable cards / move buttons until the game is over; checks along the way."""
    clicks, seen_turn_status, shot_taken = {"card": 0, "button": 0}, False, False
    clocks: set[str] = set()
    while not await page.js(OVER):
        state = await page.js("""({status: document.getElementById('status').textContent,
            moves: (S.turn && !S.answered) ? 1 : 0,
            players: document.getElementById('players').textContent,
            since: document.getElementById('since').textContent,
            hand: document.querySelectorAll('#hand .card').length,
            clock: (document.querySelector('#status .clock') || {}).textContent || ''})""")
        if state["moves"]:
            seen_turn_status = seen_turn_status or state["status"].startswith("Your move")
            if state["clock"]:
                clocks.add(state["clock"])
            if not shot_taken and clicks["card"] + clicks["button"] >= 6 and state["hand"] >= 3:
                keep_shot(await page.screenshot(shots / f"{prefix}-turn.png"))
                shot_taken = True
            kind = await page.js(CLICK)
            if kind:
                clicks[kind] += 1
                assert sum(clicks.values()) < max_clicks
        await asyncio.sleep(0.05)
    keep_shot(await page.screenshot(shots / f"{prefix}-end.png"))
    return {"clicks": clicks, "seen_turn_status": seen_turn_status, "shot": shot_taken,
            "clocks": clocks}


async def test_sinople_whole_game_as_a_human_in_the_browser(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots = []
    try:
        alice.cfg.spectators = Hub()
        watchers = WebServer(alice.cfg.spectators)
        spectator_url = await watchers.start()
        host(alice, "sinople", 2, on_listening=lambda url: bots.append(
            join_bot(tmp_path, "Robot", url, "sinople", seed=7)))
        page = await browser.page(alice.url)
        spectator = await browser.page(spectator_url)
        await page.wait_for("document.getElementById('players').textContent.includes('Robot')")
        players = await page.js("document.getElementById('players').textContent")
        assert "Alice · seat 1 (you)" in players and "Robot · seat 2" in players
        played = await _play_through_page(page, tmp_path, "sinople")
        result = await asyncio.wait_for(alice.task, 60)
        assert result.outcome is not None
        assert played["clicks"]["card"] > 20  # hand cards were clicked, not only buttons
        assert played["seen_turn_status"] and played["shot"]
        # a visible countdown of the move timeout (300 s by default: minutes, not seconds)
        assert played["clocks"] and all(re.fullmatch(r"[45]:\d\d left", c) for c in played["clocks"]), \
            played["clocks"]
        text = await page.js("document.getElementById('results').textContent")
        assert "Final standings" in text and "Alice" in text and "Robot" in text
        log = await page.js("document.getElementById('log').textContent")
        assert "Robot: Play " in log and "Alice: Play " in log
        assert "seat 0" not in log
        bot_result = await asyncio.wait_for(bots[0], 60)
        assert bot_result.outcome == result.outcome
        # the spectators' page: the public table, every move with names, no hand, no buttons
        await spectator.wait_for("document.getElementById('results').textContent.includes('Final standings')")
        assert await spectator.js("document.getElementById('handbox').hidden")
        assert await spectator.js("document.querySelectorAll('button.move').length") == 0
        seen = await spectator.js("document.getElementById('log').textContent")
        assert "Robot: Play " in seen and "Alice: Play " in seen
        players = await spectator.js("document.getElementById('players').textContent")
        assert "(you)" not in players
        keep_shot(await spectator.screenshot(tmp_path / "spectator.png"))
    finally:
        await browser.close()
        await alice.server.close()
        await watchers.close()
