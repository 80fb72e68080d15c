"""The operations queued on a deck epoch, each with the messages it still waits for.

Operations run one at a time, in request order (identical on every peer because every peer
queues the same requests). `pending` holds the seats that must still speak in the current phase;
`kind` is the message kind they owe.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2ptarot.crypto.elgamal import Ciphertext

from .events import Transfer
from .messages import KeyMessage, ReencryptionMessage, ShareMessage, ShuffleMessage

VersionRef = tuple[int, int]
"""(handle, version): one ciphertext of the epoch."""


@dataclass
class Operation:
    name: str
    kind: str
    pending: set[int] = field(default_factory=set)


@dataclass
class KeysOp(Operation):
    name: str = "keys"
    kind: str = KeyMessage.KIND


@dataclass
class ShuffleOp(Operation):
    """Every seat in seat order shuffles `stage`; `inputs` None means the fresh deck."""

    name: str = "shuffle"
    kind: str = ShuffleMessage.KIND
    inputs: tuple[int, ...] | None = None
    outputs: tuple[int, ...] = ()
    stage: list[Ciphertext] = field(default_factory=list)
    turn: int = 0


@dataclass
class SharesPhase(Operation):
    """Seats publish decryption shares: `plan[seat]` lists what each owes, in order; `targets`
    (handle, version, recipient or None) and `owers` (the seats owing anything) are what every
    message of the operation names on the wire (protocol 7)."""

    kind: str = ShareMessage.KIND
    targets: tuple[tuple[int, int, int | None], ...] = ()
    plan: dict[int, tuple[VersionRef, ...]] = field(default_factory=dict)
    owers: tuple[int, ...] = ()


@dataclass
class DiscloseOp(SharesPhase):
    """Open handles to one seat each (deal) or to everyone (recipient None: reveal)."""

    name: str = "disclose"
    requests: tuple[tuple[int, int | None], ...] = ()


@dataclass
class TransferOp(SharesPhase):
    """Show (give=False) or give handles: holders re-encrypt, then shares for the recipients."""

    name: str = "transfer"
    kind: str = ReencryptionMessage.KIND
    transfers: tuple[Transfer, ...] = ()
    give: bool = False
    new_versions: dict[int, int] = field(default_factory=dict)
    in_share_phase: bool = False


@dataclass
class AuditOp(DiscloseOp):
    """End the epoch: open exactly `requests` (recipient None) to everyone by proven decryption
    shares — the handles the game's claims and rules need, live or reshuffled away — and nothing
    else, ever: no key is published, so every other card stays hidden."""

    name: str = "audit"
