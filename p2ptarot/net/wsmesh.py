"""The LAN carrier: the table's links as websockets (aiohttp), one full mesh per table.

``Mesh`` serves ``ws://host:port/p2ptarot``, dials peers on demand and moves text frames; the
link core (``linkset.LinkSet``, run by ``carrier.Carrier``) does the rest: the hello handshake,
admission, the replacement rule, the heartbeat (websocket pings, answered here), the pace of a
fast peer (the reader pauses, so TCP pushes back on the sender), close codes and reasons, events.
Payloads are opaque UTF-8 JSON objects sent as text frames; delivery is best effort (the table
re-requests missing log entries from any peer).

Every resource a stranger can make it spend is bounded (``limits.py``, SECURITY.md §6): pending
connections (oldest closed first) and their deadline from TCP accept, handshake frame size,
links, frames and bytes read per second per link, the event queue (readers wait).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from dataclasses import dataclass

import aiohttp
from aiohttp import WSMsgType, web

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.i18n.message import tr
from p2ptarot.net.carrier import Carrier, Ended
from p2ptarot.net.errors import ConnectError, HandshakeError
from p2ptarot.net.handshake import Signer
from p2ptarot.net.limits import ConnectionGuard, ResourceErrorFilter
from p2ptarot.net.events import LinkRejected, PeerKey
from p2ptarot.net.linkset import (CLOSE_GOING_AWAY, CLOSE_MESSAGE_TOO_BIG, Conn, LinkInfo, LinkPolicy, Liveness,
                                  peer_text)

__all__ = ["CLOSE_GOING_AWAY", "CLOSE_MESSAGE_TOO_BIG", "WS_PATH", "LinkInfo", "Mesh",
           "MeshConfig"]

logger = logging.getLogger(__name__)

WS_PATH = "/p2ptarot"
DEFAULT_MAX_MESSAGE_SIZE = 4 * 1024 * 1024
MIN_MESSAGE_SIZE = 1024  # room for the handshake frames
MAX_HANDSHAKE_FRAME = 1024  # a hello is ~170 bytes, a proof ~100
_MAX_REASON_BYTES = 123  # RFC 6455: control frame payload <= 125, minus the 2-byte code

_WsType = web.WebSocketResponse | aiohttp.ClientWebSocketResponse


@dataclass(frozen=True)
class MeshConfig:
    """Settings of one mesh endpoint; ``host`` defaults to loopback so nothing leaks by accident."""

    host: str = "127.0.0.1"
    port: int = 0
    protocol_version: int = PROTOCOL_VERSION
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE
    #: seconds between pings of a quiet link; a link silent 1.5 times that long is dropped
    heartbeat: float | None = 15.0
    handshake_timeout: float = 10.0
    connect_timeout: float = 10.0
    close_timeout: float = 5.0
    max_dropped_frames: int = 64  # a peer that keeps sending garbage is cut off, not queued
    #: incoming connections not yet authenticated (TCP, HTTP upgrade or hello under way); a
    #: newcomer beyond this closes the oldest one, and each is closed ``handshake_timeout`` +
    #: ``close_timeout`` after it was accepted, so silent or slow sockets cannot pin the host
    max_pending_handshakes: int = 32
    #: authenticated links (a table has at most 11 peers; the rest is room for lobby visitors)
    max_links: int = 64
    #: per-link reading rate: frames and bytes per second, and the burst saved up; past it the
    #: reader pauses (TCP pushes back on the sender), nothing is dropped
    frame_rate: float = 200.0
    frame_burst: int = 2000
    byte_rate: float = 4 * 1024 * 1024
    byte_burst: int = 16 * 1024 * 1024
    #: events waiting for the peer; when full, readers pause and notices are dropped
    max_queued_events: int = 1024

    def __post_init__(self) -> None:
        if self.max_message_size < MIN_MESSAGE_SIZE:
            raise ValueError(f"max_message_size must be at least {MIN_MESSAGE_SIZE} (the hello)")
        if not 0 <= self.port <= 65535:
            raise ValueError("port must be in 0..65535")
        if self.max_pending_handshakes < 1:
            raise ValueError("max_pending_handshakes must be at least 1")
        if self.max_links < 1 or self.max_queued_events < 1:
            raise ValueError("max_links and max_queued_events must be at least 1")
        if min(self.frame_rate, self.frame_burst, self.byte_rate, self.byte_burst) <= 0:
            raise ValueError("rate limits must be positive")

    def policy(self) -> LinkPolicy:
        """The link core's rules for this endpoint."""
        return LinkPolicy(
            protocol_version=self.protocol_version, handshake_timeout=self.handshake_timeout,
            max_handshake_frame=MAX_HANDSHAKE_FRAME, max_links=self.max_links,
            max_dropped_frames=self.max_dropped_frames, frame_rate=self.frame_rate,
            frame_burst=self.frame_burst, byte_rate=self.byte_rate, byte_burst=self.byte_burst,
            liveness=Liveness.heartbeat(self.heartbeat) if self.heartbeat else None)


class Mesh(Carrier):
    """One peer's endpoint of the table mesh: a listening server plus outgoing links."""

    def __init__(self, identity: Signer, config: MeshConfig | None = None) -> None:
        self.config = config or MeshConfig()
        super().__init__(identity, self.config.policy(), self.config.max_message_size,
                         self.config.max_queued_events)
        self._sockets: set[_WsType] = set()
        self._send_locks: dict[_WsType, asyncio.Lock] = {}
        self._closing: dict[_WsType, asyncio.Task[None]] = {}
        self._guard = ConnectionGuard(self.config.max_pending_handshakes,
                                      self.config.handshake_timeout + self.config.close_timeout,
                                      self._guard_dropped)
        self._server: asyncio.AbstractServer | None = None
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._port: int | None = None
        self._closed = False

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Bind the server (port 0 picks a free port, see ``port``) and open the client session."""
        if self._runner is not None:
            raise RuntimeError("mesh already started")
        app = web.Application()
        app.router.add_get(WS_PATH, self._serve)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        # our own listener instead of web.TCPSite: the guard sees every TCP connection
        self._server = await loop.create_server(self._guard.factory(server), self.config.host,
                                                self.config.port, reuse_address=True)
        self._port = int(self._server.sockets[0].getsockname()[1])
        current = loop.get_exception_handler()
        if not isinstance(current, ResourceErrorFilter):
            # kept for the loop's life: it passes every other error to the handler it wraps, and
            # several meshes in one loop share it
            loop.set_exception_handler(ResourceErrorFilter(current))
        self._session = aiohttp.ClientSession()
        self._start_ticker()

    async def close(self) -> None:
        """Close every link (code 1001), stop the server; idempotent."""
        if self._closed:
            return
        self._closed = True
        await self._stop_core()
        for ws in list(self._sockets):
            self._shut(ws, CLOSE_GOING_AWAY, "shutdown")
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=self.config.close_timeout)
        for task in list(self._tasks):
            task.cancel()
        if self._server is not None:
            self._server.close()
        self._guard.close_all()
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("mesh not started")
        return self._port

    @property
    def url(self) -> str:
        """The URL of the bound host (a wildcard when bound to every interface)."""
        return f"ws://{self.config.host}:{self.port}{WS_PATH}"

    @property
    def address(self) -> str:
        """Where peers dial us: the bound interface, or this host's LAN address when bound to
        every interface (a wildcard address cannot be dialled)."""
        if self.config.host not in ("0.0.0.0", "::", ""):
            return self.url
        try:
            host = socket.gethostbyname(socket.gethostname())
        except OSError:
            host = "127.0.0.1"
        return f"ws://{host}:{self.port}{WS_PATH}"

    # ----------------------------------------------------------------- dialling

    async def connect(self, url: str, expected_key: PeerKey | None = None) -> PeerKey:
        """Dial ``url``, authenticate, and return the peer's key.

        ``expected_key`` pins the identity (from the charter): a different key is refused.
        Raises ``ConnectError`` if the socket cannot be opened, ``HandshakeError`` if refused.
        """
        if self._session is None or self._closed:
            raise RuntimeError("mesh is not running")
        try:
            async with asyncio.timeout(self.config.connect_timeout):
                ws = await self._session.ws_connect(url, max_msg_size=self.config.max_message_size,
                                                    autoping=False)
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
            raise ConnectError(tr("cannot connect to {url}: {why}", url=url,
                                  why=exc if str(exc) else type(exc).__name__)) from exc
        self._sockets.add(ws)
        return (await self._handshake(ws, url, True, expected_key)).peer

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=self.config.max_message_size, compress=False,
                                   autoping=False)
        if self._closed:
            raise web.HTTPServiceUnavailable()
        await ws.prepare(request)
        self._sockets.add(ws)
        with contextlib.suppress(HandshakeError):
            await self._handshake(ws, str(request.remote), False)
            self._guard.authenticated(request.protocol)
        await self._read_until_released(ws)
        closing = self._closing.get(ws)
        if closing is not None:  # close with the core's code before aiohttp closes with 1000
            await asyncio.wait({closing})
        return ws

    def _guard_dropped(self, address: str, reason: str) -> None:
        logger.debug("connection from %s closed: %s", address, reason)
        self._events.emit(LinkRejected(address, reason, None))

    # ----------------------------------------------------------------- the carrier's moves

    async def _read(self, conn: Conn) -> str | bytes | Ended:
        ws: _WsType = conn  # type: ignore[assignment]  # this carrier's connections are websockets
        while True:
            msg = await ws.receive()
            if msg.type is WSMsgType.TEXT:
                return str(msg.data)
            if msg.type is WSMsgType.BINARY:
                return bytes(msg.data)
            if msg.type is WSMsgType.PING:
                with contextlib.suppress(Exception):
                    await ws.pong(msg.data)
                self.core.heard(ws, self._clock())
            elif msg.type is WSMsgType.PONG:
                self.core.heard(ws, self._clock())
            elif msg.type is WSMsgType.CLOSE:
                return Ended(msg.data, (peer_text(msg.extra) if msg.extra else "") or tr("closed by peer"))
            elif msg.type is WSMsgType.ERROR:
                code = _error_code(msg.data) or ws.close_code
                # a protocol error of the peer's (a frame too big): tell it why
                return Ended(code, _describe_error(msg.data), code is not None and code >= 1002)
            else:
                return Ended(ws.close_code, "connection closed")

    async def _write(self, conn: Conn, data: bytes) -> bool:
        """One text frame of already-encoded UTF-8 (aiohttp's `send_str` would encode the text
        again for every link)."""
        ws: _WsType = conn  # type: ignore[assignment]  # a carrier's connections are its own kind (Conn is any hashable to the core)
        lock = self._send_locks.get(ws)
        if lock is None:
            lock = self._send_locks[ws] = asyncio.Lock()
        async with lock:
            if ws.closed:
                return False
            try:
                await ws.send_frame(data, WSMsgType.TEXT)
            except (ConnectionError, aiohttp.ClientError, RuntimeError) as exc:
                logger.info("send on %s failed: %s", id(ws), exc)
                return False
        return True

    def _ping(self, conn: Conn) -> None:
        ws: _WsType = conn  # type: ignore[assignment]  # a carrier's connections are its own kind (Conn is any hashable to the core)
        self._spawn(_quietly(ws.ping()))

    def _shut(self, conn: Conn, code: int, reason: str) -> None:
        ws: _WsType = conn  # type: ignore[assignment]  # a carrier's connections are its own kind (Conn is any hashable to the core)
        if ws in self._closing:
            return  # the first close says why
        task = asyncio.ensure_future(self._close_ws(ws, code, reason))
        self._closing[ws] = task
        self._tasks.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._tasks.discard(finished)
            self._closing.pop(ws, None)
        task.add_done_callback(done)

    def _released(self, conn: Conn) -> None:
        self._sockets.discard(conn)
        self._send_locks.pop(conn, None)  # type: ignore[call-overload]  # a carrier's connections are its own kind (Conn is any hashable to the core)

    async def _close_ws(self, ws: _WsType, code: int, reason: str) -> None:
        if ws.closed:
            return
        message = reason.encode("utf-8")[:_MAX_REASON_BYTES]
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.config.close_timeout):
                await ws.close(code=code, message=message)


async def _quietly(ping: object) -> None:
    with contextlib.suppress(Exception):
        await ping  # type: ignore[misc]  # an aiohttp ping coroutine, typed object here


def _error_code(exc: object) -> int | None:
    code = getattr(exc, "code", None)
    return int(code) if isinstance(code, int) else None


def _describe_error(exc: object) -> str:
    code = getattr(exc, "code", None)
    if code == CLOSE_MESSAGE_TOO_BIG:
        return "message too big"
    return f"websocket error: {exc}"
