"""What a `Session` asks its driver (the peer's game pump) to do: the sans-I/O outputs (h11-style events).

Every effect is a slotted, frozen value: the driver reads it and never changes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2ptarot.engine import Move, Outcome

from .envelope import Envelope


@dataclass(frozen=True, slots=True)
class Send:
    """Persist this own envelope, then send it to every peer (in that order: never lose it)."""

    envelope: Envelope


@dataclass(frozen=True, slots=True)
class Forward:
    """Relay this abort record, received from another seat, to every peer (once): a seat that
    stopped is known to every peer, whoever it told (PROTOCOL §8). Step messages are never
    relayed: peers compare digests instead (`DigestTo`)."""

    envelope: Envelope


@dataclass(frozen=True, slots=True)
class DigestTo:
    """Send this digest control frame (`p2ptarot.table.digest`) to seat `seat`, or to every peer
    when `seat` is None: it names what this peer stores or lacks, so that both versions of an
    equivocated message meet without relaying every body (PROTOCOL §8)."""

    seat: int | None
    frame: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ResendTo:
    """Send this stored envelope to seat `seat` alone: its digest named another version of it,
    or asked for it."""

    seat: int
    envelope: Envelope


@dataclass(frozen=True, slots=True)
class Record:
    """Append this accepted envelope to the transcript (emitted in log order)."""

    envelope: Envelope


@dataclass(frozen=True, slots=True)
class NeedMove:
    """The local seat must choose one of `legal` (from its own `view`), then call `Session.act`."""

    seat: int
    legal: tuple[Move, ...]
    view: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Progress:
    """A human-readable line about what the table is doing (for UIs and logs)."""

    step: int
    text: str


@dataclass(frozen=True, slots=True)
class Notice:
    """Input that was dropped without blame (unauthenticated garbage, stale duplicates...)."""

    text: str


@dataclass(frozen=True, slots=True)
class Finished:
    """The game ended and every seat signed the same outcome."""

    outcome: Outcome


@dataclass(frozen=True, slots=True)
class Aborted:
    """The game ended on a fault: `blame` is the seat at fault, proven by this peer's own checks of
    `evidence` (its signed envelopes), or None when nobody can be convicted (silence is blamed on
    the silent seat, but proves nothing offline; a game another seat stopped without proof blames
    nobody); `step` is the step of the offending message (a lie found at an audit names the step
    where it was told), else where it was found."""

    blame: int | None
    reason: str
    step: int
    evidence: tuple[Envelope, ...] = ()


@dataclass(frozen=True, slots=True)
class Found:
    """A fault the rules punish without ending the game (an Eleusis dealer's void round, rules
    §7.7): `blame` is convicted by this peer's own checks of `evidence` (the false claim's signed
    message, else the move that revealed the fault), and play goes on. `step` is the step of the
    offending message. The verifier lists these with its verdict."""

    blame: int
    reason: str
    step: int
    evidence: tuple[Envelope, ...] = ()


Effect = (Send | Forward | DigestTo | ResendTo | Record | NeedMove | Progress | Notice | Found
          | Finished | Aborted)
