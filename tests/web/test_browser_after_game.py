"""No dead buttons after a game (issue 33, item 6), in real Chromium with events published to the
seat's hub: a `host --web` page (a server with no lobby) offers neither "Back to the lobby" nor
"Rematch", even though its table filled up through a lobby roster; a `p2ptarot web` page (a
server with a lobby) offers both, and a double click on Rematch sends one command."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from p2ptarot.app.events import GameFinished, LobbyState, Standing, TableOpened
from p2ptarot.app.hub import Hub
from p2ptarot.web.server import WebServer
from tests.web.cdp import Browser

pytestmark = [pytest.mark.network, pytest.mark.slow]
NAMES = ("Alice", "Bob")
AFTER = "[...document.querySelectorAll('.afterbar button')].map((b) => b.id)"


def _finished(hub: Hub) -> None:
    hub.publish(LobbyState("sinople", 2, NAMES, "", (True, True), (False, True), False, 0, True))
    hub.publish(TableOpened("sinople", "sinople tarot", None, 0, NAMES, 300, 0, "", {}))
    hub.publish(GameFinished((Standing("Alice", 0, 5, True, 1), Standing("Bob", 1, 3, False, 2))))


async def test_a_host_web_page_offers_no_lobby_buttons(tmp_path: Path) -> None:
    hub = Hub()
    server = WebServer(hub, host="127.0.0.1")
    browser = await Browser(tmp_path / "profile").start()
    try:
        url = await server.start()
        _finished(hub)
        page = await browser.page(url)
        await page.wait_for("S.finished === true", timeout=30)
        assert await page.js(AFTER) == []
    finally:
        await browser.close()
        await server.close()


async def test_a_lobby_page_offers_both_and_a_double_click_sends_once(tmp_path: Path) -> None:
    hub = Hub()
    got: list[Any] = []

    async def lobby(cmd: Any) -> None:
        got.append(cmd)
    server = WebServer(hub, host="127.0.0.1", on_command=lobby)
    browser = await Browser(tmp_path / "profile").start()
    try:
        url = await server.start()
        _finished(hub)
        page = await browser.page(url)
        await page.wait_for("S.finished === true", timeout=30)
        assert await page.js(AFTER) == ["tolobby", "rematch"]
        await page.js("document.getElementById('rematch').click(); "
                      "document.getElementById('rematch').click(); "
                      "document.getElementById('tolobby').click()")
        for _ in range(50):  # let the commands that were sent arrive (a bound, not a timing)
            if got:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        assert [type(c).__name__ for c in got] == ["Rematch"]
    finally:
        await browser.close()
        await server.close()
