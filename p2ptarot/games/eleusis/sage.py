"""The Sage (rules §4.9–4.12): when a player may declare himself, and his bonus (R25)."""

from __future__ import annotations

from typing import Sequence

from .layout import Layout


def may_declare(seat: int, sage: int, eliminated: Sequence[bool], was_sage: Sequence[bool],
                players: Sequence[int]) -> bool:
    """Conditions 2–4 of §4.9 for `seat`, who has just played and is still in the round (R13):
    no Sage now, at least two other players not eliminated, never Sage this round."""
    if sage >= 0 or was_sage[seat] or eliminated[seat]:
        return False
    others = sum(1 for p in players if p != seat and not eliminated[p])
    return others >= 2


def bonus(layout: Layout) -> int:
    """1 per main-line card and 2 per side-line card placed after the marker (§4.15, R25)."""
    main, side = layout.after_marker()
    return main + 2 * side
