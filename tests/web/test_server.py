"""The local web server: token or 403, 127.0.0.1 by default, nothing loaded from elsewhere,
events to the page over a websocket, hostile commands answered with an error."""

from __future__ import annotations

import asyncio
import json
import re

import aiohttp
import pytest

from p2ptarot.app.events import Notice
from p2ptarot.app.hub import Hub
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


async def test_a_foreign_host_header_is_refused_even_with_the_token() -> None:
    """DNS rebinding: a page on evil.example that learned the token and made its name resolve to
    127.0.0.1 sends `Host: evil.example:PORT`; the page, the catalogue and the websocket are all
    refused. The printed address and its localhost forms are served."""
    server = WebServer(Hub())
    url = await server.start()
    try:
        port = server.port
        path = url.split(f":{port}", 1)[1]
        async with aiohttp.ClientSession() as http:
            for host in (f"evil.example:{port}", f"127.0.0.1.evil.example:{port}", "127.0.0.1",
                         f"127.0.0.1:{port + 1}", f"user@127.0.0.1:{port}", ""):
                for where in (path, path.replace("/?", "/i18n.json?"),
                              path.replace("/?", "/ws?")):
                    async with http.get(f"http://127.0.0.1:{port}{where}",
                                        headers={"Host": host}) as r:
                        assert r.status == 403, (host, where)
                        if where.startswith("/i18n.json"):
                            assert "messages" not in await r.text()
            for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}",
                         f"[::1]:{port}"):
                async with http.get(f"http://127.0.0.1:{port}{path}",
                                    headers={"Host": host}) as r:
                    assert r.status == 200, host
    finally:
        await server.close()


async def test_websockets_per_page_token_are_capped() -> None:
    from p2ptarot.web.server import MAX_PAGE_SOCKETS
    server = WebServer(Hub())
    url = await server.start()
    ws_url = url.replace("http://", "ws://").replace("/?", "/ws?")
    try:
        async with aiohttp.ClientSession() as http:
            open_ = [await http.ws_connect(ws_url) for _ in range(MAX_PAGE_SOCKETS)]
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(ws_url)
            assert refused.value.status == 429
            await open_[0].close()
            for _ in range(100):  # the server sees the close, then a new page may connect
                if len(server._sockets) < MAX_PAGE_SOCKETS:
                    break
                await asyncio.sleep(0.02)
            again = await http.ws_connect(ws_url)
            assert not again.closed
            for ws in (*open_[1:], again):
                await ws.close()
    finally:
        await server.close()
