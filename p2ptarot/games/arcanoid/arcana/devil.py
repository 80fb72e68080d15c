"""15 — The Devil (rules §6.15, A46–A52, `[8-15]` (b), `[9-15]`, `[15]`).

Placed on the table; a demon participant appears, controlled by the player's seat, whose hand is
always face up: six cards drawn face up, or the Justice's cards when a Justice is active (the
Justice card is then discarded). Its seat goes just before its master (after the participant a
Hermit turn follows); it first plays once play has gone round the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Participant
from ..moves import Play

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def play(g: ArcanoidGame, pid: int, move: Play, zone: str):
    demon = Participant(pid=len(g.parts), seat=g.seat_of(pid), demon=True, devil=move.handle)
    g.parts.append(demon)
    g.insert_demon(demon.pid, pid)
    if g.justice_card >= 0:
        demon.hand = list(g.justice)
        demon.hand_cap = g.justice_cap
        demon.strength_bonus = g.justice_cap - g.rules.justice_size
        g.justice = []
        g.discard.append(g.justice_card)
        g.justice_card = -1
    g.demons += 1
    yield from g.refill(pid, [demon.pid, pid])
    return False
