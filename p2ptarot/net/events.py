"""Events a ``Mesh`` reports to its runner, all through one queue.

One ordered stream (instead of separate queues for data and link state) lets the runner see a
peer's messages and its link going down in the order they happened.  Peer keys are the raw
32-byte Ed25519 public keys authenticated by the handshake.
"""

from __future__ import annotations

from dataclasses import dataclass

PeerKey = bytes


@dataclass(frozen=True)
class Received:
    """A text frame from an authenticated peer: UTF-8 bytes of one JSON object."""

    peer: PeerKey
    data: bytes


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
