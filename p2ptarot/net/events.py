"""Events a ``Mesh`` reports to the peer driving it, all through one queue.

One ordered stream (instead of separate queues for data and link state) lets the peer see a
peer's messages and its link going down in the order they happened.  Peer keys are the raw
32-byte Ed25519 public keys authenticated by the handshake.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

PeerKey = bytes


@dataclass(frozen=True)
class Received:
    """A text frame from an authenticated peer: UTF-8 bytes of one JSON object.

    ``value`` is that object as the link core parsed it (it checks every frame is one), so the
    layer above never parses a frame twice; None when whoever built the event did not parse it."""

    peer: PeerKey
    data: bytes
    value: dict[str, Any] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class LinkUp:
    """A link finished its handshake; ``replaced``: an older link to that key was closed."""

    peer: PeerKey
    address: str
    dialed: bool
    replaced: bool


@dataclass(frozen=True)
class LinkDown:
    """The current link to ``peer`` closed (not reported for links superseded by a newer one)."""

    peer: PeerKey
    reason: str
    code: int | None


@dataclass(frozen=True)
class LinkRejected:
    """A connection failed its handshake and was closed; no link was created."""

    address: str
    reason: str
    code: int | None


@dataclass(frozen=True)
class FrameDropped:
    """An authenticated peer sent a frame that is not a JSON object; it was discarded."""

    peer: PeerKey
    reason: str


MeshEvent = Received | LinkUp | LinkDown | LinkRejected | FrameDropped


class EventQueue:
    """The one queue both meshes (LAN and online) report through, bounded at `bound` events.

    A full queue drops notices (rejections, dropped frames: counted in `dropped_notices`), never a
    link change, and makes a link's reader wait (`deliver`) so a flood of frames stops being read
    instead of growing memory."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.dropped_notices = 0
        self._queue: asyncio.Queue[MeshEvent] = asyncio.Queue()
        self._room = asyncio.Event()  # set while the queue is below its bound
        self._room.set()

    def __len__(self) -> int:
        return self._queue.qsize()

    def emit(self, event: MeshEvent) -> None:
        """Queue an event now; a notice is dropped when the queue is full."""
        if isinstance(event, (LinkRejected, FrameDropped)) and self._queue.qsize() >= self.bound:
            self.dropped_notices += 1
            return
        self._queue.put_nowait(event)

    async def deliver(self, event: Received) -> None:
        """Queue a frame, waiting while the queue is full."""
        while self._queue.qsize() >= self.bound:
            self._room.clear()
            await self._room.wait()
        self._queue.put_nowait(event)

    async def get(self) -> MeshEvent:
        event = await self._queue.get()
        self._made_room()
        return event

    def drain(self) -> list[MeshEvent]:
        """Every event already queued, without waiting."""
        drained: list[MeshEvent] = []
        while not self._queue.empty():
            drained.append(self._queue.get_nowait())
        self._made_room()
        return drained

    def _made_room(self) -> None:
        if self._queue.qsize() < self.bound:
            self._room.set()
