"""Error types of the table layer.

Two families, because the caller reacts to them differently (as in `p2ptarot.mental.errors`):
- `Violation` means a *remote* seat broke the protocol: the session turns it into an abort that
  blames that seat, with its signed messages as evidence. It never escapes the session.
- `TableUsageError` means the *local* caller asked for something impossible (a move out of turn,
  a move the rules refuse, a secret too large to seal...): a bug in the caller or its chooser,
  never a reason to blame anybody, and nothing was sent.
"""

from __future__ import annotations

from .envelope import Envelope
from p2ptarot.i18n.message import tr


class TableError(Exception):
    """Base class of every error raised by p2ptarot.table."""


class Violation(TableError):
    """A fault attributable to `seat` (the session turns it into an abort)."""

    def __init__(self, seat: int, reason: str, evidence: tuple[Envelope, ...] = ()) -> None:
        super().__init__(tr("seat {seat}: {reason}", seat=seat, reason=reason))
        self.seat = seat
        self.reason = reason
        self.evidence = evidence


class TableUsageError(TableError):
    """The local caller misused the session; nothing was sent and the session is unchanged."""


class MoveRefused(TableUsageError):
    """The local seat's move is one the rules refuse now: `reason` is the engine's own."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
