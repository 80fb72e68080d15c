"""The stake check (rules §3.3 steps 1–2), before anything is staked (PD5, PD6, PD16)."""

from __future__ import annotations

from typing import Sequence

from .rules import Rules


def stake_check(rules: Rules, active: Sequence[int], supply: Sequence[int],
                rounds_won: Sequence[int]) -> tuple[dict[int, int], list[int]]:
    """({seat: required stake} for the players who stay, [seats now out of the game])."""
    staying: dict[int, int] = {}
    out: list[int] = []
    for seat in active:
        need = rules.required_stake(rounds_won[seat])
        if supply[seat] < need:
            out.append(seat)
        else:
            staying[seat] = need
    return staying, out
