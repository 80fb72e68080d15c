"""11 — Strength (rules §6.11, A61–A62, `[11]`, `[8-11]`, `[11-15]`, `[8-11-15]`).

Placed on the table for the rest of the round. "visible": two extra face-up slots; "hidden":
hand capacity 7. Played from the Justice it raises the Justice's capacity (+2 / +1); played by a
demon it raises the demon's (face-up) hand capacity and its Strength bonus. The extra cards come
from the ordinary refill, visible slots first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.engine import IllegalMove

from ..moves import Strength
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame

OPTIONS = ("visible", "hidden")


def check(g: ArcanoidGame, pid: int, move: Strength) -> None:
    if move.option not in OPTIONS:
        raise IllegalMove(g.seat_of(pid), tr("Strength: 'visible' or 'hidden'"), g.where())


def play(g: ArcanoidGame, pid: int, move: Strength, zone: str):
    g.strength_cards.append(move.handle)
    bonus = 2 if move.option == "visible" else 1
    p = g.parts[pid]
    if zone == "justice":
        g.justice_cap += bonus
    elif p.demon:
        p.hand_cap += bonus
        p.strength_bonus += bonus
    elif move.option == "visible":
        p.vis_cap += 2
    else:
        p.hand_cap += 1
    yield from g.refill(pid)
    return False
