"""`p2ptarot web`: the lobby lists the open tables with their host's name and seats, a click
sits the player down and the game is played in the same page; a transcript replays step by
step in the browser."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.hub import Hub
from p2ptarot.bots import make as make_bot
from p2ptarot.cli.web_cmd import replay_event
from p2ptarot.peer.run import bot_chooser, run_host
from p2ptarot.web.lobby import Lobby
from p2ptarot.web.server import WebServer
from tests.web.tables import CLICK, OVER, config, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
#: the table the lobby lists: a short whole game (the whole sinople game in a page is
#: test_browser_play's)
GAME = "paris-divins"


async def test_lobby_lists_tables_and_a_click_sits_and_plays(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    host_cfg = config(tmp_path, "Hostess", None)
    hosting = asyncio.create_task(run_host(host_cfg, GAME, None, 2,
                                           bot_chooser(make_bot("heuristic", 4))))
    hub = Hub()
    lobby = Lobby(hub, config(tmp_path, "Guest", hub), ["127.0.0.1"])
    server = WebServer(hub, on_command=lobby.command)
    url = await server.start()
    watching = asyncio.create_task(lobby.watch(every=0.3))
    try:
        page = await browser.page(url)
        await page.wait_for("[...document.querySelectorAll('#lobby td')].some(td => td.textContent === 'Hostess')",
                            timeout=60)
        row = await page.js("[...document.querySelectorAll('#lobby tr')].find(r => r.textContent.includes('Hostess')).textContent")
        assert GAME in row and "1 taken / 1 free" in row
        keep_shot(await page.screenshot(tmp_path / "lobby.png"))
        await page.js("document.getElementById('myname').value = 'Gwen'")
        await page.js("[...document.querySelectorAll('#lobby tr')].find(r => r.textContent.includes('Hostess'))"
                      ".querySelector('button.join').click()")
        await page.wait_for("document.getElementById('players').textContent.includes('Gwen')", timeout=60)
        assert await page.js("document.getElementById('lobby').hidden")
        assert "Hostess · seat 1" in await page.js("document.getElementById('players').textContent")
        assert f"joining Hostess's table of {GAME}" in await page.js("document.getElementById('log').textContent")
        while not await page.js(OVER):
            if await page.js("(S.turn && !S.answered)"):
                await page.js(CLICK)
            await asyncio.sleep(0.05)
        assert "Final standings" in await page.js("document.getElementById('results').textContent")
        result = await asyncio.wait_for(lobby.game, 60)
        assert result.outcome is not None and result.outcome == (await asyncio.wait_for(hosting, 60)).outcome
    finally:
        watching.cancel()
        await server.close()
        await browser.close()
        hosting.cancel()


async def test_a_transcript_replays_step_by_step_in_the_browser(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    hub = Hub()
    hub.publish(replay_event(VECTORS / "valid.jsonl"))
    server = WebServer(hub)
    url = await server.start()
    try:
        page = await browser.page(url)
        await page.wait_for("!document.getElementById('replaybar').hidden")
        status = await page.js("document.getElementById('status').textContent")
        assert status.startswith("Replay, move 1 of ") and ": Pass" in status or ": Show" in status
        for _ in range(12):
            await page.js("document.getElementById('rnext').click()")
        status = await page.js("document.getElementById('status').textContent")
        assert status.startswith("Replay, move 13 of ")
        assert await page.js("document.querySelectorAll('#piles .card').length") > 0  # the trick on the table
        log = await page.js("document.getElementById('log').textContent")
        assert "transcript verified" in log and "trick 1 won by p" in log and "num-" not in log
        await page.js("document.getElementById('rlast').click()")
        log = await page.js("document.getElementById('log').textContent")
        assert "round 9 over" in log
        keep_shot(await page.screenshot(tmp_path / "replay.png"))
    finally:
        await server.close()
        await browser.close()
