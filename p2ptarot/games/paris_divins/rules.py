"""The rules' numbers as data (spec/games/roses.md, rules §3.2–§3.3):
one frozen `Rules` object per variant."""

from __future__ import annotations

from dataclasses import dataclass

from p2ptarot.engine.registry import VariantInfo


@dataclass(frozen=True)
class Rules:
    name: str
    min_players: int = 2
    max_players: int = 12
    #: cards dealt to each player, = the most rounds a game lasts (PD1)
    hand_size: int = 8
    #: stake tokens each player's supply holds at the start (§3.2)
    supply: int = 6
    #: required stake by rounds won so far: 0, 1, 2 or more (PD3, PD16)
    stakes: tuple[int, ...] = (1, 2, 3)

    def required_stake(self, rounds_won: int) -> int:
        return self.stakes[min(rounds_won, len(self.stakes) - 1)]


PARIS_DIVINS = Rules("standard")
VARIANTS: dict[str, Rules] = {PARIS_DIVINS.name: PARIS_DIVINS}
#: the variants, for the registry
CATALOGUE = (VariantInfo(PARIS_DIVINS.name, summary="8 cards, supply 6, stakes 1/2/3 (rules §3)"),)

# phases, in game order
SHUFFLE, DEAL, CHOOSE, OPEN, OVER = range(5)
PHASE_NAMES = ("shuffle", "deal", "choose", "open", "over")
