"""The link interface: what a peer needs from a transport, and nothing more.

A peer (`p2ptarot.peer`) drives its table over a *set of authenticated links keyed by the other
peers' Ed25519 public keys*. How a link is carried — a LAN websocket (`wsmesh.Mesh`), a WebRTC
data channel, a relay (`online.OnlineMesh`) — is the carrier's business; both run one link core
(`linkset.LinkSet`), so every implementation of `Links` gives the same guarantees:

* a link exists only after its peer proved possession of its key (a handshake); events name the
  peer by that key, never by an address;
* one ordered stream of events: `LinkUp`, `Received` (one UTF-8 JSON object), `LinkDown`, and
  notices (`LinkRejected`, `FrameDropped`) that a peer may ignore;
* delivery is best effort and ordered per link; a lost frame costs a catch-up, not correctness
  (every table message is signed and hash-chained above this layer);
* once `admit_only(keys)` names the seats, nobody else is linked, delivered to or sent to, and
  a seated key that comes back (dialling in, or dialled by `connect`) is always linked again.

Links do not heal themselves: the peer (`p2ptarot.peer.heal`) calls `connect` again, with
backoff, for every seat that has no link, for as long as the table lives; a `LinkDown` wakes it.
An implementation only has to make `connect(address, expected_key)` work again after a loss.

The `Advert` tells others that a table is open (zeroconf TXT records on a LAN; an online
transport may publish elsewhere), and a `Transport` opens both for one peer.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from .events import MeshEvent, PeerKey
from .handshake import Signer
from .txt import TableInfo

#: what `Links.next_event` returns (the mesh's event union: data, link changes, notices)
LinkEvent = MeshEvent


class Links(Protocol):
    """A set of authenticated links keyed by peer public key (see the module docstring)."""

    public_key: PeerKey

    @property
    def address(self) -> str:
        """Where the other peers reach this endpoint (written in the table's charter)."""
        ...

    async def connect(self, address: str, expected_key: PeerKey | None = None) -> PeerKey:
        """Open (or replace) a link to `address`; `expected_key` pins who must answer.
        Raises `MeshError` (`ConnectError`, `HandshakeError`) when no link came up."""
        ...

    async def send(self, peer: PeerKey, data: bytes) -> None:
        """Send one UTF-8 JSON object to `peer`; raises `NoLinkError` without an open link."""
        ...

    async def broadcast(self, data: bytes) -> list[PeerKey]:
        """Send to every open, admitted link; returns the peers it was handed to."""
        ...

    async def next_event(self) -> LinkEvent:
        """The next event, in the order things happened."""
        ...

    def peers(self) -> list[PeerKey]:
        """Keys with an open authenticated link now."""
        ...

    def paths(self) -> dict[PeerKey, tuple[str, float | None]]:
        """Per linked peer: the path its link took and its round-trip time in seconds, where a
        carrier has several (online: direct, turn, relay); empty where there is one (a LAN)."""
        ...

    def admit_only(self, keys: Iterable[PeerKey] | None) -> None:
        """From now on link only with `keys` (None: anyone, as in a lobby)."""
        ...

    async def disconnect(self, peer: PeerKey, reason: str = "disconnected") -> None:
        """Close the link to `peer` (a `LinkDown` follows); nothing when there is none."""
        ...

    async def close(self) -> None:
        """Close every link and stop listening; idempotent."""
        ...


class Advert(Protocol):
    """An open table made visible to players looking for one (until closed)."""

    @property
    def invitation(self) -> str | None:
        """What the host tells others to type to join (an online table's code); None where the
        table is found by browsing (a LAN)."""
        ...

    async def start(self) -> None: ...

    async def update(self, **changes: object) -> None:
        """Change advertised fields of `TableInfo` (`seats_taken=3`, `table_id=...`)."""
        ...

    async def close(self) -> None: ...


class Transport(Protocol):
    """How one peer reaches the others: opens its links and advertises its table."""

    def open(self, identity: Signer, address: str | None = None
             ) -> AbstractAsyncContextManager[Links]:
        """The peer's links, open for the duration of the `async with`; `address` is where this
        seat listened before (its charter address), to be reachable there again on resume."""
        ...

    def advert(self, info: TableInfo, links: Links) -> Advert:
        """An advert of `info` for a table hosted on `links` (not started yet)."""
        ...
