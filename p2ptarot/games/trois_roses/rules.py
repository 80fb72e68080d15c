"""The rules' numbers as data (spec/games/roses.md, rules §2.2–§2.4, §2.8): one
frozen `Rules` object per variant."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

from p2ptarot.engine.registry import VariantInfo


@dataclass(frozen=True)
class Rules:
    """`deals` = deals in a match (None: one per player as dealer, TR3)."""

    name: str
    min_players: int = 3
    max_players: int = 5
    #: cards per player = tricks per deal (TR4: ⌊96 / n⌋, the rest set aside face down)
    hand_size: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({3: 32, 4: 24, 5: 19}))
    #: target T = the *mise de départ* (§2.4, TR5)
    target: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({3: 72, 4: 64, 5: 56}))
    deals: int | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> "Rules":
        """Immutable and shared: a state's `clone()` keeps the same rules (its read-only
        mappings cannot be deep-copied)."""
        return self

    def deal_count(self, players: int) -> int:
        return self.deals if self.deals is not None else players


TROIS_ROSES = Rules("standard")
#: a single scored deal (TR3: the engine scores one deal on its own)
SINGLE_DEAL = replace(TROIS_ROSES, name="single-deal", deals=1)

VARIANTS: dict[str, Rules] = {r.name: r for r in (TROIS_ROSES, SINGLE_DEAL)}
#: the variants, for the registry
CATALOGUE = (VariantInfo(TROIS_ROSES.name, summary="a match of one deal per player as dealer (TR3)"),
             VariantInfo(SINGLE_DEAL.name, parent=TROIS_ROSES.name, summary="one scored deal (TR3)"))

# phases, in game order
FIRST_DEALER, SHUFFLE, DEAL, PLAY, OVER = range(5)
PHASE_NAMES = ("first-dealer", "shuffle", "deal", "play", "over")
