"""The local web server: token or 403, 127.0.0.1 by default, nothing loaded from elsewhere,
events to the page over a websocket, hostile commands answered with an error."""

from __future__ import annotations

import json
import re

import aiohttp
import pytest

from p2ptarot.app.events import Notice
from p2ptarot.app.table import Hub
from p2ptarot.web.server import WebServer, page_html

pytestmark = pytest.mark.network


async def test_requests_without_the_token_are_forbidden() -> None:
    hub = Hub()
    server = WebServer(hub)
    url = await server.start()
    try:
        assert url.startswith("http://127.0.0.1:") and "token=" in url
        base = url.split("?")[0]
        async with aiohttp.ClientSession() as http:
            for bad in (base, base + "?token=", base + "?token=" + "x" * 24, base + "ws"):
                async with http.get(bad) as r:
                    assert r.status == 403, bad
            async with http.get(url) as r:
                assert r.status == 200
                assert "<title>p2ptarot table</title>" in await r.text()
            async with http.get(url, headers={"Origin": "http://evil.example"}) as r:
                assert r.status == 403
    finally:
        await server.close()


async def test_the_page_is_self_contained() -> None:
    html = page_html("TOKEN")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)  # no CDN, no remote asset
    assert "https://" not in html and "http://" not in html
    assert "innerHTML" not in html  # names and sentences come from other players: textContent only
    assert '"TOKEN"' in html


async def test_events_reach_the_page_and_bad_commands_get_an_error() -> None:
    hub = Hub()
    hub.publish(Notice("before the page opened"))
    server = WebServer(hub)
    url = await server.start()
    try:
        ws_url = url.replace("http://", "ws://").replace("/?", "/ws?")
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(ws_url) as ws:
                first = json.loads((await ws.receive()).data)
                assert first == {"type": "notice", "text": "before the page opened"}
                hub.publish(Notice("later"))
                assert json.loads((await ws.receive()).data)["text"] == "later"
                await ws.send_str("{not json")
                assert json.loads((await ws.receive()).data)["type"] == "error"
                await ws.send_str(json.dumps({"cmd": "move", "turn": "1", "index": 1}))
                assert json.loads((await ws.receive()).data)["type"] == "error"
                await ws.send_str(json.dumps({"cmd": "move", "turn": 1, "index": 2}))
                cmd = await hub.commands.get()
                assert (cmd.turn, cmd.index) == (1, 2)
    finally:
        await server.close()
