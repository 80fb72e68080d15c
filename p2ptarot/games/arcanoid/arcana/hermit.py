"""9 — The Hermit (rules §6.9, §2.10 D, A53–A58, `[(2,5,8)-9]`, `[9-15]`).

Placed on the table; refill; its owner holds three Hermit moves: full extra turns taken at a gap
(pipeline.gap) after any completed turn. Pledges from the Justice's Fool are in fool.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import HermitState
from ..moves import Play

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def play(g: ArcanoidGame, pid: int, move: Play, zone: str):
    g.hermit = HermitState(pid, move.handle, g.rules.hermit_moves)
    yield from g.refill(pid)
    return False
