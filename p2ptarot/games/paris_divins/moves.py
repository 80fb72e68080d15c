"""The paris divins move (rules §3.3 step 3): one hand card face down, by handle, and one bet token.

The card is named only by its handle; its value opens in the reveal that follows once every
active player has chosen (PD11). Over the network the table makes the whole move blind (commit,
then open) because the turn is SIMULTANEOUS.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from p2ptarot.engine.types import Move

BETS: tuple[str, ...] = ("minor", "major", "divine")


@dataclass(frozen=True, slots=True)
class Wager(Move):
    """Play the hand card at `handle` face down and bet on category `bet` (PD12: independent)."""

    KIND: ClassVar[str] = "wager"
    handle: int
    bet: str


MOVES: dict[str, type[Move]] = {"wager": Wager}
