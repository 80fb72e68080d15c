"""Scoring a deal (rules §2.7) and the match (rules §2.8), on bare numbers."""

from __future__ import annotations

from typing import Iterable, Sequence

from p2ptarot.cards.roses_tables import IS_ROSE, POINTS


def pile_points(pile: Iterable[int]) -> int:
    """P: card points of a won pile (TR6)."""
    return sum(POINTS[c] for c in pile)


def pile_roses(pile: Iterable[int]) -> int:
    """R: how many of the three roses a won pile holds (TR7)."""
    return sum(1 for c in pile if IS_ROSE[c])


def deal_score(points: int, roses: int, target: int) -> int:
    """min(P, T) plus the rose bonus on the excess E (TR5): 0, ⌊E/2⌋, E, 2E for 0–3 roses."""
    excess = max(0, points - target)
    bonus = (0, excess // 2, excess, 2 * excess)[roses]
    return min(points, target) + bonus


def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """Every seat with the highest match total (TR3: a tie shares the victory)."""
    best = max(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
