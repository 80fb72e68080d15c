"""The asyncio shell around the link core: what every carrier shares, written once.

``Carrier`` runs a ``LinkSet`` (``linkset.py``): one reader per connection feeds it what arrives
and applies its outputs in order (send, close, queue an event, pause reading), a ticker feeds it
the time, and ``send`` / ``broadcast`` / ``admit_only`` / ``disconnect`` / ``close`` ask it which
links to use.  A concrete carrier only moves bytes: it says how to read, write, ping and close one
of its connections (a websocket on a LAN, a data channel or a relay channel online).
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import Any, Self

from .errors import HandshakeError, MessageTooLarge, NoLinkError
from p2ptarot.i18n.message import tr
from .events import EventQueue, MeshEvent, PeerKey
from .handshake import Signer
from .linkset import (Close, Conn, Deliver, Emit, Failed, Linked, LinkInfo, LinkPolicy, LinkSet,
                      Liveness, Output, Pause, Ping, Send)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ended:
    """What a carrier's read returns when its connection ended: the code and reason the peer
    gave (or the carrier's own), ``protocol_error`` when the carrier found the peer at fault."""

    code: int | None
    reason: str
    protocol_error: bool = False


class Carrier(ABC):
    """One peer's links over one kind of connection (see the module docstring)."""

    def __init__(self, identity: Signer, policy: LinkPolicy, max_message_size: int,
                 max_queued_events: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.core = LinkSet(identity, policy)
        self.public_key: PeerKey = self.core.public_key
        self._clock = clock
        self._max_message_size = max_message_size
        self._events = EventQueue(max_queued_events)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._settled: dict[Conn, asyncio.Future[Linked | Failed]] = {}
        self._readers: dict[Conn, asyncio.Task[None]] = {}
        self._ticker: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle

    @abstractmethod
    async def start(self) -> None:
        """Start listening (or subscribing) and the ticker."""

    @abstractmethod
    async def close(self) -> None:
        """Close every link (going away) and stop; idempotent."""

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ what a carrier moves

    @abstractmethod
    async def _read(self, conn: Conn) -> str | bytes | Ended:
        """The next frame on ``conn`` (text or binary), or how it ended."""

    @abstractmethod
    async def _write(self, conn: Conn, data: bytes) -> bool:
        """Send one text frame (``data``: its UTF-8 bytes, encoded once for every link); False
        when the connection is gone."""

    @abstractmethod
    def _ping(self, conn: Conn) -> None:
        """Send the carrier's keepalive (its answer is reported with ``core.heard``)."""

    @abstractmethod
    def _shut(self, conn: Conn, code: int, reason: str) -> None:
        """Close ``conn`` in the background, telling the peer ``code`` and ``reason``."""

    def _linked(self, conn: Conn, peer: PeerKey) -> None:
        """Hook: ``conn`` became ``peer``'s link."""

    def _released(self, conn: Conn) -> None:
        """Hook: the core let go of ``conn`` (no attempt, no link any more)."""

    # ------------------------------------------------------------------ running connections

    def _start_ticker(self) -> None:
        self._ticker = asyncio.ensure_future(self._tick())

    async def _tick(self) -> None:
        policy = self.core.policy
        step = min(policy.handshake_timeout, *([policy.liveness.ping_every]
                                               if policy.liveness else [])) / 4
        step = min(max(step, 0.02), 1.0)
        while True:
            await asyncio.sleep(step)
            self._before_tick()
            await self._apply(self.core.tick(self._clock()))

    def _before_tick(self) -> None:
        """Hook: report signs of life the carrier keeps itself (``core.heard``)."""

    async def _handshake(self, conn: Conn, address: str, dialed: bool,
                         expected_key: PeerKey | None = None, shown: str | None = None,
                         liveness: Liveness | None = None) -> Linked:
        """Open ``conn`` in the core and read it in a task of its own; returns once the
        handshake settled (raises ``HandshakeError`` if it failed)."""
        settled: asyncio.Future[Linked | Failed] = asyncio.get_running_loop().create_future()
        self._settled[conn] = settled
        reader = asyncio.ensure_future(self._run(conn, address, dialed, expected_key, shown,
                                                 liveness))
        self._readers[conn] = reader
        self._tasks.add(reader)
        reader.add_done_callback(self._tasks.discard)
        outcome = await settled
        if isinstance(outcome, Failed):
            raise outcome.error
        return outcome

    async def _run(self, conn: Conn, address: str, dialed: bool, expected_key: PeerKey | None,
                   shown: str | None, liveness: Liveness | None) -> None:
        """Read ``conn`` for as long as the core knows it: its handshake, then its frames."""
        try:
            await self._apply(self.core.open(conn, address, dialed, self._clock(), expected_key,
                                             shown, liveness))
            while self.core.knows(conn):
                item = await self._read(conn)
                now = self._clock()
                if isinstance(item, Ended):
                    await self._apply(self.core.closed_by_carrier(
                        conn, item.code, item.reason, item.protocol_error))
                    break
                outputs = (self.core.receive(conn, item, now) if isinstance(item, str)
                           else self.core.receive_binary(conn, len(item), now))
                if len(outputs) == 1 and type(outputs[0]) is Deliver:  # the common case
                    await self._events.deliver(outputs[0].event)
                else:
                    await self._apply(outputs)
        except Exception as exc:  # a carrier bug must not take the process down
            logger.exception("link on %s failed", address)
            await self._apply(self.core.closed_by_carrier(conn, None, f"link error: {exc}"))
        finally:
            settled = self._settled.pop(conn, None)
            if settled is not None and not settled.done():
                settled.set_result(Failed(conn, HandshakeError(None, tr("connection closed in handshake"))))
            self._readers.pop(conn, None)
            self._released(conn)

    async def _read_until_released(self, conn: Conn) -> None:
        """Wait until the reader of ``conn`` ended (a server handler must outlive its link)."""
        reader = self._readers.get(conn)
        if reader is not None:
            await asyncio.wait({reader})

    async def _apply(self, outputs: Iterable[Output]) -> None:
        """Carry out the core's outputs, in order."""
        for out in outputs:
            if isinstance(out, Deliver):
                await self._events.deliver(out.event)
            elif isinstance(out, Emit):
                self._events.emit(out.event)
            elif isinstance(out, Send):
                if not await self._write(out.conn, out.text.encode("utf-8")):
                    await self._apply(self.core.closed_by_carrier(
                        out.conn, None, tr("connection lost in handshake")))
            elif isinstance(out, Pause):
                await asyncio.sleep(out.seconds)
            elif isinstance(out, Close):
                self._shut(out.conn, out.code, out.reason)
            elif isinstance(out, Ping):
                self._ping(out.conn)
            else:
                if isinstance(out, Linked) and out.adopted:
                    self._linked(out.conn, out.peer)
                settled = self._settled.pop(out.conn, None)
                if settled is not None and not settled.done():
                    settled.set_result(out)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _stop_core(self) -> None:
        """Close every link and attempt (going away) and stop the ticker."""
        await self._apply(self.core.shutdown())
        if self._ticker is not None:
            self._ticker.cancel()

    # ------------------------------------------------------------------ the Links interface

    def peers(self) -> list[PeerKey]:
        """Keys with an open authenticated link."""
        return self.core.peers()

    def links(self) -> dict[PeerKey, LinkInfo]:
        return self.core.links()

    def paths(self) -> dict[PeerKey, tuple[str, float | None]]:
        """Per peer: the path its link took and its round-trip time (a carrier with one path:
        none)."""
        return {}

    @property
    def throttled(self) -> int:
        """Reads paused by the per-link rate limit."""
        return self.core.throttled

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

    def admit_only(self, keys: Iterable[PeerKey] | None) -> None:
        """Accept links only from ``keys`` from now on (None: anyone, e.g. before the charter);
        other links close now and nothing they still send is delivered."""
        self._apply_now(self.core.admit_only(keys))

    async def disconnect(self, peer: PeerKey, reason: str = "disconnected") -> None:
        """Close the link to ``peer`` (its ``LinkDown`` is queued at once); nothing if none."""
        await self._apply(self.core.disconnect(peer, reason))

    def _apply_now(self, outputs: list[Output]) -> None:
        """Outputs that never wait (events and closes), from synchronous code."""
        for out in outputs:
            if isinstance(out, Emit):
                self._events.emit(out.event)
            elif isinstance(out, Close):
                self._shut(out.conn, out.code, out.reason)

    async def send(self, peer: PeerKey, data: bytes) -> None:
        """Send one UTF-8 JSON message to ``peer``; raises ``NoLinkError`` if it cannot go out."""
        frame = self._checked(data)
        conn = self.core.conn_of(peer)
        if conn is None:
            raise NoLinkError(f"no open link to peer {peer.hex()[:16]}")
        if not await self._write(conn, frame):
            raise NoLinkError(f"link to peer {peer.hex()[:16]} lost while sending")

    async def broadcast(self, data: bytes) -> list[PeerKey]:
        """Send to every open, admitted link at once; returns the peers it was handed to.

        Not an authenticated broadcast (a sender can still equivocate): the table's hash chain
        detects that."""
        frame = self._checked(data)  # checked once, the same bytes for every link
        targets = self.core.targets()
        results = await asyncio.gather(*(self._write(conn, frame) for _, conn in targets))
        return [peer for (peer, _), ok in zip(targets, results, strict=True) if ok]

    def _checked(self, data: bytes) -> bytes:
        """``data`` itself once it is known to fit and to be UTF-8 (a text frame's payload)."""
        if len(data) > self._max_message_size:
            raise MessageTooLarge(
                f"message of {len(data)} bytes exceeds limit {self._max_message_size}")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError("mesh messages must be UTF-8 JSON") from exc
        return bytes(data)
