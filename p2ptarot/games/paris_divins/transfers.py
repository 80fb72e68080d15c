"""Transfers (rules §3.6) and the final count (rules §3.7):
supplies (stakeable) and reserves (winnings), PD4."""

from __future__ import annotations

from typing import Mapping


def transfer(stakes: Mapping[int, int], winner: int | None, supply: list[int], reserve: list[int]) -> None:
    """Settle the stakes on the table: each stake back to its owner's supply, except that a winner
    takes every other stake into their reserve."""
    for seat, amount in stakes.items():
        if winner is None or seat == winner:
            supply[seat] += amount
        else:
            reserve[winner] += amount


def final_count(supply: list[int], reserve: list[int]) -> None:
    """Every player, eliminated ones included, moves their supply into their reserve."""
    for seat, amount in enumerate(supply):
        reserve[seat] += amount
        supply[seat] = 0


def winners(reserve: list[int]) -> tuple[int, ...]:
    """The largest reserve wins; a tie shares the victory (PD7)."""
    best = max(reserve)
    return tuple(s for s, r in enumerate(reserve) if r == best)
