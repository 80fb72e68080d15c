"""2 — The High Priestess (rules §6.2, A35–A36, `[2-15]`, `[2-8]`).

Shown and discarded; the user privately sees the target's hidden hand (a REVEAL to the user's
seat with holder = the target's seat; to everyone when a demon plays it); refill; replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.engine import IllegalMove

from ..moves import Priestess
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def targets(g: ArcanoidGame, pid: int) -> list[int]:
    others = [q for q in g.turn_order_from(pid, include_self=False)]
    return others or [-1]


def check(g: ArcanoidGame, pid: int, move: Priestess) -> None:
    if move.target not in targets(g, pid):
        raise IllegalMove(g.seat_of(pid), tr("the High Priestess targets another participant in the "
                                             "round"), g.where())


def play(g: ArcanoidGame, pid: int, move: Priestess, zone: str):
    g.discard.append(move.handle)
    if move.target >= 0:
        t = g.parts[move.target]
        if not t.demon:  # a demon's hand is public already
            for h in t.hand:
                if g.parts[pid].demon:
                    g.show_public(h, holder=t.seat)
                else:
                    g.show_to(h, g.seat_of(pid), holder=t.seat)
    yield from g.refill(pid)
    return True
