"""14 — Temperance (rules §6.14, A64–A67, `[14-(16,20,21)]`).

Pre: the pile is not empty; the named field holds no card engagement of the player (an
abdication or Judgement there is allowed, A64). While active, nobody else may make a card
engagement there (pipeline.temp_blocks). It ends when its owner card-engages there (engage.py,
World), when the pile empties unrenewed (pipeline.pile_dead), or when its owner finishes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.cards.arcanoid_tables import FIELDS
from p2ptarot.engine import IllegalMove

from ..model import TemperanceState
from ..moves import Temperance
from ..battle import CARDS
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def fields(g: ArcanoidGame, pid: int) -> list[str]:
    if not g.pile:
        return []
    recs = g.parts[pid].records
    return [f for f in FIELDS if f not in recs or recs[f].kind != CARDS]


def check(g: ArcanoidGame, pid: int, move: Temperance) -> None:
    if move.field not in fields(g, pid):
        raise IllegalMove(g.seat_of(pid), tr("Temperance needs a non-empty pile and a field without "
                                             "the player's card engagement"), g.where())


def play(g: ArcanoidGame, pid: int, move: Temperance, zone: str):
    g.temperance = TemperanceState(pid, move.field, move.handle)
    yield from g.refill(pid)
    return False
