"""`p2ptarot web` lobby with two people: both sit at a bot host's table from their pages, see
each other in the seat list, chat before the game, and the table starts only once both clicked
Ready."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.events import TableOpened
from p2ptarot.app.hub import Hub
from p2ptarot.bots import make as make_bot
from p2ptarot.peer.run import bot_chooser, run_host
from p2ptarot.web.lobby import Lobby
from p2ptarot.web.server import WebServer
from tests.web.tables import config, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
LOG = "document.getElementById('log').textContent"
SEATS = "document.querySelector('#lobby table.seats') ? document.querySelector('#lobby table.seats').textContent : ''"


async def _sit(page, name: str) -> None:
    await page.wait_for("[...document.querySelectorAll('#lobby td')].some(td => td.textContent === 'Hostess')",
                        timeout=60)
    await page.js(f"document.getElementById('myname').value = {name!r}")
    await page.js("[...document.querySelectorAll('#lobby tr')].find(r => r.textContent.includes('Hostess'))"
                  ".querySelector('button.join').click()")


async def test_two_pages_sit_chat_and_start_when_both_are_ready(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    host_cfg = config(tmp_path, "Hostess", None)
    host_cfg.bot = True  # what `host --bot` sets: shown as a bot, always ready
    hosting = asyncio.create_task(run_host(host_cfg, "sinople", None, 3,
                                           bot_chooser(make_bot("heuristic", 4))))
    seats = []
    for name in ("Ann", "Ben"):
        hub = Hub()
        cfg = config(tmp_path, name, hub)
        cfg.ready = False  # what `p2ptarot web` does: the page has a Ready button
        lobby = Lobby(hub, cfg, ["127.0.0.1"])
        server = WebServer(hub, on_command=lobby.command)
        url = await server.start()
        seats.append((hub, lobby, server, url, asyncio.create_task(lobby.watch(every=0.3))))
    try:
        ann = await browser.page(seats[0][3])
        ben = await browser.page(seats[1][3])
        await _sit(ann, "Ann")
        await ann.wait_for(f"({SEATS}).includes('Ann (you)')", timeout=60)
        await _sit(ben, "Ben")
        for page, me in ((ann, "Ann"), (ben, "Ben")):
            await page.wait_for(f"({SEATS}).includes('Ben')", timeout=60)
            rows = await page.js("[...document.querySelectorAll('#lobby table.seats tr')].slice(1).map(r => r.textContent)")
            assert rows[0] == "1Hostess · hostbot, ready ✓"
            assert rows[1].startswith("2Ann") and rows[1].endswith("not ready")
            assert rows[2].startswith("3Ben") and rows[2].endswith("not ready")
            assert f"{me} (you)" in "".join(rows)
            assert await page.js("document.getElementById('ready').textContent") == "Ready"
            assert await page.js("document.getElementById('startnow') === null")  # not the host
        # lobby chat: Ann's line reaches Ben's page with her name, as text
        await ann.js("document.getElementById('chatline').value = 'hi <i>Ben</i>';"
                     "document.querySelector('#chat button').click()")
        await ben.wait_for(f"{LOG}.includes('<Ann> hi <i>Ben</i>')", timeout=30)
        assert await ben.js("document.querySelector('#log i') === null")
        # Ann is ready: Ben sees it, and the table still waits for Ben
        await ann.js("document.getElementById('ready').click()")
        await ben.wait_for("document.querySelector('#lobby tr[data-seat=\"1\"]').textContent.endsWith('ready ✓')",
                           timeout=30)
        assert await ann.js("document.getElementById('ready').textContent") == "Not ready"
        assert await ben.js("document.getElementById('status').textContent") == \
            "Ben is not ready yet"
        keep_shot(await ben.screenshot(tmp_path / "lobby-seats.png"))
        assert not any(isinstance(e, TableOpened) for s in seats for e in s[0].history)
        assert not hosting.done()
        # Ben clicks Ready: the table starts, both pages show the players and a first move
        await ben.js("document.getElementById('ready').click()")
        for page in (ann, ben):
            await page.wait_for("document.getElementById('players').textContent.includes('Ben · seat 3')",
                                timeout=60)
            assert await page.js("document.getElementById('lobby').hidden")
            await page.wait_for("(S.turn && !S.answered) || "
                                "document.querySelectorAll('#log li:not(.notice):not(.chat)').length > 0",
                                timeout=60)
        names = next(e for e in seats[0][0].history if isinstance(e, TableOpened)).names
        assert names == ("Hostess", "Ann", "Ben")
    finally:
        for hub, lobby, server, _, watching in seats:
            watching.cancel()
            if lobby.game is not None:
                lobby.game.cancel()
            await server.close()
        await browser.close()
        hosting.cancel()
        await asyncio.gather(hosting, return_exceptions=True)
