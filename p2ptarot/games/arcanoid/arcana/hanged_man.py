"""12 — The Hanged Man (rules §6.12, A63, `[8-12]`, `[7-12]`, `[11-12]`).

Shown and discarded; the target (any participant in the round, or the Justice) discards its whole
hidden hand, its visible cards and its Chariot with the reserve, face down; it refills first
(visible slots, then hand), then the player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.engine import IllegalMove

from ..moves import JUSTICE_TARGET, HangedMan
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def targets(g: ArcanoidGame, pid: int) -> list[int]:
    out = g.turn_order_from(pid)
    if g.justice_card >= 0:
        out.append(JUSTICE_TARGET)
    return out


def check(g: ArcanoidGame, pid: int, move: HangedMan) -> None:
    if move.target not in targets(g, pid):
        raise IllegalMove(g.seat_of(pid), tr("the Hanged Man targets a participant in the round or "
                                             "the Justice"), g.where())


def play(g: ArcanoidGame, pid: int, move: HangedMan, zone: str):
    g.discard.append(move.handle)
    if move.target == JUSTICE_TARGET:
        g.discard.extend(g.justice)
        g.justice = []
        yield from g.refill(pid)
        return False
    t = g.parts[move.target]
    g.discard.extend(t.hand + t.visible)
    t.hand, t.visible = [], []
    g.discard_chariot(move.target)
    yield from g.refill(pid, [move.target, pid])
    return False
