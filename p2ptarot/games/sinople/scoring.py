"""Pure scoring rules: trick winner (rules §5.4, R5), figure award (§5.5, R11–R14), ranking (§6, R17).

Kept apart from the state machine so each rule is testable on bare numbers.
"""

from __future__ import annotations

from typing import Sequence

from .rules import CHILD, CHILD_TARGET, HUSBAND, WIFE


def trick_winner(values: Sequence[int]) -> int:
    """Index (in play order) of the winning card: highest value across all classes; among equal
    top values the one played last wins (R5)."""
    best = 0
    for i in range(1, len(values)):
        if values[i] >= values[best]:
            best = i
    return best


def award(role: int, points: Sequence[int], dealt: Sequence[Sequence[int]], players: int) -> int | None:
    """The seat that wins a figure of `role`, or None when it is removed (R14).

    `points[p]` is pts(p); `dealt[p]` the values of the round-class cards dealt to p (R11).
    """
    if role == CHILD:
        target = CHILD_TARGET[players]
        eligible = [p for p in range(len(points)) if points[p] <= target]
        if not eligible:
            return None
        best = max(points[p] for p in eligible)
        top = [p for p in eligible if points[p] == best]
        return top[0] if len(top) == 1 else None
    if role == HUSBAND:
        low = min(points)
        tied = [p for p in range(len(points)) if points[p] == low]
        pick = min
    elif role == WIFE:
        high = max(points)
        tied = [p for p in range(len(points)) if points[p] == high]
        pick = max
    else:
        raise ValueError(f"unknown figure role {role}")
    if len(tied) == 1:
        return tied[0]
    holders = [p for p in tied if dealt[p]]
    if not holders:
        return None
    return pick(holders, key=lambda p: pick(dealt[p]))


def rank_key(roles_won: Sequence[int]) -> tuple[int, int, int, int]:
    """End-of-game key (figures, children, wives, husbands), higher is better (R17)."""
    return (len(roles_won), roles_won.count(CHILD), roles_won.count(WIFE), roles_won.count(HUSBAND))


def winners(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Every seat sharing the best key (shared victory, R17)."""
    best = max(keys)
    return tuple(p for p, k in enumerate(keys) if k == best)
