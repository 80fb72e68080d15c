"""Plain values the state machine hands to its caller: what to expect, what happened."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Expectation:
    """Seat `seat` must now send a message of `kind` answering operation `op` of a deck epoch.

    The table layer turns the set of current expectations into a protocol step: one seat for a
    shuffle, several at once for shares, key generation and the audit.
    """

    deck: str
    epoch: int
    op: int
    kind: str
    seat: int


@dataclass(frozen=True)
class Transfer:
    """Show or give handle `handle`, known to `holder`, to seat `recipient`."""

    handle: int
    holder: int
    recipient: int


@dataclass(frozen=True)
class OperationCompleted:
    """Operation `op` of a deck epoch finished on the public log (`name`: keys, shuffle, ...)."""

    deck: str
    epoch: int
    op: int
    name: str


@dataclass(frozen=True)
class CardLearned:
    """This seat just learnt the card behind a handle (dealt, shown, given or revealed)."""

    deck: str
    epoch: int
    handle: int
    card: str


Event = OperationCompleted | CardLearned
