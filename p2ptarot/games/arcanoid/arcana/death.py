"""13 — Death (rules §6.13, A11): the whole draw pile goes unseen to the discard pile and is
never renewed this round; no draw; an active Temperance ends (DRESDEN)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import Play

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def play(g: ArcanoidGame, pid: int, move: Play, zone: str):
    g.discard.append(move.handle)
    if g.pile:
        g.discard.extend(g.pile)
        g.pile = []
        g.death_played = True
        g.pile_dead()
    yield from g.refill(pid)
    return False
