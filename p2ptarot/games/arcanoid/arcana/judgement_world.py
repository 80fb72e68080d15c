"""20 — Judgement (E9, rules §6.20, A76) and 21 — The World (E10, rules §6.21, A25, A77).

Judgement: the target (any participant in the round) gets an abdication stamped now on a field
where it has no record; the card stays on that field. The World: on a field where nothing was
ever engaged this round; everyone else in the round gets a forced abdication with the same
timestamp; DRESDEN lets the Temperance owner play it on its tempered field (removing it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.cards.arcanoid_tables import FIELDS, JUDGEMENT, WORLD
from p2ptarot.engine import IllegalMove

from ..moves import Judgement, World
from ..battle import CARDS, FORCED, JUDGED, Record
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def judgement_targets(g: ArcanoidGame, pid: int) -> list[tuple[int, str]]:
    return [(q, f) for q in g.turn_order_from(pid) for f in FIELDS
            if f not in g.parts[q].records]


def world_fields(g: ArcanoidGame, pid: int) -> list[str]:
    return [f for f in FIELDS if f not in g.ever_engaged and not g.temp_blocks(pid, f)]


def check_judgement(g: ArcanoidGame, pid: int, move: Judgement) -> None:
    if (move.target, move.field) not in judgement_targets(g, pid):
        raise IllegalMove(g.seat_of(pid), tr("Judgement needs a participant in the round without a "
                                             "record on that field"), g.where())


def check_world(g: ArcanoidGame, pid: int, move: World) -> None:
    if move.field not in world_fields(g, pid):
        raise IllegalMove(g.seat_of(pid), tr("the World needs a field where nothing was ever "
                                             "engaged (and not tempered by someone else)"), g.where())


def play_judgement(g: ArcanoidGame, pid: int, move: Judgement, zone: str):
    g.add_record(Record(move.target, move.field, JUDGED, g.clock, (move.handle,), (JUDGEMENT,)))
    g.finish_checks(pid)
    yield from g.refill(pid)
    return False


def play_world(g: ArcanoidGame, pid: int, move: World, zone: str):
    t = g.temperance
    if t is not None and t.field == move.field:
        g.remove_temperance()  # only reachable by the owner in DRESDEN
    g.add_record(Record(pid, move.field, CARDS, g.clock, (move.handle,), (WORLD,)))
    for q in g.turn_order_from(pid, include_self=False):
        g.add_record(Record(q, move.field, FORCED, g.clock))
    g.finish_checks(pid)
    yield from g.refill(pid)
    return False
