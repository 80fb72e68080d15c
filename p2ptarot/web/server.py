"""The local web server behind the browser table.

Binds to 127.0.0.1 unless told otherwise, and answers only requests that carry the random token
printed in the page's URL (anything else gets 403, so another local user or a web page in the
browser cannot play for you), addressed to the address it printed (a `Host` naming anything else
— a DNS-rebinding page that learned the token — gets 403 too), with at most a few websockets
open at once. The page and its script and style are files of this package, sent
inline: nothing is fetched from elsewhere. Events of the peer application layer go to the page
as JSON over a websocket; the page's commands come back the same way and are checked like any
untrusted input.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import secrets
from importlib import resources
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from html import escape
import re

from p2ptarot.i18n import (LANGUAGES, _, accept_language, normalize, page_catalogue,
                           translations)
from p2ptarot.i18n.message import render as say

from p2ptarot.app.events import Command, Event, command_from_json
from p2ptarot.app.hub import Hub

logger = logging.getLogger(__name__)
#: a command bigger than this is refused (a move is a few dozen bytes; a written Eleusis rule is at
#: most 4096 bytes of text, which JSON escaping may grow)
MAX_COMMAND_BYTES = 16384
Extra = Callable[[Command], Awaitable[None]]
#: websockets open at once on one page token (a page holds one; a few tabs or a reload racing
#: its old socket's close are honest; more is a script opening sockets to exhaust the host)
MAX_PAGE_SOCKETS = 8
#: the names a loopback server is also reached by (the browser may write either form)
_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


#: the page's scripts, inlined in this order into one <script>: the table core, the shared per-game
#: drawing, one module per game (paired with present/<game>.py), the lobby, then the wiring that
#: connects to the peer
GAME_SCRIPTS = ("arcanoid", "arcanum", "eleusis", "paris_divins", "tricks", "sinople", "trois_roses")
SCRIPTS = ("app.js", "games/board.js", *(f"games/{g}.js" for g in GAME_SCRIPTS), "lobby.js", "boot.js")


#: `{{Rules}}` in index.html: a msgid, replaced by its translation (escaped) when served
_HTML_MSG = re.compile(r"\{\{([^{}]+)\}\}")


def page_language(query: str | None, fixed: str | None, accept: str | None) -> str:
    """The page's language: the page's own choice (`?lang=`), else the command's `--lang`, else
    the browser's (Accept-Language, which is what navigator.language reports), else English."""
    return normalize(query) or normalize(fixed) or accept_language(accept) or LANGUAGES[0]


def page_html(token: str, lang: str = "en", lobby: bool = False) -> str:
    """The whole page in `lang`: HTML with the package's CSS and JS inlined, its words
    translated, and the page's catalogue (`I18N`, read by the scripts' `t()`) inlined first."""
    static = resources.files("p2ptarot.web") / "static"
    tr = translations(lang)
    html = _HTML_MSG.sub(lambda m: escape(tr.gettext(m.group(1)), quote=True),
                         (static / "index.html").read_text(encoding="utf-8"))
    # inside <script>: "</" never appears (a msgid cannot close the element)
    catalogue = json.dumps(page_catalogue(lang), ensure_ascii=True, sort_keys=True).replace("</", "<\\/")
    # LOBBY_APP: the page belongs to `p2ptarot web` (after a game: back to its lobby, a rematch);
    # a `host --web` or `join --web` page has no lobby to go back to, so it offers neither
    head = (f"const LANG = {json.dumps(lang)};\nconst LOBBY_APP = {json.dumps(lobby)};\n"
            f"const I18N = {catalogue};\n")
    script = head + "\n".join(static.joinpath(*name.split("/")).read_text(encoding="utf-8")
                               for name in SCRIPTS)
    return (html.replace("/*STYLE*/", (static / "style.css").read_text(encoding="utf-8"))
                .replace("/*SCRIPT*/", script)
                .replace("__LANG__", lang)
                .replace("__TOKEN__", token))


class WebServer:
    """Serves one hub's events to local pages. `on_command` receives the commands the hub does
    not (the lobby's sit, host, after-game commands and leave), e.g. from `p2ptarot web`."""

    def __init__(self, hub: Hub, host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                 on_command: Extra | None = None, lang: str | None = None) -> None:
        self.hub = hub
        #: the command's --lang (None: each page speaks its browser's language)
        self.lang = lang
        self.host, self.port = host, port
        self.token = token or secrets.token_urlsafe(18)
        self.on_command = on_command
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/?token={self.token}"

    async def start(self) -> str:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_COMMAND_BYTES)
        app.router.add_get("/", self._index)
        app.router.add_get("/ws", self._ws)
        app.router.add_get("/i18n.json", self._catalogue)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server  # the bound port when 0 was asked
        if isinstance(server, asyncio.Server) and server.sockets:  # an asyncio Server once started
            self.port = server.sockets[0].getsockname()[1]
        return self.url

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def host_allowed(self, host_header: str | None) -> bool:
        """Whether a request's `Host` names this server as printed (or a loopback form of it,
        for a loopback server): a rebinding page's own name never does, whatever it resolves
        to. A wildcard bind (0.0.0.0, ::) accepts any IP literal, never a name but localhost."""
        if not host_header:
            return False
        try:
            parts = urlsplit(f"//{host_header}")
            name = parts.hostname or ""
            port = 80 if parts.port is None else parts.port  # a browser omits :80
        except ValueError:
            return False
        if port != self.port or parts.username is not None or parts.password is not None:
            return False
        bound = self.host.strip("[]").lower()
        if name == bound:
            return True
        if bound in _LOOPBACK or bound in ("0.0.0.0", "::"):
            if name in _LOOPBACK:
                return True
        if bound in ("0.0.0.0", "::"):
            return _is_ip(name)
        return False

    # ---- requests -----------------------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if not self.host_allowed(request.headers.get("Host")):
            return web.Response(status=403, text="forbidden: open the address printed by p2ptarot\n")
        given = request.query.get("token", "")
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return web.Response(status=403, text="forbidden: open the URL printed by p2ptarot\n")
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            return web.Response(status=403, text="forbidden: another site's page\n")
        return await handler(request)

    def _language(self, request: web.Request) -> str:
        return page_language(request.query.get("lang"), self.lang,
                             request.headers.get("Accept-Language"))

    async def _catalogue(self, request: web.Request) -> web.Response:
        """The page's catalogue as JSON (the page itself gets it inline)."""
        lang = self._language(request)
        return web.json_response({"lang": lang, "messages": page_catalogue(lang)},
                                 headers={"Cache-Control": "no-store"})

    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(text=page_html(self.token, self._language(request),
                                           lobby=self.on_command is not None),
                            content_type="text/html",
                            headers={"Cache-Control": "no-store",
                                     "Content-Security-Policy": "default-src 'self' 'unsafe-inline'; "
                                                                "connect-src 'self'; img-src 'self' data:"})

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        if len(self._sockets) >= MAX_PAGE_SOCKETS:
            return web.Response(status=429, text="too many pages open: close one\n")
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_COMMAND_BYTES)
        self._sockets.add(ws)  # counted before the handshake's await: no race past the cap
        try:
            await ws.prepare(request)
        except BaseException:
            self._sockets.discard(ws)
            raise
        queue = self.hub.subscribe()
        pump = asyncio.create_task(self._forward(queue, ws))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._command(msg.data, ws)
        finally:
            pump.cancel()
            self.hub.unsubscribe(queue)
            self._sockets.discard(ws)
        return ws

    async def _forward(self, queue: asyncio.Queue[Event], ws: web.WebSocketResponse) -> None:
        try:
            while not ws.closed:
                ev = await queue.get()
                await ws.send_str(json.dumps(ev.to_json(), default=str))
        except (ConnectionError, RuntimeError):
            return

    async def _command(self, text: str, ws: web.WebSocketResponse) -> None:
        try:
            cmd = command_from_json(json.loads(text))
        except ValueError as exc:  # json.JSONDecodeError is a ValueError too
            await ws.send_str(json.dumps({"type": "error",
                                          "text": _("bad command: {why}").format(why=say(exc))}))
            return
        if self.on_command is not None and type(cmd).__name__ in ("Sit", "Host", "BackToLobby",
                                                                    "Rematch", "Leave",
                                                                    "CheckConnection"):
            await self.on_command(cmd)
        else:
            self.hub.send(cmd)


def _is_ip(name: str) -> bool:
    """Whether a Host name is an IP literal (never a DNS name a page could rebind)."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
