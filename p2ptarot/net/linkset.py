"""The link core every carrier shares: a sans-I/O state machine over a peer's links.

The wsproto pattern: ``LinkSet`` owns the hello handshake, admission (``admit_only``), the link
replacement rule, liveness (when to ping, when a silent link is dead), flow control (a token
bucket per link that *paces* a fast peer: the carrier stops reading for the time it says; it never
cuts an honest peer off), malformed-frame accounting, every close code and reason, and the events
the table sees.  It is fed what a carrier read (text, a binary frame, the end of a connection) and
the time (``now``, from the carrier's clock: tests pass their own), and it answers with
*outputs*: frames to send, connections to close, events to queue, pauses.  It opens no socket,
starts no task and reads no clock.

A carrier (``net/wsmesh.py`` for LAN websockets, ``net/online/mesh.py`` for WebRTC data channels
and relay channels, both on ``net/carrier.py``) moves bytes and applies the outputs in order, so
the behaviour below is written once, and spec/PROTOCOL.md §10 describes it once:

* a connection is a *link* only after the handshake; until then it is an *attempt*, closed with
  ``CLOSE_TIMEOUT`` at its deadline;
* a link the core closes (disconnect, admission, heartbeat, malformed frames, shutdown, flood) is
  reported down at once, before its carrier finishes closing it (a close can block);
* a replaced link is closed without a ``LinkDown`` (the peer is still linked).

Link replacement rule (both ends reach the same answer without talking): a new link to a key
whose link is gone, or whose peer presents a different ``instance`` (it restarted), replaces it;
of two live links of one peer instance the one dialled by the smaller public key stays; when one
side dialled both, the newer wins.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from p2ptarot import PROTOCOL_VERSION

from .errors import HandshakeError
from .events import FrameDropped, LinkDown, LinkRejected, LinkUp, MeshEvent, PeerKey, Received
from .handshake import (CLOSE_BAD_FRAMES, CLOSE_BAD_HELLO, CLOSE_DUPLICATE, CLOSE_FLOODED,
                        CLOSE_FULL, CLOSE_REPLACED, CLOSE_SELF, CLOSE_TIMEOUT,
                        CLOSE_UNEXPECTED_KEY, CLOSE_VERSION, INSTANCE_SIZE, READY, Hello, Signer,
                        check_proof, check_ready, make_proof, parse_hello, public_key_of)
from .limits import TokenBucket
from p2ptarot.i18n.message import tr

#: whatever object a carrier uses for one connection (a websocket, a channel)
Conn = Hashable

CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_MESSAGE_TOO_BIG = 1009
NOT_A_MEMBER = tr("not a member of this table")


@dataclass(frozen=True)
class Liveness:
    """Ping a link when it comes up and every ``ping_every`` seconds (busy or not: the pings
    measure its round trip); a link silent (no frame, no answer) for ``silence`` seconds is
    dead."""

    ping_every: float
    silence: float

    @classmethod
    def heartbeat(cls, interval: float) -> Liveness:
        """One ping per ``interval``, an answer due within half of it (the LAN heartbeat)."""
        return cls(interval, 1.5 * interval)


@dataclass(frozen=True)
class LinkPolicy:
    """The limits and timers of one endpoint (the same rules on every carrier)."""

    protocol_version: int = PROTOCOL_VERSION
    handshake_timeout: float = 10.0
    #: a hello is ~170 bytes, a proof ~100: anything longer is refused before it is parsed
    max_handshake_frame: int = 1024
    #: authenticated links (a table has at most 11 peers; the rest is room for lobby visitors)
    max_links: int = 64
    #: a peer that keeps sending frames that are not JSON objects is cut off past this many
    max_dropped_frames: int = 64
    #: per-link reading rate: frames and bytes per second, and the burst saved up; past it the
    #: carrier stops reading for the time the core says (nothing is dropped)
    frame_rate: float = 200.0
    frame_burst: int = 2000
    byte_rate: float = 4 * 1024 * 1024
    byte_burst: int = 16 * 1024 * 1024
    #: default liveness of a link (None: no heartbeat); a carrier may give a link its own
    liveness: Liveness | None = Liveness.heartbeat(15.0)

    def __post_init__(self) -> None:
        if self.max_links < 1:
            raise ValueError("max_links must be at least 1")
        if min(self.frame_rate, self.frame_burst, self.byte_rate, self.byte_burst) <= 0:
            raise ValueError("rate limits must be positive")


# ------------------------------------------------------------------------------------- outputs
# (slotted, not frozen: one is made per frame, and a frozen dataclass costs twice as much to make)

@dataclass(slots=True)
class Send:
    """Send this handshake frame (text) on ``conn``."""

    conn: Conn
    text: str


@dataclass(slots=True)
class Ping:
    """Send the carrier's keepalive on ``conn`` (its answer, or any frame, is ``heard``)."""

    conn: Conn


@dataclass(slots=True)
class Close:
    """Close ``conn``, telling the peer ``code`` and ``reason`` where the carrier can."""

    conn: Conn
    code: int
    reason: str


@dataclass(slots=True)
class Emit:
    """Queue this event now (a notice may be dropped when the queue is full)."""

    event: MeshEvent


@dataclass(slots=True)
class Deliver:
    """Queue this frame, waiting (and not reading ``conn``) while the queue is full."""

    conn: Conn
    event: Received


@dataclass(slots=True)
class Pause:
    """Read nothing more from ``conn`` for ``seconds`` (the flow-control policy)."""

    conn: Conn
    seconds: float


@dataclass(slots=True)
class Linked:
    """The handshake on ``conn`` succeeded with ``peer``; ``adopted``: it is now the peer's link
    (False: refused as a duplicate, or over the link cap)."""

    conn: Conn
    peer: PeerKey
    adopted: bool


@dataclass(slots=True)
class Failed:
    """The handshake on ``conn`` failed; the connection is being closed."""

    conn: Conn
    error: HandshakeError


Output = Send | Ping | Close | Emit | Deliver | Pause | Linked | Failed


@dataclass(frozen=True)
class LinkInfo:
    """Public snapshot of one link; times are the carrier's clock (``time.monotonic()``)."""

    peer: PeerKey
    address: str
    dialed: bool
    established: float
    last_received: float


# --------------------------------------------------------------------------------------- state

@dataclass(eq=False)
class _Attempt:
    conn: Conn
    address: str
    shown: str
    dialed: bool
    expected: PeerKey | None
    mine: Hello
    deadline: float
    liveness: Liveness | None
    theirs: Hello | None = None
    proven: bool = False  # their proof verified, our ready sent


@dataclass(eq=False)
class _Link:
    conn: Conn
    peer: PeerKey
    instance: bytes
    address: str
    shown: str
    dialed: bool
    established: float
    liveness: Liveness | None
    frames: TokenBucket
    octets: TokenBucket
    last_received: float
    heard: float
    pinged: float
    dropped: int = 0

    def info(self) -> LinkInfo:
        return LinkInfo(self.peer, self.shown, self.dialed, self.established, self.last_received)


class LinkSet:
    """One peer's links, as a state machine (see the module docstring)."""

    def __init__(self, identity: Signer, policy: LinkPolicy | None = None,
                 instance: bytes | None = None) -> None:
        self.policy = policy or LinkPolicy()
        self._identity = identity
        self.public_key: PeerKey = public_key_of(identity)
        self.instance = instance if instance is not None else os.urandom(INSTANCE_SIZE)
        self._attempts: dict[Conn, _Attempt] = {}
        self._links: dict[PeerKey, _Link] = {}
        self._by_conn: dict[Conn, _Link] = {}
        self._admitted: frozenset[PeerKey] | None = None
        self.closed = False
        self.throttled = 0  # pauses ordered by the flow-control policy

    # ------------------------------------------------------------------------------- queries

    def peers(self) -> list[PeerKey]:
        """Keys with an authenticated link now."""
        return list(self._links)

    def links(self) -> dict[PeerKey, LinkInfo]:
        return {key: link.info() for key, link in self._links.items()}

    def conn_of(self, peer: PeerKey) -> Conn | None:
        """The connection carrying ``peer``'s link, if it has one."""
        link = self._links.get(peer)
        return None if link is None else link.conn

    def targets(self) -> list[tuple[PeerKey, Conn]]:
        """Where a broadcast goes: every link of an admitted peer."""
        return [(k, link.conn) for k, link in self._links.items() if self.is_admitted(k)]

    def knows(self, conn: Conn) -> bool:
        """True while ``conn`` is an attempt or a link (a carrier reads it until this is False)."""
        return conn in self._attempts or conn in self._by_conn

    def is_admitted(self, key: PeerKey) -> bool:
        return self._admitted is None or key in self._admitted

    # ------------------------------------------------------------------------------- inputs

    def open(self, conn: Conn, address: str, dialed: bool, now: float,
             expected_key: PeerKey | None = None, shown: str | None = None,
             liveness: Liveness | None = None) -> list[Output]:
        """A new connection (dialled or accepted): start its handshake."""
        mine = Hello.fresh(self.policy.protocol_version, self.public_key, self.instance)
        attempt = _Attempt(conn, address, shown or address, dialed, expected_key, mine,
                           now + self.policy.handshake_timeout,
                           liveness if liveness is not None else self.policy.liveness)
        self._attempts[conn] = attempt
        if self.closed:
            return self._fail(attempt, HandshakeError(CLOSE_GOING_AWAY, tr("shutdown")), quiet=True)
        return [Send(conn, mine.encode())]

    def receive(self, conn: Conn, text: str, now: float) -> list[Output]:
        """A text frame arrived on ``conn``."""
        attempt = self._attempts.get(conn)
        if attempt is not None:
            return self._handshake(attempt, text, now)
        link = self._by_conn.get(conn)
        if link is None:
            return []  # a connection already closed by the core: its last frames are dropped
        data = text.encode("utf-8")
        outputs = self._arrived(link, len(data), now)
        if not self.is_admitted(link.peer):
            return outputs  # cut off by admit_only: its close is under way
        value = _json_object(text)
        if isinstance(value, dict):
            outputs.append(Deliver(conn, Received(link.peer, data, value)))
        else:
            outputs += self._drop(link, value)
        return outputs

    def receive_binary(self, conn: Conn, size: int, now: float) -> list[Output]:
        """A binary frame arrived: nothing on a link is binary (JSON text only)."""
        attempt = self._attempts.get(conn)
        if attempt is not None:
            return self._fail(attempt, HandshakeError(CLOSE_BAD_HELLO, tr("binary frame in handshake")))
        link = self._by_conn.get(conn)
        if link is None:
            return []
        return self._arrived(link, size, now) + self._drop(
            link, "binary frame (expected UTF-8 JSON text)")

    def heard(self, conn: Conn, now: float) -> None:
        """A sign of life on ``conn`` that is not a frame (a pong, a keepalive)."""
        link = self._by_conn.get(conn)
        if link is not None:
            link.heard = max(link.heard, now)

    def closed_by_carrier(self, conn: Conn, code: int | None, reason: str,
                          protocol_error: bool = False) -> list[Output]:
        """``conn`` ended: the peer closed it, or the carrier failed (``protocol_error``: the
        carrier found the peer at fault, e.g. a frame over the size limit: the peer is told
        ``code``).  Safe to call for a connection the core closed already."""
        attempt = self._attempts.get(conn)
        if attempt is not None:
            return self._fail(attempt, HandshakeError(code, reason))
        link = self._by_conn.get(conn)
        if link is None:
            return []
        if protocol_error and code is not None:
            return self._close_link(link, code, reason)
        self._forget(link)
        return [Emit(LinkDown(link.peer, reason, code)), Close(conn, CLOSE_NORMAL, "")]

    def flooded(self, conn: Conn) -> list[Output]:
        """The carrier could not hold what ``conn`` sent while it was paced (a carrier that cannot
        push back on the sender, and a sender that ignored its window): closed, with a reason."""
        link = self._by_conn.get(conn)
        if link is None:
            return []
        return self._close_link(link, CLOSE_FLOODED, "flooded: sent faster than it is read")

    def tick(self, now: float) -> list[Output]:
        """Time passed: handshake deadlines, pings due, silent links."""
        outputs: list[Output] = []
        for attempt in [a for a in self._attempts.values() if now >= a.deadline]:
            outputs += self._fail(attempt, HandshakeError(CLOSE_TIMEOUT, tr("handshake timed out")))
        for link in list(self._links.values()):
            live = link.liveness
            if live is None:
                continue
            if now - link.heard >= live.silence:
                outputs += self._close_link(link, CLOSE_TIMEOUT, "heartbeat timeout")
            elif now - link.pinged >= live.ping_every:  # also on a busy link: the RTT
                link.pinged = now
                outputs.append(Ping(link.conn))
        return outputs

    def admit_only(self, keys: Iterable[PeerKey] | None) -> list[Output]:
        """Link only with ``keys`` from now on (None: anyone); other links close now."""
        self._admitted = None if keys is None else frozenset(keys)
        outputs: list[Output] = []
        for link in list(self._links.values()):
            if not self.is_admitted(link.peer):
                outputs += self._close_link(link, CLOSE_UNEXPECTED_KEY, NOT_A_MEMBER)
        return outputs

    def disconnect(self, peer: PeerKey, reason: str = "disconnected") -> list[Output]:
        """Close ``peer``'s link on purpose (going away: the peer does not wait for it)."""
        link = self._links.get(peer)
        return [] if link is None else self._close_link(link, CLOSE_GOING_AWAY, reason)

    def shutdown(self) -> list[Output]:
        """Close everything (going away); later connections are refused."""
        self.closed = True
        outputs: list[Output] = []
        for attempt in list(self._attempts.values()):
            outputs += self._fail(attempt, HandshakeError(CLOSE_GOING_AWAY, tr("shutdown")),
                                  quiet=True)
        for link in list(self._links.values()):
            outputs += self._close_link(link, CLOSE_GOING_AWAY, "shutdown")
        return outputs

    # ------------------------------------------------------------------------------- handshake

    def _handshake(self, attempt: _Attempt, text: str, now: float) -> list[Output]:
        if len(text) > self.policy.max_handshake_frame:  # before parsing: the peer is unknown
            return self._fail(attempt, HandshakeError(CLOSE_BAD_HELLO, tr("handshake frame too large")))
        try:
            if attempt.theirs is None:
                return self._hello(attempt, parse_hello(text))
            if not attempt.proven:
                check_proof(text, attempt.mine, attempt.theirs)
                attempt.proven = True
                return [Send(attempt.conn, READY)]
            check_ready(text)
        except HandshakeError as err:
            return self._fail(attempt, err)
        return self._adopt(attempt, now)

    def _hello(self, attempt: _Attempt, theirs: Hello) -> list[Output]:
        mine = attempt.mine
        if theirs.version != mine.version:
            raise HandshakeError(CLOSE_VERSION, tr(
                "protocol version {theirs} not supported (this peer speaks {ours})",
                theirs=theirs.version, ours=mine.version))
        if theirs.key == mine.key:
            raise HandshakeError(CLOSE_SELF, tr("connected to itself"))
        if attempt.expected is not None and theirs.key != attempt.expected:
            raise HandshakeError(CLOSE_UNEXPECTED_KEY, tr("unexpected peer key"))
        if not self.is_admitted(theirs.key):
            raise HandshakeError(CLOSE_UNEXPECTED_KEY, NOT_A_MEMBER)
        attempt.theirs = theirs
        return [Send(attempt.conn, make_proof(self._identity, mine, theirs))]

    def _fail(self, attempt: _Attempt, err: HandshakeError, quiet: bool = False) -> list[Output]:
        del self._attempts[attempt.conn]
        outputs: list[Output] = [Close(attempt.conn, err.code or CLOSE_BAD_HELLO, err.reason)]
        if not quiet:
            outputs.append(Emit(LinkRejected(attempt.address, err.reason, err.code)))
        return outputs + [Failed(attempt.conn, err)]

    # ------------------------------------------------------------------------------- links

    def _adopt(self, attempt: _Attempt, now: float) -> list[Output]:
        """Register an authenticated link, applying the replacement rule."""
        del self._attempts[attempt.conn]
        theirs = attempt.theirs
        assert theirs is not None
        conn, peer = attempt.conn, theirs.key
        if self.closed:
            return [Close(conn, CLOSE_GOING_AWAY, "shutdown"), Linked(conn, peer, False)]
        if not self.is_admitted(peer):  # admit_only changed during the handshake
            return [Close(conn, CLOSE_UNEXPECTED_KEY, NOT_A_MEMBER),
                    Emit(LinkRejected(attempt.address, NOT_A_MEMBER, CLOSE_UNEXPECTED_KEY)),
                    Linked(conn, peer, False)]
        old = self._links.get(peer)
        if old is None and len(self._links) >= self.policy.max_links:
            return [Close(conn, CLOSE_FULL, "too many links"),
                    Emit(LinkRejected(attempt.address, "too many links", CLOSE_FULL)),
                    Linked(conn, peer, False)]
        if old is not None and old.instance == theirs.instance \
                and self._dialer(old.dialed, peer) < self._dialer(attempt.dialed, peer):
            return [Close(conn, CLOSE_DUPLICATE, "duplicate link"), Linked(conn, peer, False)]
        policy, live = self.policy, attempt.liveness
        link = _Link(conn, peer, theirs.instance, attempt.address, attempt.shown, attempt.dialed,
                     now, live, TokenBucket(policy.frame_rate, policy.frame_burst, now),
                     TokenBucket(policy.byte_rate, policy.byte_burst, now), now, now,
                     now - live.ping_every if live else now)  # first ping at once: the RTT
        outputs: list[Output] = []
        if old is not None:
            self._forget(old)
            outputs.append(Close(old.conn, CLOSE_REPLACED, "replaced by a newer link"))
        self._links[peer] = link
        self._by_conn[conn] = link
        return outputs + [Emit(LinkUp(peer, attempt.shown, attempt.dialed, old is not None)),
                          Linked(conn, peer, True)]

    def _dialer(self, dialed: bool, peer: PeerKey) -> PeerKey:
        return self.public_key if dialed else peer

    def _arrived(self, link: _Link, size: int, now: float) -> list[Output]:
        """Bookkeeping of a frame: liveness, and the pace it must be read at."""
        link.last_received = link.heard = max(link.heard, now)
        wait = max(link.frames.take(1, now), link.octets.take(size, now))
        if wait <= 0:
            return []
        self.throttled += 1
        return [Pause(link.conn, wait)]

    def _drop(self, link: _Link, reason: str) -> list[Output]:
        link.dropped += 1
        outputs: list[Output] = [Emit(FrameDropped(link.peer, reason))]
        if link.dropped > self.policy.max_dropped_frames:
            outputs += self._close_link(link, CLOSE_BAD_FRAMES, "too many malformed frames")
        return outputs

    def _close_link(self, link: _Link, code: int, reason: str) -> list[Output]:
        """The core closes a link: it is down now, the carrier closes it in the background."""
        self._forget(link)
        return [Emit(LinkDown(link.peer, reason, code)), Close(link.conn, code, reason)]

    def _forget(self, link: _Link) -> None:
        if self._links.get(link.peer) is link:
            del self._links[link.peer]
        self._by_conn.pop(link.conn, None)


def peer_text(text: object, limit: int = 123) -> str:
    """A reason chosen by the peer (a close frame's), safe to log and print: line breaks become
    spaces, other non-printables '?', at most ``limit`` characters (a websocket close reason's
    room, RFC 6455)."""
    raw = text if isinstance(text, str) else str(text)
    return "".join(ch if ch.isprintable() else " " if ch in "\n\t\r" else "?"
                   for ch in raw[:limit])


def _json_object(text: str) -> dict[str, Any] | str:
    """The JSON object ``text`` holds, or why it holds none (the only payload a link carries)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return "frame is not valid JSON"
    return value if isinstance(value, dict) else "frame is not a JSON object"
