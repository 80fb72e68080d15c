"""Error types of the mental-poker layer.

Two families, because the caller reacts to them differently:
- `MentalViolation` means a *remote* seat broke the protocol: the table layer blames that seat
  with the offending signed message as evidence and aborts.
- `MentalUsageError` means the *local* caller asked for something impossible (dealing a retired
  handle, ...): a bug in the caller, never a reason to blame anybody.
"""

from __future__ import annotations
from p2ptarot.i18n.message import tr


class MentalError(Exception):
    """Base class of every error raised by p2ptarot.mental."""


class MentalViolation(MentalError):
    """A seat sent something the protocol forbids; `seat` is the seat to blame."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(tr("seat {seat}: {reason}", seat=seat, reason=reason))
        self.seat = seat
        self.reason = reason


class MessageDecodeError(MentalError):
    """A message dict is malformed (wrong keys, types, sizes or encodings).

    Raised by `from_dict`, which does not know who sent the dict; `MentalTable.receive_dict`
    converts it into a `MentalViolation` naming the sender.
    """


class MentalUsageError(MentalError):
    """The local caller misused the API (unknown deck, retired handle, wrong phase...)."""
