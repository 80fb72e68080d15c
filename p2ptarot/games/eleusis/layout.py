"""The layout (rules §2.3): the main line, the side lines under it, placement numbers, the marker.

Every card placed gets the next placement number (the starter is 1). A wrong play goes to the
bottom of the side line of the last main-line card, a wrong run as one block (R8). The layout only
grows during a round, so a prefix length of the main line names the line as it stood at any step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .erl import Facts, facts


@dataclass(frozen=True, slots=True)
class Placed:
    """One layout card: its placement number, handle and card id."""

    number: int
    handle: int
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"n": self.number, "handle": self.handle, "card": self.card}


@dataclass
class Layout:
    main: list[Placed] = field(default_factory=list)
    #: side[i]: the blocks placed under main-line card i, oldest first; a block is one wrong play
    side: list[list[tuple[Placed, ...]]] = field(default_factory=list)
    main_facts: list[Facts] = field(default_factory=list)
    size: int = 0  # L: every card of the layout
    #: placement number of the card under the Sage marker, 0 when there is no marker
    marker: int = 0

    def _place(self, handle: int, card: str) -> Placed:
        self.size += 1
        return Placed(self.size, handle, card)

    def extend_main(self, handle: int, card: str) -> Placed:
        placed = self._place(handle, card)
        self.main.append(placed)
        self.main_facts.append(facts(card))
        self.side.append([])
        return placed

    def add_side(self, cards: list[tuple[int, str]]) -> tuple[Placed, ...]:
        block = tuple(self._place(h, c) for h, c in cards)
        self.side[-1].append(block)
        return block

    def after_marker(self) -> tuple[int, int]:
        """(main-line cards, side-line cards) placed after the marker (R25)."""
        s = self.marker
        main = sum(1 for p in self.main if p.number > s)
        side = sum(1 for col in self.side for block in col for p in block if p.number > s)
        return main, side

    def to_json(self) -> dict[str, Any]:
        return {
            "main": [p.to_json() for p in self.main],
            "side": [[[p.to_json() for p in block] for block in col] for col in self.side],
            "size": self.size,
            "marker": self.marker,
        }
