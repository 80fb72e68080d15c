"""House scoring (rules §7) as pure functions over prestige and revealed hidden cards.

Kept free of the game state so the source's test cases (T1–T5) are checked directly.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .rules import FOOL, HOUSES, kind_of, house_of, value_of

#: §7.2 normal table, rank 1..4 -> (dominance, influence, presence); R37: rank-3 dominance 10
NORMAL_TABLE: dict[int, tuple[int, ...]] = {1: (16, 8, 4), 2: (12, 6, 3), 3: (10, 5, 2), 4: (8, 4, 2)}
#: §7.6 the World's table: dominance / influence only, presence pays 0
WORLD_TABLE: dict[int, tuple[int, ...]] = {1: (8, 4), 2: (6, 3), 3: (5, 2), 4: (4, 2)}


def house_ranks(prestige: Mapping[str, int]) -> dict[str, int]:
    """§7.2 / R38: competition ranking, 1 + the number of Houses with strictly more prestige."""
    return {h: 1 + sum(prestige[o] > prestige[h] for o in HOUSES) for h in HOUSES}


def card_house(card: str, fool_suit: str | None) -> str | None:
    if card == FOOL:
        return fool_suit
    return house_of(card) if kind_of(card) == "minor" else None


def score_house(house: str, row: Sequence[int], hidden: Sequence[Sequence[str]],
                fool_suit: Mapping[int, str]) -> list[int]:
    """§7.3: VP per player for one House; tie groups pool their positions and split, rounding down."""
    stats: list[tuple[int, int, int]] = []  # (count, sum, seat)
    for seat, cards in enumerate(hidden):
        mine = [c for c in cards if card_house(c, fool_suit.get(seat)) == house]
        if mine:
            stats.append((len(mine), sum(0 if c == FOOL else value_of(c) for c in mine), seat))
    stats.sort(key=lambda s: (-s[0], -s[1], s[2]))
    vp = [0] * len(hidden)
    position = 0
    i = 0
    while i < len(stats):
        group = [s for s in stats[i:] if s[:2] == stats[i][:2]]
        pool = sum(row[p] for p in range(position, position + len(group)) if p < len(row))
        for _, _, seat in group:
            vp[seat] += pool // len(group)
        position += len(group)
        i += len(group)
    return vp


def score_all(prestige: Mapping[str, int], hidden: Sequence[Sequence[str]],
              fool_suit: Mapping[int, str] | None = None, world: bool = False) -> list[int]:
    """§7.4 steps 1–5 (or §7.6 for the World): the VP each player gains."""
    table = WORLD_TABLE if world else NORMAL_TABLE
    ranks = house_ranks(prestige)
    total = [0] * len(hidden)
    for house in sorted(HOUSES, key=lambda h: (ranks[h], HOUSES.index(h))):
        for seat, gained in enumerate(score_house(house, table[ranks[house]], hidden, fool_suit or {})):
            total[seat] += gained
    return total
