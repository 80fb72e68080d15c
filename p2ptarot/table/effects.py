"""What a `Session` asks its runner to do: the sans-I/O outputs (h11-style events).

Every effect is a slotted, frozen value: the runner reads it and never changes it."""

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
    """Relay this envelope, received from another seat, to every peer (once, before this seat acts
    on it): what one peer saw for a step every peer sees, so a seat that signs two versions of one
    step message is caught by every honest peer (PROTOCOL §8, split view)."""

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


Effect = Send | Forward | Record | NeedMove | Progress | Notice | Finished | Aborted
