"""Authenticated websocket full mesh between the peers of one table (aiohttp).

The ``Mesh`` is a thin, robust pump: it serves ``ws://host:port/p2ptarot``, dials peers on
demand, authenticates every link with the hello handshake (``handshake.py``), keys links by
the peer's Ed25519 public key, and reports everything (data, link up/down, rejections,
dropped frames) on one event queue.  It knows nothing of the table protocol: payloads are
opaque UTF-8 JSON objects sent as text frames.  Delivery is best effort; the table layer
already re-requests missing log entries from any peer, so a message lost while a link is
replaced costs a catch-up, not correctness.

Every resource a stranger or a flooding peer can make it spend is bounded (``limits.py``,
SECURITY.md §6): pending connections (oldest closed first) and their deadline from TCP accept,
handshake frame size, links, frames and bytes read per second per link (the reader pauses), the
event queue (readers wait), and once ``admit_only`` names the seats nobody else is linked.

Link replacement rule (both ends reach the same answer without talking):
- a new link to a key whose existing link is closed, or whose peer presents a different
  ``instance`` id (the peer restarted), replaces the old link;
- two live links from the same peer instance (both sides dialled at once, or a redial) keep
  the one dialled by the smaller public key; if the same side dialled both, the newer wins.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field

import aiohttp
from aiohttp import WSMsgType, web

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.net.errors import (
    ConnectError,
    HandshakeError,
    MessageTooLarge,
    NoLinkError,
)
from p2ptarot.net.events import (
    EventQueue,
    FrameDropped,
    LinkDown,
    LinkRejected,
    LinkUp,
    MeshEvent,
    PeerKey,
    Received,
)
from p2ptarot.net.handshake import (
    CLOSE_BAD_FRAMES,
    CLOSE_BAD_HELLO,
    CLOSE_DUPLICATE,
    CLOSE_FULL,
    CLOSE_REPLACED,
    CLOSE_SELF,
    CLOSE_TIMEOUT,
    CLOSE_UNEXPECTED_KEY,
    CLOSE_VERSION,
    INSTANCE_SIZE,
    READY,
    Hello,
    Signer,
    check_proof,
    check_ready,
    make_proof,
    parse_hello,
    public_key_of,
)
from p2ptarot.net.limits import ConnectionGuard, ResourceErrorFilter, TokenBucket
from p2ptarot.table.names import printable
from p2ptarot.i18n.message import tr

logger = logging.getLogger(__name__)

WS_PATH = "/p2ptarot"
DEFAULT_MAX_MESSAGE_SIZE = 4 * 1024 * 1024
MIN_MESSAGE_SIZE = 1024  # room for the handshake frames
MAX_HANDSHAKE_FRAME = 1024  # a hello is ~170 bytes, a proof ~100
CLOSE_GOING_AWAY = 1001
CLOSE_MESSAGE_TOO_BIG = 1009
_MAX_REASON_BYTES = 123  # RFC 6455: control frame payload <= 125, minus the 2-byte code

_WsType = web.WebSocketResponse | aiohttp.ClientWebSocketResponse


@dataclass(frozen=True)
class MeshConfig:
    """Settings of one mesh endpoint; ``host`` defaults to loopback so nothing leaks by accident."""

    host: str = "127.0.0.1"
    port: int = 0
    protocol_version: int = PROTOCOL_VERSION
    max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE
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
    #: events waiting for the peer (its game pump); when full, readers pause and notices are dropped
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


@dataclass(frozen=True)
class LinkInfo:
    """Public snapshot of one link; times are ``time.monotonic()`` seconds."""

    peer: PeerKey
    address: str
    dialed: bool
    established: float
    last_received: float


@dataclass(eq=False)
class _Link:
    ws: _WsType
    peer: PeerKey
    peer_instance: bytes
    address: str
    dialed: bool
    established: float = field(default_factory=time.monotonic)
    last_received: float = field(default_factory=time.monotonic)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    local_close: tuple[int, str] | None = None
    dropped: int = 0
    frames: TokenBucket | None = None
    octets: TokenBucket | None = None

    def info(self) -> LinkInfo:
        return LinkInfo(self.peer, self.address, self.dialed, self.established, self.last_received)


class Mesh:
    """One peer's endpoint of the table mesh: a listening server plus outgoing links."""

    def __init__(self, identity: Signer, config: MeshConfig | None = None) -> None:
        self.config = config or MeshConfig()
        self._identity = identity
        self.public_key: PeerKey = public_key_of(identity)
        self._instance = os.urandom(INSTANCE_SIZE)
        self._links: dict[PeerKey, _Link] = {}
        self._sockets: set[_WsType] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._events = EventQueue(self.config.max_queued_events)
        self.throttled = 0  # reads paused by the per-link rate limit
        self._guard = ConnectionGuard(self.config.max_pending_handshakes,
                                      self.config.handshake_timeout + self.config.close_timeout,
                                      self._guard_dropped)
        self._server: asyncio.AbstractServer | None = None
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._port: int | None = None
        self._closed = False
        self._admitted: frozenset[PeerKey] | None = None

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

    async def close(self) -> None:
        """Close every link (code 1001), stop the server; idempotent."""
        if self._closed:
            return
        self._closed = True
        for link in list(self._links.values()):
            link.local_close = (CLOSE_GOING_AWAY, "shutdown")
        await asyncio.gather(
            *(self._close_ws(ws, CLOSE_GOING_AWAY, "shutdown") for ws in list(self._sockets)),
            return_exceptions=True,
        )
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

    async def __aenter__(self) -> Mesh:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

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

    # ----------------------------------------------------------------- queries

    def peers(self) -> list[PeerKey]:
        """Keys with an open authenticated link."""
        return [key for key, link in self._links.items() if not link.ws.closed]

    def links(self) -> dict[PeerKey, LinkInfo]:
        return {key: link.info() for key, link in self._links.items()}

    async def next_event(self) -> MeshEvent:
        return await self._events.get()

    def drain_events(self) -> list[MeshEvent]:
        """Every event already queued, without waiting."""
        return self._events.drain()

    @property
    def dropped_notices(self) -> int:
        """Notices (rejections, dropped frames) dropped because the event queue was full."""
        return self._events.dropped_notices

    async def events(self) -> AsyncIterator[MeshEvent]:
        """Endless stream of events, in the order they happened."""
        while True:
            yield await self.next_event()

    # ----------------------------------------------------------------- dialling

    async def connect(self, url: str, expected_key: PeerKey | None = None) -> PeerKey:
        """Dial ``url``, authenticate, and return the peer's key.

        ``expected_key`` pins the identity (from the charter): a different key is refused.
        Raises ``ConnectError`` if the socket cannot be opened, ``HandshakeError`` if refused.
        """
        session = self._require_running()
        try:
            async with asyncio.timeout(self.config.connect_timeout):
                ws = await session.ws_connect(
                    url,
                    heartbeat=self.config.heartbeat,
                    max_msg_size=self.config.max_message_size,
                    autoping=True,
                )
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as exc:
            raise ConnectError(tr("cannot connect to {url}: {why}", url=url,
                                  why=exc if str(exc) else type(exc).__name__)) from exc
        self._sockets.add(ws)
        try:
            link = await self._handshake(ws, url, dialed=True, expected_key=expected_key)
        except BaseException:
            self._sockets.discard(ws)
            raise
        if await self._adopt(link):
            self._spawn(self._pump_then_forget(link))
        else:
            self._sockets.discard(ws)
        return link.peer

    def admit_only(self, keys: Iterable[PeerKey] | None) -> None:
        """Accept links only from ``keys`` from now on (None: anyone, e.g. before the charter).

        Existing links from other keys are closed now, and nothing they still send is delivered,
        nor is anything broadcast to them.
        """
        self._admitted = None if keys is None else frozenset(keys)
        if self._admitted is None:
            return
        for key, link in list(self._links.items()):
            if key not in self._admitted and not link.ws.closed:
                link.local_close = (CLOSE_UNEXPECTED_KEY, tr("not a member of this table"))
                self._spawn(self._close_ws(link.ws, CLOSE_UNEXPECTED_KEY,
                                           tr("not a member of this table")))

    def _is_admitted(self, key: PeerKey) -> bool:
        return self._admitted is None or key in self._admitted

    async def disconnect(self, peer: PeerKey, reason: str = "disconnected") -> None:
        """Close the link to ``peer`` (a ``LinkDown`` follows); no error if there is none."""
        link = self._links.get(peer)
        if link is not None:
            link.local_close = (CLOSE_GOING_AWAY, reason)
            await self._close_ws(link.ws, CLOSE_GOING_AWAY, reason)

    # ----------------------------------------------------------------- sending

    async def send(self, peer: PeerKey, data: bytes) -> None:
        """Send one UTF-8 JSON message to ``peer``; raises ``NoLinkError`` if it cannot go out."""
        frame = self._checked(data)
        link = self._links.get(peer)
        if link is None or link.ws.closed:
            raise NoLinkError(f"no open link to peer {peer.hex()[:16]}")
        if not await self._send_frame(link, frame):
            raise NoLinkError(f"link to peer {peer.hex()[:16]} lost while sending")

    async def broadcast(self, data: bytes) -> list[PeerKey]:
        """Send to every open link at once; returns the peers it was handed to.

        This is not an authenticated broadcast (a sender can still equivocate); the table's
        hash chain is what detects that.
        """
        frame = self._checked(data)  # encoded once, the same bytes for every link
        links = [link for link in self._links.values()
                 if not link.ws.closed and self._is_admitted(link.peer)]
        results = await asyncio.gather(*(self._send_frame(link, frame) for link in links))
        return [link.peer for link, ok in zip(links, results, strict=True) if ok]

    def _checked(self, data: bytes) -> bytes:
        """`data` itself once it is known to fit and to be UTF-8 (a text frame's payload)."""
        if len(data) > self.config.max_message_size:
            raise MessageTooLarge(
                f"message of {len(data)} bytes exceeds limit {self.config.max_message_size}"
            )
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError("mesh messages must be UTF-8 JSON") from exc
        return bytes(data)

    async def _send_frame(self, link: _Link, frame: bytes) -> bool:
        """One text frame of already-encoded UTF-8 (aiohttp's `send_str` would encode the text
        again for every link)."""
        async with link.send_lock:
            if link.ws.closed:
                return False
            try:
                await link.ws.send_frame(frame, WSMsgType.TEXT)
            except (ConnectionError, aiohttp.ClientError, RuntimeError) as exc:
                logger.info("send to %s failed: %s", link.peer.hex()[:16], exc)
                return False
        return True

    # ----------------------------------------------------------------- internals

    def _require_running(self) -> aiohttp.ClientSession:
        if self._session is None or self._closed:
            raise RuntimeError("mesh is not running")
        return self._session

    def _emit(self, event: MeshEvent) -> None:
        """Queue an event; notices (rejections, dropped frames) are dropped when the queue is full,
        link changes never are (there are at most ``max_links`` of them pending per link)."""
        self._events.emit(event)

    async def _deliver(self, event: Received) -> None:
        """Queue a frame, waiting while the queue is full (the link stops being read meanwhile)."""
        await self._events.deliver(event)

    def _guard_dropped(self, address: str, reason: str) -> None:
        logger.debug("connection from %s closed: %s", address, reason)
        self._emit(LinkRejected(address, reason, None))

    def _spawn(self, coro: object) -> None:
        task = asyncio.ensure_future(coro)  # type: ignore[arg-type]  # callers hand a coroutine; typed object for the callers' sake
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            heartbeat=self.config.heartbeat,
            max_msg_size=self.config.max_message_size,
            compress=False,
        )
        if self._closed:
            raise web.HTTPServiceUnavailable()
        try:
            await ws.prepare(request)
            self._sockets.add(ws)
            link = await self._handshake(ws, str(request.remote), dialed=False,
                                         expected_key=None)
            self._guard.authenticated(request.protocol)
            if await self._adopt(link):
                await self._pump(link)
        except HandshakeError:
            pass
        finally:
            self._sockets.discard(ws)
        return ws

    async def _handshake(
        self, ws: _WsType, address: str, dialed: bool, expected_key: PeerKey | None
    ) -> _Link:
        mine = Hello.fresh(self.config.protocol_version, self.public_key, self._instance)
        try:
            try:
                async with asyncio.timeout(self.config.handshake_timeout):
                    await ws.send_str(mine.encode())
                    theirs = parse_hello(await _receive_text(ws))
                    if theirs.version != mine.version:
                        raise HandshakeError(
                            CLOSE_VERSION,
                            tr("protocol version {theirs} not supported (this peer speaks {ours})",
                               theirs=theirs.version, ours=mine.version),
                        )
                    if theirs.key == mine.key:
                        raise HandshakeError(CLOSE_SELF, tr("connected to itself"))
                    if expected_key is not None and theirs.key != expected_key:
                        raise HandshakeError(CLOSE_UNEXPECTED_KEY, tr("unexpected peer key"))
                    if self._admitted is not None and theirs.key not in self._admitted:
                        raise HandshakeError(CLOSE_UNEXPECTED_KEY, tr("not a member of this table"))
                    await ws.send_str(make_proof(self._identity, mine, theirs))
                    check_proof(await _receive_text(ws), mine, theirs)
                    await ws.send_str(READY)
                    check_ready(await _receive_text(ws))
            except TimeoutError as exc:
                raise HandshakeError(CLOSE_TIMEOUT, tr("handshake timed out")) from exc
            except (ConnectionError, aiohttp.ClientError, RuntimeError) as exc:
                raise HandshakeError(ws.close_code, tr("connection lost in handshake: {why}",
                                                       why=exc)) from exc
        except HandshakeError as err:
            logger.info("handshake with %s failed: %s", address, err)
            await self._close_ws(ws, err.code or CLOSE_BAD_HELLO, err.reason)
            self._emit(LinkRejected(address, err.reason, err.code))
            raise
        return _Link(ws=ws, peer=theirs.key, peer_instance=theirs.instance, address=address,
                     dialed=dialed)

    def _dialer(self, link: _Link) -> PeerKey:
        return self.public_key if link.dialed else link.peer

    async def _adopt(self, link: _Link) -> bool:
        """Register an authenticated link, applying the replacement rule; False if refused."""
        if self._closed:
            await self._close_ws(link.ws, CLOSE_GOING_AWAY, "shutdown")
            return False
        old = self._links.get(link.peer)
        replaced = old is not None
        if old is None and len(self._links) >= self.config.max_links:
            await self._close_ws(link.ws, CLOSE_FULL, "too many links")
            self._emit(LinkRejected(link.address, "too many links", CLOSE_FULL))
            return False
        if old is not None and not old.ws.closed and old.peer_instance == link.peer_instance:
            if self._dialer(old) < self._dialer(link):
                await self._close_ws(link.ws, CLOSE_DUPLICATE, "duplicate link")
                return False
        self._links[link.peer] = link
        if old is not None and not old.ws.closed:
            old.local_close = (CLOSE_REPLACED, "replaced by a newer link")
            self._spawn(self._close_ws(old.ws, CLOSE_REPLACED, "replaced by a newer link"))
        self._emit(LinkUp(link.peer, link.address, link.dialed, replaced))
        return True

    async def _pump_then_forget(self, link: _Link) -> None:
        try:
            await self._pump(link)
        finally:
            self._sockets.discard(link.ws)

    async def _pump(self, link: _Link) -> None:
        """Deliver frames until the link closes; never raises on peer misbehaviour."""
        ws = link.ws
        code: int | None = None
        reason = "connection closed"
        try:
            while True:
                msg = await ws.receive()
                if msg.type is WSMsgType.TEXT:
                    link.last_received = time.monotonic()
                    await self._throttle(link, len(msg.data))
                    if not self._is_admitted(link.peer):
                        continue  # cut off by admit_only: its close is under way
                    problem = _json_object_problem(msg.data)
                    if problem is None:
                        await self._deliver(Received(link.peer, msg.data.encode("utf-8")))
                    elif self._drop(link, problem):
                        break
                elif msg.type is WSMsgType.BINARY:
                    await self._throttle(link, len(msg.data))
                    if self._drop(link, "binary frame (expected UTF-8 JSON text)"):
                        break
                elif msg.type is WSMsgType.CLOSE:
                    code, reason = msg.data, _peer_text(msg.extra) or tr("closed by peer")
                    break
                elif msg.type is WSMsgType.ERROR:
                    code = _error_code(msg.data) or ws.close_code
                    reason = _describe_error(msg.data)
                    if code is not None and code >= 1002:
                        # Tell the peer why (aiohttp may already have closed abnormally).
                        link.local_close = (int(code), reason)
                    break
                else:
                    code = ws.close_code
                    break
        except Exception as exc:  # a transport bug must not take the process down
            logger.exception("link to %s failed", link.peer.hex()[:16])
            reason = f"link error: {exc}"
        finally:
            if link.local_close is not None:
                code, reason = link.local_close
            if self._links.get(link.peer) is link:
                del self._links[link.peer]
                self._emit(LinkDown(link.peer, reason, code))
            # A local close() wakes this reader first; close with *its* code, not a default.
            # Done after reporting: a peer that does not answer the close costs close_timeout.
            await self._close_ws(ws, *(link.local_close or (1000, "")))

    async def _throttle(self, link: _Link, size: int) -> None:
        """The per-link rate limit: pause reading until this frame is paid for."""
        if link.frames is None or link.octets is None:
            link.frames = TokenBucket(self.config.frame_rate, self.config.frame_burst)
            link.octets = TokenBucket(self.config.byte_rate, self.config.byte_burst)
        wait = max(link.frames.take(1), link.octets.take(size))
        if wait > 0:
            self.throttled += 1
            await asyncio.sleep(wait)

    def _drop(self, link: _Link, reason: str) -> bool:
        """Report a discarded frame; True when the peer crossed the limit and must be cut off."""
        self._emit(FrameDropped(link.peer, reason))
        link.dropped += 1
        if link.dropped > self.config.max_dropped_frames:
            link.local_close = (CLOSE_BAD_FRAMES, "too many malformed frames")
            return True
        return False

    async def _close_ws(self, ws: _WsType, code: int, reason: str) -> None:
        if ws.closed:
            return
        message = reason.encode("utf-8")[:_MAX_REASON_BYTES]
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.config.close_timeout):
                await ws.close(code=code, message=message)


async def _receive_text(ws: _WsType) -> str:
    """Next handshake frame as text, or ``HandshakeError`` carrying the peer's close reason."""
    msg = await ws.receive()
    if msg.type is WSMsgType.TEXT:
        if len(msg.data) > MAX_HANDSHAKE_FRAME:  # before any parsing: the peer is not known yet
            raise HandshakeError(CLOSE_BAD_HELLO, tr("handshake frame too large"))
        return str(msg.data)
    if msg.type is WSMsgType.CLOSE:
        raise HandshakeError(msg.data, _peer_text(msg.extra) or tr("closed by peer"))
    if msg.type is WSMsgType.BINARY:
        raise HandshakeError(CLOSE_BAD_HELLO, tr("binary frame in handshake"))
    if msg.type is WSMsgType.ERROR:
        raise HandshakeError(ws.close_code, _describe_error(msg.data))
    raise HandshakeError(ws.close_code, tr("connection closed in handshake"))


def _peer_text(text: object) -> str:
    """A close reason chosen by the peer, safe to log and print (no terminal escapes)."""
    return printable(text, _MAX_REASON_BYTES) if text else ""


def _error_code(exc: object) -> int | None:
    code = getattr(exc, "code", None)
    return int(code) if isinstance(code, int) else None


def _describe_error(exc: object) -> str:
    code = getattr(exc, "code", None)
    if code == CLOSE_MESSAGE_TOO_BIG:
        return "message too big"
    if isinstance(exc, asyncio.TimeoutError | aiohttp.ServerTimeoutError):
        return "heartbeat timeout"
    return f"websocket error: {exc}"


def _json_object_problem(text: str) -> str | None:
    """Why ``text`` is not a JSON object, or None if it is (the only payload shape we carry)."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return "frame is not valid JSON"
    if not isinstance(obj, dict):
        return "frame is not a JSON object"
    return None
