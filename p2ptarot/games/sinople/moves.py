"""The sinople move vocabulary (spec/games/sinople.md §3).

Cards that a move makes public ride along with their handle so the table protocol can check the
reveal against the ciphertext before the engine sees the move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from p2ptarot.engine.types import Move, Pass


@dataclass(frozen=True, slots=True)
class Show(Move):
    """Opener search: "I hold num-K-v" — the card becomes public and stays in hand (R7)."""

    KIND: ClassVar[str] = "show"
    handle: int
    card: str


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play the card at `handle` face up to the current trick."""

    KIND: ClassVar[str] = "play"
    handle: int
    card: str


MOVES: dict[str, type[Move]] = {"show": Show, "play": Play, "pass": Pass}
