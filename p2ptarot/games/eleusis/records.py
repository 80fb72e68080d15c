"""Records of the state machine (rules §4): the play waiting for judgment, the queued automatic
effects, and one round's summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2ptarot.engine.types import NOBODY


@dataclass
class Pending:
    """The play waiting for judgment (cards are public and out of the hand; `no_play`: the shown
    hand is still in it)."""

    seat: int
    handles: tuple[int, ...]
    cards: tuple[str, ...]
    no_play: bool
    sudden: bool  # sudden death applies to this play (decided before placement, R20)
    main_len: int
    call: str = ""
    proposal: int = NOBODY
    penalise: bool = True  # false once the play deposed the Sage (R19)
    eliminate: bool = False
    marker_at: int = 0  # where the player's Sage marker would go (R14)


@dataclass
class Effect:
    kind: str  # "deal", "reshuffle", "finish"
    seat: int = NOBODY
    count: int = 0
    group: tuple[str, int] = ("", 0)
    returned: tuple[int, ...] = ()


@dataclass
class RoundRecord:
    dealer: int
    scores: list[int] = field(default_factory=list)
    rule: str = ""
    hints: tuple[str, ...] = ()
    sage: int = NOBODY
    layout: int = 0
    #: the dealer's fault that made the round void (§7.7, L1), as `Finding.to_json()`; None if not
    void: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "scores": list(self.scores), "rule": self.rule,
                "hints": list(self.hints), "sage": self.sage, "layout": self.layout,
                "void": self.void}
