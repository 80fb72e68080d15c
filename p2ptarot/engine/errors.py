"""Errors raised by rules engines.

An `IllegalMove` always names the seat to blame, because the table protocol turns it into an
abort record that must point at the cheater (or the buggy peer).
"""

from __future__ import annotations

from p2ptarot.i18n.message import tr


class EngineError(Exception):
    """Base class for every engine error."""


class UnknownGame(EngineError, KeyError):
    """The registry has no game (or variant) of that name."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a readable sentence
        return str(self.args[0]) if self.args else "unknown game"


class BadConfiguration(EngineError, ValueError):
    """Unsupported player count, variant or option."""


class IllegalMove(EngineError):
    """A move the rules forbid, or a claim proven false later on.

    `seat` is the seat to blame; `where` locates the offence in the game ("round 3, trick 2")
    so a transcript verifier can print it; `claim` is the id of the `Claim` proven false (None
    when the move itself is illegal), by which the table finds the claimant's signed message.
    """

    def __init__(self, seat: int, reason: str, where: str = "", claim: int | None = None) -> None:
        self.seat = seat
        self.reason = reason
        self.where = where
        self.claim = claim
        super().__init__(tr("seat {seat}: {reason} ({where})",
                            seat=seat, reason=reason, where=where)
                         if where else tr("seat {seat}: {reason}", seat=seat, reason=reason))


class NotYourTurn(IllegalMove):
    """A seat acted when the turn does not expect it to."""
