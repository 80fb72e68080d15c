"""The trois roses moves (spec/games/roses.md): the only decision is which card to play."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from p2ptarot.engine.types import Move


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play the card at `handle` face up to the trick; its id rides along for the table's check."""

    KIND: ClassVar[str] = "play"
    handle: int
    card: str


MOVES: dict[str, type[Move]] = {"play": Play}
