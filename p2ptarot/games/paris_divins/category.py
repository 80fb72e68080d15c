"""The winning category (rules §3.4), from which categories are present only (PD8)."""

from __future__ import annotations

from typing import Iterable

from p2ptarot.cards.roses_tables import DIVINE, MAJOR, MINOR

#: (winner, loser): majors beat minors, divines beat majors, minors beat divines
BEATS = {(MAJOR, MINOR), (DIVINE, MAJOR), (MINOR, DIVINE)}


def winning_category(categories: Iterable[int]) -> int:
    """One category present wins; of two, the one that beats the other; all three: minor."""
    present = set(categories)
    if not present:
        raise ValueError("no card was revealed")
    if len(present) == 1:
        return next(iter(present))
    if len(present) == 3:
        return MINOR  # the three-way deadlock is a tie, and ties go to the minors
    a, b = sorted(present)
    return a if (a, b) in BEATS else b
