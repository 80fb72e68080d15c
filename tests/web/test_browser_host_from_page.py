"""`p2ptarot web`: a person hosts a table from the page (game, seats, bots), sees the bot sit
down (a real local `p2ptarot join --bot` process), starts now with the players present, plays
the game to its end in the same page, and opens it again with Rematch.

The game is Les paris divins (a whole game in seconds): the whole sinople game in a page is
test_browser_play's, and a rematch does not depend on the game (the lobby opens the same `Host`
again; test_browser_rematch rematches five games, paris divins through this same form)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.events import GameFinished, TableOpened
from p2ptarot.app.hub import Hub
from p2ptarot.web.lobby import Lobby
from p2ptarot.web.server import WebServer
from tests.web.tables import CLICK, OVER, config, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
GAME = "paris-divins"
SEATS = "document.querySelector('#lobby table.seats') ? document.querySelector('#lobby table.seats').textContent : ''"


async def test_host_from_the_page_with_a_bot_and_start_now(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    hub = Hub()
    cfg = config(tmp_path, "Hana", hub)
    cfg.ready = False  # as `p2ptarot web` sets it
    lobby = Lobby(hub, cfg, ["127.0.0.1"])
    server = WebServer(hub, on_command=lobby.command)
    url = await server.start()
    watching = asyncio.create_task(lobby.watch(every=0.3))
    try:
        page = await browser.page(url)
        await page.wait_for("document.getElementById('hostgame') !== null", timeout=60)
        games = await page.js("[...document.querySelectorAll('#hostgame option')].map(o => o.value)")
        assert "sinople" in games and "arcanoid" in games
        await page.js(f"const g = document.getElementById('hostgame'); g.value = '{GAME}';"
                      "g.dispatchEvent(new Event('change'))")
        assert await page.js("document.getElementById('hostseats').min") == "2"
        await page.js("document.getElementById('myname').value = 'Hana';"
                      "document.getElementById('hostseats').value = '3';"
                      "document.getElementById('hostbots').value = '1';"
                      "document.getElementById('hostbtn').click()")
        # the bot process sits down: two of three seats, the bot ready, the host not yet
        await page.wait_for(f"({SEATS}).includes('bot-1')", timeout=60)
        rows = await page.js("[...document.querySelectorAll('#lobby table.seats tr')].slice(1).map(r => r.textContent)")
        assert rows == ["1Hana (you) · hostnot ready", "2bot-1bot, ready ✓", "3free seat"]
        assert await page.js("document.getElementById('status').textContent") == \
            "Before the game: waiting for 1 more player — Hana is not ready yet"
        keep_shot(await page.screenshot(tmp_path / "host-from-page.png"))
        assert await page.js("document.getElementById('startnow').textContent") == "Start now with 2 players"
        assert not any(isinstance(e, TableOpened) for e in hub.history)
        await page.js("document.getElementById('startnow').click()")
        await page.wait_for("document.getElementById('players').textContent.includes('bot-1 · seat 2')",
                            timeout=60)
        table = next(e for e in hub.history if isinstance(e, TableOpened))
        assert table.names == ("Hana", "bot-1")  # the charter seats the two players present
        while not await page.js(OVER):
            if await page.js("(S.turn && !S.answered)"):
                await page.js(CLICK)
            await asyncio.sleep(0.05)
        assert "Final standings" in await page.js("document.getElementById('results').textContent")
        result = await asyncio.wait_for(lobby.game, 60)
        assert result.outcome is not None
        assert lobby.bots is not None and [c.returncode for c in lobby.bots.children] == [0]
        # Rematch: the same table again (a fresh page), its bot sits down anew (issue 23)
        await page.js("window.beforeRematch = true; document.getElementById('rematch').click()")
        await page.wait_for(f"!window.beforeRematch && ({SEATS}).includes('bot-1')", timeout=90)
        assert not [e for e in hub.history if isinstance(e, (GameFinished, TableOpened))]
        assert "paris" in (await page.js("document.getElementById('lobby').textContent")).lower()
        assert lobby.hosted is not None and lobby.hosted.game == GAME
    finally:
        watching.cancel()
        await lobby.close()
        await server.close()
        await browser.close()
