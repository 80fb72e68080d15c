"""Scoring (rules §4.15, §4.16; rulings R23–R27)."""

from __future__ import annotations

from typing import Sequence

from .rules import Rules


def round_scores(rules: Rules, hands: Sequence[int | None], sage: int, sage_bonus: int,
                 cap_cards: int) -> list[int]:
    """Per-seat scores of one round. `hands[s]` is seat s's card count, None for the dealer.

    maxi = the largest hand (R23); a player scores maxi − hand (+ bonus when empty); the Sage in
    office at the end adds `sage_bonus`; the dealer scores the best player score, capped at
    2 × `cap_cards` when a Sage is in office at the end (R24, R26)."""
    counts = [h for h in hands if h is not None]
    maxi = max(counts)
    scores: list[int] = []
    for seat, h in enumerate(hands):
        if h is None:
            scores.append(0)
            continue
        score = maxi - h + (rules.empty_hand_bonus if h == 0 else 0)
        if seat == sage:
            score += sage_bonus
        scores.append(score)
    best = max(scores[s] for s, h in enumerate(hands) if h is not None)
    dealer_score = min(best, 2 * cap_cards) if sage >= 0 else best
    dealer = next(s for s, h in enumerate(hands) if h is None)
    scores[dealer] = dealer_score
    return scores


def totals(rules: Rules, rounds: Sequence[Sequence[int]], dealt: Sequence[bool]) -> list[int]:
    """Game totals: the sum of round scores, plus the bonus to each seat that never dealt (§4.16)."""
    seats = len(dealt)
    return [sum(r[s] for r in rounds) + (0 if dealt[s] else rules.not_dealt_bonus)
            for s in range(seats)]


def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """The highest total wins; equal totals share the win (R27)."""
    best = max(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
