"""``OnlineMesh``: the online carrier, the table's links over WebRTC data channels and NOSTR
relays.

It runs the same link core as the LAN ``wsmesh.Mesh`` (``linkset.LinkSet`` through
``carrier.Carrier``: handshake, admission, replacement rule, liveness, pace, close codes and
reasons, events), so the lobby and game pumps run unchanged.  What is its own is how a
connection comes to be: a seat's address is ``nostr:<its NOSTR key>``; dialling it sends an
encrypted WebRTC offer to that key through the relays; the answer comes back the same way; ICE
then finds a direct path (host or STUN-reflexive candidates) or one through the configured TURN
server.  If no data channel is open after ``rtc_deadline`` seconds, the dialler says ``relay`` and
the link's frames ride on the relays, chunked and rate-limited (``channels.py``).

NOSTR keys only name mailboxes: the table identity is proven on the link by the hello handshake.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from p2ptarot import PROTOCOL_VERSION

from ..carrier import Carrier, Ended
from ..errors import ConnectError, HandshakeError
from ..events import LinkRejected, PeerKey
from ..handshake import CLOSE_REPLACED, CLOSE_TIMEOUT, Signer
from ..linkset import CLOSE_GOING_AWAY, Conn, Linked, LinkPolicy, Liveness
from ..nostr.adverts import address_of, parse_address
from ..nostr.event import Event
from ..nostr.keys import NostrKey
from ..nostr.pool import RelayPool
from ..nostr.sizing import body_budget
from ..nostr.signal import SIGNAL_KIND, Signal, SignalError, open_signal, seal
from .channels import Channel, RelayChannel, RtcChannel
from .config import IceServer, OnlineConfig
from .noise import quiet_ice_noise
from .rtc import path_of, peer_connection
from p2ptarot.i18n.message import tr

logger = logging.getLogger(__name__)

_SUB = "p2ptarot-signal"
_SEEN_LINKS = 4096
#: seconds the STUN probe at start waits for an answer (three tries)
STUN_PROBE = 2.0


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


def _policy(config: OnlineConfig, version: int) -> LinkPolicy:
    """The link core's rules online: a data channel is pinged every ``ping_interval`` and dead
    after six silent ones (a relay-borne link gets its own, slower liveness: ``_liveness``)."""
    return LinkPolicy(protocol_version=version, handshake_timeout=config.handshake_timeout,
                      max_links=config.max_links,
                      liveness=Liveness(config.ping_interval, 6 * config.ping_interval))


class OnlineMesh(Carrier):
    """One peer's endpoint for online tables (see module docstring)."""

    def __init__(self, identity: Signer, config: OnlineConfig, key: NostrKey | None = None,
                 protocol_version: int = PROTOCOL_VERSION) -> None:
        super().__init__(identity, _policy(config, protocol_version), config.max_message_size,
                         config.max_queued_events)
        self.config = config
        self.nostr = key or NostrKey()
        self.pool = RelayPool(list(config.relays), give_up=config.relay_give_up,
                              cap_probe=self._cap_probe)
        self._pending: dict[str, _Pending] = {}
        self._relays: dict[str, tuple[str, RelayChannel]] = {}  # link id -> (peer key, channel)
        self._seen_links: OrderedDict[str, None] = OrderedDict()  # link ids ever answered
        self._retiring: set[asyncio.Task[None]] = set()
        self._addresses: dict[Channel, str] = {}  # each link's nostr address
        self._closed = False
        self._started = False
        #: every peer's latest path and RTT (kept after the link closes, for the game's report)
        self.seen: dict[PeerKey, tuple[str, float | None]] = {}
        #: told (peer, path, rtt) once a new link has its first RTT sample (or 10 s passed)
        self.on_link: Callable[[PeerKey, str, float | None], None] | None = None
        #: set once a STUN probe at start found UDP silent: no head start for WebRTC then
        self._udp_silent = asyncio.Event()

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
        self._start_ticker()
        if any(s.url.startswith("stun:") for s in self.config.ice) and self._stages():
            self._spawn(self._probe_udp())
        if not await self.pool.wait_connected(self.config.handshake_timeout):
            logger.warning("no relay reachable yet among %s", ", ".join(self.config.relays))

    def _cap_probe(self, content: int) -> Event:
        """The pool's cap probe (``RelayPool._probe_cap``): a data signal to ourselves, sealed
        and signed as every signal, of random padding under a link id nobody uses (its echo is
        ignored), as large as a relay-path event under a ``content`` cap."""
        link_id = secrets.token_hex(16)
        self._remember(link_id)
        body = secrets.token_urlsafe(body_budget(content))[:body_budget(content)]
        return seal(self.nostr, self.nostr.public_hex,
                    Signal("", "data", link_id, seq=0, part=0, parts=1, body=body),
                    int(time.time()))

    @property
    def udp_silent(self) -> bool:
        """Whether the STUN probe at start heard no answer (links then open on the relays at
        once)."""
        return self._udp_silent.is_set()

    async def _probe_udp(self) -> None:
        """Ask the STUN servers once at start (as the doctor does): when none answers, UDP out
        is blocked (or every STUN server is down) and a WebRTC attempt spends 5 s gathering
        before it can even send its offer, so the relay path opens at once instead of after
        the head start (the attempt still runs, and a data channel that opens takes over)."""
        from .doctor import _host_port, check_stun
        stuns = [s for s in self.config.ice if s.url.startswith("stun:")]
        with contextlib.suppress(OSError):
            host, port = _host_port(stuns[0].url)
            info = await asyncio.get_running_loop().getaddrinfo(
                host, port, family=socket.AF_INET, type=socket.SOCK_DGRAM)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(info[0][4][:2])  # sends nothing: the route's source address
                bind = probe.getsockname()[0]  # (never every interface)
            if (await check_stun(stuns, bind=bind, timeout=STUN_PROBE)).udp_blocked:
                logger.info("no STUN server answers over UDP: links open on the relays at once")
                self._udp_silent.set()

    async def close(self) -> None:
        """Close every link (code 1001, after what each queued left: at most ``drain_timeout``),
        then the relays; idempotent."""
        if self._closed:
            return
        self._closed = True
        await self._stop_core()
        for _, channel in list(self._relays.values()):
            self._shut(channel, 1001, "shutdown")
        if self._retiring:
            await asyncio.wait(list(self._retiring), timeout=self.config.drain_timeout + 1)
        await _settle_peer_connection_closes(self.config.drain_timeout)
        for task in list(self._tasks | self._retiring):
            task.cancel()
        for task in list(self._tasks | self._retiring):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.pool.close()

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
    def channel(self, peer: PeerKey) -> Channel | None:
        """The channel carrying ``peer``'s link now."""
        conn = self.core.conn_of(peer)
        return conn if isinstance(conn, Channel) else None

    def paths(self) -> dict[PeerKey, tuple[str, float | None]]:
        """Per peer: the path its link took (direct, turn, relay) and its round-trip time (s)."""
        out: dict[PeerKey, tuple[str, float | None]] = {}
        for peer in self.peers():
            channel = self.channel(peer)
            if channel is not None and not channel.closed:
                out[peer] = (channel.path, channel.rtt)
        return out

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
        channel, late = await self._dial_channel(peer, expected_key)
        try:
            linked = await self._open(channel, address, True, expected_key)
        except BaseException:
            if late is not None:  # its channel, if any, is closed
                self._spawn(self._adopt(late, address, None, None))
            raise
        if late is not None:
            self._spawn(self._adopt(late, address, linked.peer, channel))
        return linked.peer

    async def _open(self, channel: Channel, address: str, dialed: bool,
                    expected_key: PeerKey | None) -> Linked:
        """Run the link core on a fresh channel (raises ``HandshakeError`` when refused); a
        first ping goes out now, so the link's round trip is known when it comes up."""
        self._addresses[channel] = address
        channel.ping()
        return await self._handshake(channel, address, dialed, expected_key,
                                     f"{channel.path} {address}", self._liveness(channel))

    def _liveness(self, channel: Channel) -> Liveness | None:
        """Relay events are dear: a relay-borne link pings three times less often, and is dead
        after a minute of silence."""
        if channel.path != "relay":
            return None  # the policy's
        return Liveness(3 * self.config.ping_interval, 12 * self.config.ping_interval)

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

    async def _dial_channel(self, peer: str, expected_key: PeerKey | None,
                            ) -> tuple[Channel, asyncio.Future[Channel | None] | None]:
        """A data channel if one opens within ``rtc_head_start`` s (cut short when the STUN
        probe finds UDP silent: ``_probe_udp``); else the relay path at once, with the WebRTC
        attempt still running (returned: ``_adopt`` moves the link onto its data channel if it
        opens), so blocked UDP costs at most the head start, not the whole ``rtc_deadline``.  Unless the peer linked meanwhile: a heal dial that both sides started
        during a cut, whose WebRTC attempts ran out after the other side's dial had healed the
        link already, must not move the table onto the relays (it would replace the new data
        channel when its dialler has the smaller key): then the attempt is waited for, and
        without a data channel the dial fails."""
        attempt = asyncio.ensure_future(self._dial_rtc(peer))
        silent = asyncio.ensure_future(self._udp_silent.wait())
        try:  # the head start, cut short when UDP turns out to be silent
            await asyncio.wait({attempt, silent}, timeout=self._head_start(),
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            silent.cancel()
        if not attempt.done() and self._linked_again(expected_key):
            await asyncio.wait({attempt})
        late: asyncio.Future[Channel | None] | None = None
        if attempt.done():
            channel = attempt.result()
            if channel is not None:
                return channel, None
            if self._linked_again(expected_key):
                raise ConnectError(tr("already linked to that peer again: no link over the relays"))
        else:
            late = attempt
        link_id = secrets.token_hex(16)
        self._remember(link_id)
        try:
            await self._signal(peer, Signal("", "relay", link_id))
        except BaseException:
            if late is not None:
                self._spawn(self._adopt(late, "", None, None))
            raise
        return self._relay_channel(link_id, peer), late

    def _head_start(self) -> float:
        """``rtc_head_start`` counted from the last stage's start: where a direct-only stage
        comes first, the TURN stage gets its own head start (else a symmetric NAT's table
        would open on the relays just as its TURN attempt begins)."""
        stages = self._stages()
        before_last = sum(wait for _, _, wait in stages[:-1])
        return min(self.config.rtc_deadline, before_last + self.config.rtc_head_start)

    def _linked_again(self, expected_key: PeerKey | None) -> bool:
        return expected_key is not None and self.core.conn_of(expected_key) is not None

    async def _adopt(self, late: asyncio.Future[Channel | None], address: str,
                     peer_key: PeerKey | None, current: Channel | None) -> None:
        """The WebRTC attempt that outlived its head start: if its data channel opens while
        the relay-borne link ``current`` is still the peer's, the replacement rule (same
        dialler: the newer link wins) moves the peer onto it, as ``_upgrade`` does; otherwise
        (no ``current``: the relay link failed) the channel is closed."""
        try:
            channel = await late
        except Exception as exc:  # no relay to signal through, an unusable answer ...
            logger.info("late WebRTC to %s: %s", address[:24], exc)
            return
        if channel is None:
            return
        if self._closed or peer_key is None or current is None \
                or self.core.conn_of(peer_key) is not current or current.closed:
            await channel.close()
            return
        with contextlib.suppress(HandshakeError):
            await self._open(channel, address, True, peer_key)

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

    async def _upgrade(self, peer_key: PeerKey, current: Channel) -> None:
        """A link this peer dialled that rides on the relays tries WebRTC again, backing off
        (``rtc_retry`` s doubling up to ``rtc_retry_max``, jittered): UDP may come back, a
        NAT may change. Once a data channel opens and passes the hello handshake, the usual
        replacement rule (same instance, same dialler: the newer link wins) moves the peer
        onto it; the relay-borne link drains and closes. The table sees no LinkDown."""
        address = self._addresses.get(current, "")
        peer = parse_address(address)
        delay = self.config.rtc_retry
        while peer is not None and delay > 0:
            await asyncio.sleep(delay * random.uniform(0.8, 1.2))
            if self._closed or self.core.conn_of(peer_key) is not current or current.closed:
                return
            try:
                channel = await self._dial_rtc(peer)
            except ConnectionError as exc:  # no relay to signal through right now
                logger.info("WebRTC retry to %s: %s", peer[:16], exc)
                channel = None
            if channel is not None and self.core.conn_of(peer_key) is current:
                with contextlib.suppress(HandshakeError):
                    await self._open(channel, address, True, peer_key)
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
        dc.on("open", lambda: _resolve(opened, None))
        try:
            async with asyncio.timeout_at(_loop_time(end)) as overall:
                await pc.setLocalDescription(await pc.createOffer())  # gathers the candidates
                await self._signal(pending.peer, Signal("", "offer", link_id,
                                                        sdp=pc.localDescription.sdp, turn=turn))
                sdp = await pending.answer  # the answerer gathers too (5 s over blocked UDP)
                overall.reschedule(_loop_time(min(end, time.monotonic() + wait)))
                await pc.setRemoteDescription(RTCSessionDescription(sdp, "answer"))
                await opened
            return RtcChannel(pc, dc, path_of(pc), cfg.max_message_size, cfg.max_queued_events)
        except (TimeoutError, ValueError) as exc:  # ValueError: an unusable answer
            logger.info("WebRTC to %s (turn %s) failed: %s", pending.peer[:16], turn,
                        exc or type(exc).__name__)
            with contextlib.suppress(Exception):
                await pc.close()
            return None
        except asyncio.CancelledError:  # the mesh closes: close in the background (it may
            asyncio.ensure_future(pc.close())  # block while UDP is dead; close() waits for it)
            raise

    def _relay_channel(self, link_id: str, peer: str) -> RelayChannel:
        cfg = self.config

        async def send(kind: str, seq: int, part: int, parts: int, body: str,
                       refused: Callable[[], None] | None) -> None:
            await self._signal(peer, Signal("", kind, link_id, seq=seq, part=part, parts=parts,
                                            body=body), refused, stripe=kind == "data")
        channel = RelayChannel(send, self._body_budget, self._relay_rate, cfg.relay_burst,
                               cfg.relay_gap, cfg.max_message_size, cfg.max_queued_events)
        self._relays[link_id] = (peer, channel)
        return channel

    def _body_budget(self) -> int:
        """Escaped bytes of body a relay-path event may carry: the configured chunk, or less
        when a relay carrying the link takes less (``RelayPool.content_cap``)."""
        return min(self.config.relay_chunk, body_budget(self.pool.content_cap()))

    def _relay_rate(self) -> float:
        """Events per second a relay-borne link may send: its data is striped across the
        relays in use, so what they take together (at least the configured rate)."""
        return max(self.config.relay_rate, self.pool.send_rate())

    async def _signal(self, peer: str, message: Signal,
                      refused: Callable[[], None] | None = None, stripe: bool = False) -> None:
        event = seal(self.nostr, peer, message, int(time.time()))
        if not await self.pool.publish(event, refused, stripe):
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
            self._events.emit(LinkRejected(address_of(sig.sender), "too many links being set up", None))
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
            self._events.emit(LinkRejected(address, f"no path: {exc or type(exc).__name__}",
                                           None))
            return
        finally:
            self._pending.pop(sig.link, None)
        with contextlib.suppress(HandshakeError):
            await self._open(channel, address, False, None)

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
        channel_ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def on_datachannel(dc: object) -> None:
            if channel_ready.done():
                return
            if getattr(dc, "readyState", "") == "open":
                channel_ready.set_result(dc)
            else:
                dc.on("open", lambda: _resolve(channel_ready, dc))  # type: ignore[attr-defined]  # aiortc's event emitter, untyped
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
                          cfg.max_queued_events)

    # ----------------------------------------------------------------- the carrier's moves
    async def _read(self, conn: Conn) -> str | Ended:
        channel: Channel = conn  # type: ignore[assignment]  # this carrier's connections
        text = await channel.receive()
        return Ended(*channel.end) if text is None else text

    async def _write(self, conn: Conn, data: bytes) -> bool:
        channel: Channel = conn  # type: ignore[assignment]  # a carrier's connections are its own kind (Conn is any hashable to the core)
        try:
            await channel.send(data.decode("utf-8"))
        except (ConnectionError, RuntimeError, ValueError):
            return False
        return True

    def _ping(self, conn: Conn) -> None:
        conn.ping()  # type: ignore[attr-defined]  # a carrier's connections are its own kind (Conn is any hashable to the core)

    def _before_tick(self) -> None:
        for peer in self.peers():
            channel = self.channel(peer)
            if channel is not None:
                self.core.heard(channel, channel.heard)

    def _shut(self, conn: Conn, code: int, reason: str) -> None:
        """Tell the peer why, let what the link queued leave (bounded), then close: in the
        background (aiortc's close can block ~30 s while UDP is dead; the link is down already)."""
        task = asyncio.ensure_future(self._retire(conn, code, reason))  # type: ignore[arg-type]  # a carrier's connections are its own kind (Conn is any hashable to the core)
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    async def _retire(self, channel: Channel, code: int, reason: str) -> None:
        """A link the peer can still hear (replaced, shut down, left) says why and drains
        first; a dead one (heartbeat) or one the peer closed is just closed."""
        if code in (CLOSE_GOING_AWAY, CLOSE_REPLACED) or (code >= 4000 and code != CLOSE_TIMEOUT):
            channel.farewell(code, reason)
            if code in (CLOSE_GOING_AWAY, CLOSE_REPLACED):
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.config.drain_timeout):
                        await channel.drain()
        self._forget(channel)
        await channel.close()

    def _linked(self, conn: Conn, peer: PeerKey) -> None:
        channel: Channel = conn  # type: ignore[assignment]  # a carrier's connections are its own kind (Conn is any hashable to the core)
        self.seen[peer] = (channel.path, None)
        self._spawn(self._report(peer, channel))
        if self._addresses.get(channel, "") and channel.path == "relay" and self._stages() \
                and self.core.links()[peer].dialed:
            self._spawn(self._upgrade(peer, channel))

    def _released(self, conn: Conn) -> None:
        self._addresses.pop(conn, None)  # type: ignore[call-overload]  # a carrier's connections are its own kind (Conn is any hashable to the core)

    async def _report(self, peer: PeerKey, channel: Channel) -> None:
        """Record the link's RTT as it is measured; tell ``on_link`` after the first sample."""
        told = False
        start = time.monotonic()
        while not channel.closed:
            rtt = channel.rtt
            if rtt is not None or time.monotonic() - start > 10:
                self.seen[peer] = (channel.path, rtt)
                if not told and self.on_link is not None:
                    told = True
                    self.on_link(peer, channel.path, rtt)
            await asyncio.sleep(1.0)

    def _forget(self, channel: Channel) -> None:
        for link_id, (_, known) in list(self._relays.items()):
            if known is channel:
                del self._relays[link_id]


async def _settle_peer_connection_closes(timeout: float) -> None:
    """Let aiortc's own closing tasks end: a peer connection whose remote DTLS ended closes
    itself in a task aiortc starts and keeps (``RTCPeerConnection.close``); a process that ends
    its loop first leaves it pending ("Task was destroyed but it is pending!" on stderr)."""
    closing = [t for t in asyncio.all_tasks() if not t.done()
               and getattr(t.get_coro(), "__qualname__", "") == "RTCPeerConnection.close"]
    if closing:
        await asyncio.wait(closing, timeout=timeout)


_T = TypeVar("_T")


def _resolve(future: asyncio.Future[_T], value: _T) -> None:
    """Settle ``future`` with ``value`` unless it is settled already (an event can fire twice)."""
    if not future.done():
        future.set_result(value)


def _loop_time(monotonic: float) -> float:
    """A ``time.monotonic()`` instant on the event loop's clock (for ``asyncio.timeout_at``)."""
    return asyncio.get_running_loop().time() + (monotonic - time.monotonic())

