"""16 — The Tower (rules §6.16, A68–A70, `[14-(16,20,21)]`).

Shown and discarded; optionally removes one card engagement of a participant still in the round
(not an abdication, Judgement or World). Couple cards standing on a second field stay there. The
field stays `everEngaged`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.cards.arcanoid_tables import WORLD
from p2ptarot.engine import IllegalMove

from ..moves import NONE, Tower
from ..battle import CARDS
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def targets(g: ArcanoidGame) -> list[tuple[int, str]]:
    out = []
    for q in g.turn_order_from(g.cursor if g.cursor >= 0 else 0):
        for f, rec in g.parts[q].records.items():
            if rec.kind == CARDS and WORLD not in rec.cards:
                out.append((q, f))
    return out


def check(g: ArcanoidGame, pid: int, move: Tower) -> None:
    if move.target == NONE and move.field:
        raise IllegalMove(g.seat_of(pid), tr("a Tower without a target names no field"), g.where())
    if move.target != NONE and (move.target, move.field) not in targets(g):
        raise IllegalMove(g.seat_of(pid), tr("the Tower removes a card engagement of a participant "
                                             "in the round"), g.where())


def play(g: ArcanoidGame, pid: int, move: Tower, zone: str):
    g.discard.append(move.handle)
    if move.target != NONE:
        t = g.parts[move.target]
        rec = t.records.pop(move.field)
        still = {h for r in t.records.values() for h in r.handles}
        g.discard.extend(h for h in rec.handles if h not in still)
    yield from g.refill(pid)
    return False
