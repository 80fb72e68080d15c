"""``OnlineMesh``: the table's link interface over WebRTC data channels and NOSTR relays.

Same contract as ``net.transport.Mesh`` (connect / send / broadcast / admit_only / events), so
the lobby and game pumps run unchanged.  A seat's address is ``nostr:<its NOSTR key>``: dialling
it sends an encrypted WebRTC offer to that key through the relays; the answer comes back the
same way; ICE then finds a direct path (host or STUN-reflexive candidates) or one through the
configured TURN server.  If no data channel is open after ``rtc_deadline`` seconds, the dialler
says ``relay`` and the link's frames ride on the relays, chunked and rate-limited.

Whatever the path, the link is authenticated by the same hello handshake as on the LAN
(``net/handshake.py``): NOSTR keys only name mailboxes; the table identity is proven on the link.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field

from p2ptarot import PROTOCOL_VERSION

from ..errors import ConnectError, HandshakeError, MessageTooLarge, NoLinkError
from ..events import EventQueue, FrameDropped, LinkDown, LinkRejected, LinkUp, MeshEvent, PeerKey, Received
from ..handshake import (CLOSE_BAD_HELLO, CLOSE_SELF, CLOSE_TIMEOUT, CLOSE_UNEXPECTED_KEY,
                         CLOSE_VERSION, INSTANCE_SIZE, READY, Hello, Signer, check_proof,
                         check_ready, make_proof, parse_hello, public_key_of)
from ..nostr.adverts import address_of, parse_address
from ..nostr.keys import NostrKey
from ..nostr.pool import RelayNotice, RelayPool
from ..nostr.sizing import body_budget
from ..nostr.signal import SIGNAL_KIND, Signal, SignalError, open_signal, seal
from ..transport import LinkInfo
from .channels import Channel, RelayChannel, RtcChannel
from .config import IceServer, OnlineConfig
from .noise import quiet_ice_noise
from .rtc import path_of, peer_connection
from p2ptarot.i18n.message import tr

logger = logging.getLogger(__name__)

_SUB = "p2ptarot-signal"
_MAX_DROPPED = 64
_SEEN_LINKS = 4096


@dataclass(eq=False)
class _Link:
    channel: Channel
    peer: PeerKey
    instance: bytes
    address: str
    dialed: bool
    established: float = field(default_factory=time.monotonic)
    last_received: float = field(default_factory=time.monotonic)
    dropped: int = 0

    def info(self) -> LinkInfo:
        return LinkInfo(self.peer, f"{self.channel.path} {self.address}", self.dialed,
                        self.established, self.last_received)


@dataclass(eq=False)
class _Pending:
    """A link being signalled: who it is with, and how it may still change path."""

    peer: str  # NOSTR key of the other side
    dialed: bool
    answer: asyncio.Future[str] = field(default_factory=lambda: asyncio.get_running_loop()
                                        .create_future())
    #: "relay" (carry the link on the relays) or "bye" (the dialler abandoned this attempt)
    relay: asyncio.Future[str] = field(default_factory=lambda: asyncio.get_running_loop()
                                       .create_future())


class OnlineMesh:
    """One peer's endpoint for online tables (see module docstring)."""

    def __init__(self, identity: Signer, config: OnlineConfig, key: NostrKey | None = None,
                 protocol_version: int = PROTOCOL_VERSION) -> None:
        self.config = config
        self._identity = identity
        self.public_key: PeerKey = public_key_of(identity)
        self.nostr = key or NostrKey()
        self._version = protocol_version
        self._instance = secrets.token_bytes(INSTANCE_SIZE)
        self.pool = RelayPool(list(config.relays), give_up=config.relay_give_up)
        self._links: dict[PeerKey, _Link] = {}
        self._pending: dict[str, _Pending] = {}
        self._relays: dict[str, tuple[str, RelayChannel]] = {}  # link id -> (peer key, channel)
        self._seen_links: OrderedDict[str, None] = OrderedDict()  # link ids ever answered
        self._events = EventQueue(self.config.max_queued_events)
        self._tasks: set[asyncio.Task[object]] = set()
        self._admitted: frozenset[PeerKey] | None = None
        self._closed = False
        self._started = False
        #: every peer's latest path and RTT (kept after the link closes, for the game's report)
        self.seen: dict[PeerKey, tuple[str, float | None]] = {}
        #: told (peer, path, rtt) once a new link has its first RTT sample (or 10 s passed)
        self.on_link: Callable[[PeerKey, str, float | None], None] | None = None

    # ----------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        if self._started:
            raise RuntimeError("mesh already started")
        self._started = True
        quiet_ice_noise(asyncio.get_running_loop())
        await self.pool.start()
        since = int(time.time()) - 30
        await self.pool.subscribe(_SUB, [{"kinds": [SIGNAL_KIND], "#p": [self.nostr.public_hex],
                                          "since": since}])
        self._spawn(self._dispatch())
        if not await self.pool.wait_connected(self.config.handshake_timeout):
            logger.warning("no relay reachable yet among %s", ", ".join(self.config.relays))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._drain()
        for link in list(self._links.values()):
            await link.channel.close()
        for _, channel in list(self._relays.values()):
            await channel.close()
        await _settle_peer_connection_closes(self.config.drain_timeout)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.pool.close()

    async def _drain(self) -> None:
        """Let what every link queued leave before the links close (bounded by
        ``drain_timeout``): a peer leaving right after its last frames, such as the `done` that
        ends a table, must not lose them in its own queues."""
        channels = {link.channel for link in self._links.values()}
        channels.update(channel for _, channel in self._relays.values())
        if not channels:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.config.drain_timeout):
                await asyncio.gather(*(c.drain() for c in channels), return_exceptions=True)

    async def __aenter__(self) -> OnlineMesh:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def url(self) -> str:
        """Where peers reach us: our NOSTR key (the charter's seat address)."""
        return address_of(self.nostr.public_hex)

    @property
    def address(self) -> str:
        """The link interface's name for ``url``."""
        return self.url

    @property
    def port(self) -> int:
        return 0

    # ----------------------------------------------------------------- queries
    def peers(self) -> list[PeerKey]:
        return [k for k, link in self._links.items() if not link.channel.closed]

    def links(self) -> dict[PeerKey, LinkInfo]:
        return {k: link.info() for k, link in self._links.items()}

    def paths(self) -> dict[PeerKey, tuple[str, float | None]]:
        """Per peer: the path its link took (direct, turn, relay) and its round-trip time (s)."""
        return {k: (link.channel.path, link.channel.rtt) for k, link in self._links.items()
                if not link.channel.closed}

    async def next_event(self) -> MeshEvent:
        return await self._events.get()

    def drain_events(self) -> list[MeshEvent]:
        return self._events.drain()

    @property
    def dropped_notices(self) -> int:
        """Notices (rejections, dropped frames) dropped because the event queue was full."""
        return self._events.dropped_notices

    async def events(self) -> AsyncIterator[MeshEvent]:
        while True:
            yield await self.next_event()

    def admit_only(self, keys: Iterable[PeerKey] | None) -> None:
        self._admitted = None if keys is None else frozenset(keys)
        if self._admitted is None:
            return
        for key, link in list(self._links.items()):
            if key not in self._admitted:
                self._spawn(link.channel.close())

    def _is_admitted(self, key: PeerKey) -> bool:
        return self._admitted is None or key in self._admitted

    async def disconnect(self, peer: PeerKey, reason: str = "disconnected") -> None:
        """Close the link to ``peer`` without waiting on a close that can block (the pump
        emits the link-down at once)."""
        link = self._links.get(peer)
        if link is not None:
            link.channel.mark_closed()
            self._spawn(link.channel.close())

    # ----------------------------------------------------------------- sending
    async def send(self, peer: PeerKey, data: bytes) -> None:
        text = self._as_text(data)
        link = self._links.get(peer)
        if link is None or link.channel.closed:
            raise NoLinkError(f"no open link to peer {peer.hex()[:16]}")
        try:
            await link.channel.send(text)
        except (ConnectionError, RuntimeError) as exc:
            raise NoLinkError(f"link to peer {peer.hex()[:16]} lost while sending") from exc

    async def broadcast(self, data: bytes) -> list[PeerKey]:
        text = self._as_text(data)
        links = [link for link in self._links.values()
                 if not link.channel.closed and self._is_admitted(link.peer)]

        async def one(link: _Link) -> bool:
            try:
                await link.channel.send(text)
                return True
            except (ConnectionError, RuntimeError):
                return False
        results = await asyncio.gather(*(one(link) for link in links))
        return [link.peer for link, ok in zip(links, results, strict=True) if ok]

    def _as_text(self, data: bytes) -> str:
        if len(data) > self.config.max_message_size:
            raise MessageTooLarge(f"message of {len(data)} bytes exceeds limit "
                                  f"{self.config.max_message_size}")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError("mesh messages must be UTF-8 JSON") from exc

    # ----------------------------------------------------------------- dialling
    async def connect(self, address: str, expected_key: PeerKey | None = None) -> PeerKey:
        """Signal, link and authenticate the peer at ``nostr:<key>``; its table key."""
        if self._closed or not self._started:
            raise RuntimeError("mesh is not running")
        peer = parse_address(address)
        if peer is None:
            raise ConnectError(tr("{address} is not an online seat address (nostr:<key>)",
                                  address=repr(address)))
        if peer == self.nostr.public_hex:
            raise ConnectError(tr("that address is this peer's own"))
        channel = await self._dial_channel(peer)
        link = await self._handshake(channel, address, True, expected_key)
        await self._adopt(link)
        return link.peer

    def _stages(self) -> list[tuple[tuple[IceServer, ...], bool, float]]:
        """The WebRTC attempts: (ICE servers, TURN allowed, seconds to wait once the answer is
        in); direct first when a TURN server is configured.  All of them together get
        ``rtc_deadline`` (gathering included: over blocked UDP a STUN query alone takes 5 s)."""
        cfg = self.config
        if cfg.transport != "auto":
            return []
        plain = tuple(s for s in cfg.ice if not s.url.startswith("turn"))
        if len(plain) == len(cfg.ice) or cfg.direct_first <= 0:
            return [(cfg.ice, True, cfg.rtc_deadline)]
        return [(plain, False, cfg.direct_first), (cfg.ice, True, cfg.rtc_deadline)]

    async def _dial_channel(self, peer: str) -> Channel:
        channel = await self._dial_rtc(peer)
        if channel is not None:
            return channel
        link_id = secrets.token_hex(16)
        self._remember(link_id)
        await self._signal(peer, Signal("", "relay", link_id))
        return self._relay_channel(link_id, peer)

    async def _dial_rtc(self, peer: str) -> Channel | None:
        """The WebRTC attempts of ``_stages`` in turn: the first data channel that opens."""
        end = time.monotonic() + self.config.rtc_deadline
        for ice, turn, wait in self._stages():
            if time.monotonic() >= end:
                break
            link_id = secrets.token_hex(16)
            pending = _Pending(peer, dialed=True)
            self._pending[link_id] = pending
            self._remember(link_id)
            try:
                channel = await self._try_rtc(link_id, pending, ice, turn, wait, end)
            finally:
                self._pending.pop(link_id, None)
            if channel is not None:
                return channel
            with contextlib.suppress(ConnectionError):
                await self._signal(peer, Signal("", "bye", link_id))  # the answerer lets go
        return None

    async def _upgrade(self, link: _Link) -> None:
        """A link this peer dialled that rides on the relays tries WebRTC again, backing off
        (``rtc_retry`` s doubling up to ``rtc_retry_max``, jittered): UDP may come back, a
        NAT may change. Once a data channel opens and passes the hello handshake, the usual
        replacement rule (same instance, same dialler: the newer link wins) moves the peer
        onto it; the relay-borne link drains and closes. The table sees no LinkDown."""
        peer = parse_address(link.address)
        delay = self.config.rtc_retry
        while peer is not None and delay > 0:
            await asyncio.sleep(delay * random.uniform(0.8, 1.2))
            if self._closed or self._links.get(link.peer) is not link or link.channel.closed:
                return
            try:
                channel = await self._dial_rtc(peer)
            except ConnectionError as exc:  # no relay to signal through right now
                logger.info("WebRTC retry to %s: %s", peer[:16], exc)
                channel = None
            if channel is not None and self._links.get(link.peer) is link:
                with contextlib.suppress(HandshakeError):
                    await self._adopt(await self._handshake(channel, link.address, True,
                                                            link.peer))
                    return
            elif channel is not None:
                await channel.close()
                return
            delay = min(delay * 2, self.config.rtc_retry_max)

    async def _try_rtc(self, link_id: str, pending: _Pending, ice: tuple[IceServer, ...],
                       turn: bool, wait: float, end: float) -> Channel | None:
        """One WebRTC attempt: the open data channel, or None when it is not open ``wait``
        seconds after the answer came, or at ``end`` (monotonic), whichever comes first."""
        from aiortc import RTCSessionDescription
        cfg = self.config
        pc = peer_connection(ice)
        dc = pc.createDataChannel("p2ptarot", ordered=True)
        opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        dc.on("open", lambda: opened.done() or opened.set_result(None))
        try:
            async with asyncio.timeout_at(_loop_time(end)) as overall:
                await pc.setLocalDescription(await pc.createOffer())  # gathers the candidates
                await self._signal(pending.peer, Signal("", "offer", link_id,
                                                        sdp=pc.localDescription.sdp, turn=turn))
                sdp = await pending.answer  # the answerer gathers too (5 s over blocked UDP)
                overall.reschedule(_loop_time(min(end, time.monotonic() + wait)))
                await pc.setRemoteDescription(RTCSessionDescription(sdp, "answer"))
                await opened
            return RtcChannel(pc, dc, path_of(pc), cfg.max_message_size,
                              cfg.max_queued_events, cfg.ping_interval)
        except (TimeoutError, ValueError) as exc:  # ValueError: an unusable answer
            logger.info("WebRTC to %s (turn %s) failed: %s", pending.peer[:16], turn,
                        exc or type(exc).__name__)
            with contextlib.suppress(Exception):
                await pc.close()
            return None

    def _relay_channel(self, link_id: str, peer: str) -> RelayChannel:
        cfg = self.config

        async def send(kind: str, seq: int, part: int, parts: int, body: str,
                       refused: Callable[[], None] | None) -> None:
            await self._signal(peer, Signal("", kind, link_id, seq=seq, part=part, parts=parts,
                                            body=body), refused)
        channel = RelayChannel(send, self._body_budget, cfg.relay_rate, cfg.relay_burst,
                               cfg.relay_gap, cfg.max_message_size, cfg.max_queued_events,
                               cfg.ping_interval)
        self._relays[link_id] = (peer, channel)
        return channel

    def _body_budget(self) -> int:
        """Escaped bytes of body a relay-path event may carry: the configured chunk, or less
        when a relay carrying the link takes less (``RelayPool.content_cap``)."""
        return min(self.config.relay_chunk, body_budget(self.pool.content_cap()))

    async def _signal(self, peer: str, message: Signal,
                      refused: Callable[[], None] | None = None) -> None:
        event = seal(self.nostr, peer, message, int(time.time()))
        if not await self.pool.publish(event, refused):
            raise ConnectionError("no relay connected")

    # ----------------------------------------------------------------- answering
    async def _dispatch(self) -> None:
        while True:
            delivered = await self.pool.next_event()
            if delivered.sub != _SUB:
                continue
            try:
                sig = open_signal(self.nostr, delivered.event, int(time.time()))
            except SignalError as exc:
                logger.debug("ignored a signal: %s", exc)
                continue
            self._route(sig)

    def _route(self, sig: Signal) -> None:
        relay = self._relays.get(sig.link)
        if relay is not None:
            if relay[0] == sig.sender and sig.kind in ("data", "ping", "pong", "bye"):
                relay[1].feed(sig.kind, sig.seq, sig.part, sig.parts, sig.body)
            return
        pending = self._pending.get(sig.link)
        if pending is not None:
            if pending.peer != sig.sender:
                return
            if sig.kind == "answer" and pending.dialed and not pending.answer.done():
                pending.answer.set_result(sig.sdp)
            elif sig.kind in ("relay", "data") and not pending.dialed:
                self._switch_to_relay(sig, pending)
            elif sig.kind == "bye" and not pending.dialed and not pending.relay.done():
                pending.relay.set_result("bye")  # the dialler moved on to its next attempt
            return
        if sig.link in self._seen_links or sig.kind not in ("offer", "relay", "data"):
            return  # a replay of an old link, or a stray frame
        if len(self._pending) >= self.config.max_pending:
            self._emit(LinkRejected(address_of(sig.sender), "too many links being set up", None))
            return
        self._remember(sig.link)
        pending = _Pending(sig.sender, dialed=False)
        self._pending[sig.link] = pending
        if sig.kind != "offer":  # relays may reorder: a data frame can overtake "relay"
            self._switch_to_relay(sig, pending)
        self._spawn(self._answer(sig, pending))

    def _remember(self, link_id: str) -> None:
        self._seen_links[link_id] = None
        if len(self._seen_links) > _SEEN_LINKS:  # older ids are past their events' expiry
            self._seen_links.popitem(last=False)

    def _switch_to_relay(self, sig: Signal, pending: _Pending) -> None:
        """The dialler chose the relays for this link: open (once) the relay channel."""
        known = self._relays.get(sig.link)
        channel = known[1] if known else self._relay_channel(sig.link, sig.sender)
        if sig.kind == "data":
            channel.feed(sig.kind, sig.seq, sig.part, sig.parts, sig.body)
        if not pending.relay.done():
            pending.relay.set_result("relay")

    async def _answer(self, sig: Signal, pending: _Pending) -> None:
        address = address_of(sig.sender)
        try:
            channel = await self._answer_channel(sig, pending)
        except (TimeoutError, ValueError, ConnectionError) as exc:
            logger.info("could not answer %s: %s", sig.sender[:16], exc)
            self._emit(LinkRejected(address, f"no path: {exc or type(exc).__name__}", None))
            return
        finally:
            self._pending.pop(sig.link, None)
        with contextlib.suppress(HandshakeError):
            link = await self._handshake(channel, address, False, None)
            await self._adopt(link)

    async def _answer_channel(self, sig: Signal, pending: _Pending) -> Channel:
        cfg = self.config
        if pending.relay.done():
            if pending.relay.result() == "bye":
                raise ConnectionError("the dialler tried another way")
            return self._relays[sig.link][1]
        if cfg.transport == "relay":
            return self._relay_channel(sig.link, sig.sender)
        from aiortc import RTCSessionDescription
        pc = peer_connection(cfg.ice if sig.turn else
                             tuple(s for s in cfg.ice if not s.url.startswith("turn")))
        channel_ready: asyncio.Future[object] = asyncio.get_running_loop().create_future()

        def on_datachannel(dc: object) -> None:
            if channel_ready.done():
                return
            if getattr(dc, "readyState", "") == "open":
                channel_ready.set_result(dc)
            else:
                dc.on("open", lambda: channel_ready.done() or channel_ready.set_result(dc))  # type: ignore[attr-defined]  # aiortc's event emitter, untyped
        pc.on("datachannel", on_datachannel)
        try:
            await pc.setRemoteDescription(RTCSessionDescription(sig.sdp, "offer"))
            await pc.setLocalDescription(await pc.createAnswer())
            await self._signal(sig.sender, Signal("", "answer", sig.link,
                                                  sdp=pc.localDescription.sdp))
            async with asyncio.timeout(cfg.rtc_deadline + cfg.handshake_timeout):
                done, _ = await asyncio.wait({channel_ready, pending.relay},
                                             return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            with contextlib.suppress(Exception):
                await pc.close()
            raise
        if pending.relay in done:
            with contextlib.suppress(Exception):
                await pc.close()
            if pending.relay.result() == "bye":
                raise ConnectionError("the dialler tried another way")
            return self._relays[sig.link][1]
        return RtcChannel(pc, channel_ready.result(), path_of(pc), cfg.max_message_size,
                          cfg.max_queued_events, cfg.ping_interval)

    # ----------------------------------------------------------------- links
    async def _handshake(self, channel: Channel, address: str, dialed: bool,
                         expected_key: PeerKey | None) -> _Link:
        mine = Hello.fresh(self._version, self.public_key, self._instance)

        async def receive() -> str:
            text = await channel.incoming.get()
            if text is None:
                raise HandshakeError(None, tr("link closed during the handshake"))
            return text
        try:
            try:
                async with asyncio.timeout(self.config.handshake_timeout):
                    await channel.send(mine.encode())
                    theirs = parse_hello(await receive())
                    if theirs.version != mine.version:
                        raise HandshakeError(CLOSE_VERSION, tr(
                            "protocol version {theirs} not supported (this peer speaks {ours})",
                            theirs=theirs.version, ours=mine.version))
                    if theirs.key == mine.key:
                        raise HandshakeError(CLOSE_SELF, tr("connected to itself"))
                    if expected_key is not None and theirs.key != expected_key:
                        raise HandshakeError(CLOSE_UNEXPECTED_KEY, tr("unexpected peer key"))
                    if not self._is_admitted(theirs.key):
                        raise HandshakeError(CLOSE_UNEXPECTED_KEY, tr("not a member of this table"))
                    await channel.send(make_proof(self._identity, mine, theirs))
                    check_proof(await receive(), mine, theirs)
                    await channel.send(READY)
                    check_ready(await receive())
            except TimeoutError as exc:
                raise HandshakeError(CLOSE_TIMEOUT, tr("handshake timed out")) from exc
            except (ConnectionError, RuntimeError) as exc:
                raise HandshakeError(None, tr("link lost in the handshake: {why}",
                                              why=exc)) from exc
        except HandshakeError as err:
            logger.info("handshake with %s failed: %s", address, err)
            await channel.close()
            self._forget(channel)
            self._emit(LinkRejected(address, err.reason, err.code or CLOSE_BAD_HELLO))
            raise
        return _Link(channel, theirs.key, theirs.instance, address, dialed)

    def _dialer(self, link: _Link) -> PeerKey:
        return self.public_key if link.dialed else link.peer

    async def _adopt(self, link: _Link) -> None:
        old = self._links.get(link.peer)
        live = old is not None and not old.channel.closed
        if self._closed or (old is None and len(self._links) >= self.config.max_links):
            await link.channel.close()
            self._emit(LinkRejected(link.address, "too many links", None))
            return
        if live and old is not None and old.instance == link.instance \
                and self._dialer(old) < self._dialer(link):
            await link.channel.close()  # the other simultaneous dial wins
            return
        self._links[link.peer] = link
        if live and old is not None:
            self._spawn(self._retire(old.channel))
        self._emit(LinkUp(link.peer, f"{link.channel.path} {link.address}", link.dialed,
                          old is not None))
        self.seen[link.peer] = (link.channel.path, None)
        self._spawn(self._pump(link))
        self._spawn(self._report(link))
        if link.dialed and link.channel.path == "relay" and self._stages():
            self._spawn(self._upgrade(link))

    async def _retire(self, channel: Channel) -> None:
        """A replaced link: let what it queued leave (bounded), then close it."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.config.drain_timeout):
                await channel.drain()
        await channel.close()

    async def _report(self, link: _Link) -> None:
        """Record the link's RTT as it is measured; tell ``on_link`` after the first sample."""
        told = False
        start = time.monotonic()
        while not link.channel.closed:
            rtt = link.channel.rtt
            if rtt is not None or time.monotonic() - start > 10:
                self.seen[link.peer] = (link.channel.path, rtt)
                if not told and self.on_link is not None:
                    told = True
                    self.on_link(link.peer, link.channel.path, rtt)
            await asyncio.sleep(1.0)

    async def _pump(self, link: _Link) -> None:
        reason = "link closed"
        try:
            while True:
                text = await link.channel.incoming.get()
                if text is None:
                    reason = "flooded" if link.channel.overflowed else "link closed"
                    break
                link.last_received = time.monotonic()
                if not self._is_admitted(link.peer):
                    continue
                if _is_json_object(text):
                    await self._deliver(Received(link.peer, text.encode("utf-8")))
                else:
                    link.dropped += 1
                    self._emit(FrameDropped(link.peer, "not a JSON object"))
                    if link.dropped > _MAX_DROPPED:
                        reason = "too many bad frames"
                        break
        finally:
            # the link-down first: closing can block (aiortc's pc.close() waits ~30 s while
            # UDP is dead), and the table must hear at once, show "disconnected —
            # reconnecting" and wake its healer
            if self._links.get(link.peer) is link:
                del self._links[link.peer]
                self._emit(LinkDown(link.peer, reason, None))
            self._forget(link.channel)
            self._spawn(link.channel.close())

    def _forget(self, channel: Channel) -> None:
        for link_id, (_, known) in list(self._relays.items()):
            if known is channel:
                del self._relays[link_id]

    # ----------------------------------------------------------------- internals
    def _emit(self, event: MeshEvent) -> None:
        self._events.emit(event)

    async def _deliver(self, event: Received) -> None:
        await self._events.deliver(event)

    def _spawn(self, coro: object) -> None:
        task = asyncio.ensure_future(coro)  # type: ignore[arg-type]  # callers hand a coroutine; typed object for the callers' sake
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _settle_peer_connection_closes(timeout: float) -> None:
    """Let aiortc's own closing tasks end: a peer connection whose remote DTLS ended closes
    itself in a task aiortc starts and keeps (``RTCPeerConnection.close``); a process that ends
    its loop first leaves it pending ("Task was destroyed but it is pending!" on stderr)."""
    closing = [t for t in asyncio.all_tasks() if not t.done()
               and getattr(t.get_coro(), "__qualname__", "") == "RTCPeerConnection.close"]
    if closing:
        await asyncio.wait(closing, timeout=timeout)


def _loop_time(monotonic: float) -> float:
    """A ``time.monotonic()`` instant on the event loop's clock (for ``asyncio.timeout_at``)."""
    return asyncio.get_running_loop().time() + (monotonic - time.monotonic())


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False
