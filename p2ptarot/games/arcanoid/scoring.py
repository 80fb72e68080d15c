"""The game winner and its tie-break chain (rules §5, ruling A80).

Input: for each completed round, the credited winner seat of each field (demon wins already
credited to their master). Output: the single winning seat, or None when no round was completed.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from p2ptarot.cards.arcanoid_tables import FIELDS


def field_counts(rounds: Sequence[Mapping[str, int]], seats: Sequence[int]) -> dict[int, dict[str, int]]:
    counts = {s: {f: 0 for f in FIELDS} for s in seats}
    for won in rounds:
        for field, seat in won.items():
            if seat in counts:
                counts[seat][field] += 1
    return counts


def game_winner(rounds: Sequence[Mapping[str, int]], seats: Sequence[int]) -> int | None:
    """Apply §5 steps 1–4 in order, keeping only the players at the maximum each time."""
    if not rounds:
        return None
    counts = field_counts(rounds, seats)
    tied = list(seats)

    def keep(score) -> None:
        nonlocal tied
        best = max(score(s) for s in tied)
        tied = [s for s in tied if score(s) == best]

    keep(lambda s: sum(counts[s].values()))
    for field in FIELDS:
        if len(tied) == 1:
            return tied[0]
        keep(lambda s, f=field: counts[s][f])
    for field in FIELDS:
        if len(tied) == 1:
            return tied[0]
        latest = {s: max((k for k, won in enumerate(rounds) if won.get(field) == s), default=-1)
                  for s in tied}
        keep(lambda s: latest[s])
    return tied[0] if len(tied) == 1 else None
