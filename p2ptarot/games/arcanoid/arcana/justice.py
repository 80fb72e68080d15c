"""8 — Justice (rules §6.8, A43–A45, `[8]`, `[8-15]` (a), `[8-11-15]`, `[7-8-15]`).

Placed on the table; six cards drawn face up become the Justice cards (usable by every
participant but the USA); refill; replay. With an active demon it instead absorbs the demon's
whole hand (capacity 6 + the demon's Strength bonus), the demon keeps its Chariot and records,
and there is no replay. The Justice is refilled first after every move (pipeline.refill).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import Play

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def play(g: ArcanoidGame, pid: int, move: Play, zone: str):
    g.justice_card = move.handle
    demon = g.active_demon()
    if demon >= 0:
        d = g.parts[demon]
        g.justice = g.justice + d.hand
        g.justice_cap = g.rules.justice_size + d.strength_bonus
        d.hand, d.hand_cap = [], 0
        yield from g.refill(pid)
        return False
    g.justice_cap = g.rules.justice_size
    yield from g.refill(pid)
    return True
