"""Prestige tracks 0…21 with overflow, VP never below 0 (rules §6.5, R8, R9); R27 the Devil
doubles."""

from __future__ import annotations

from .rules import HOUSES

PRESTIGE_MAX = 21


def change_prestige(prestige: dict[str, int], house: str, amount: int) -> None:
    """Apply +x / −x to `house` (already doubled by the Devil where due).

    +x beyond 21: the House stops at 21 and each other House loses the part that did not fit, each
    stopping at 0. −x stops at 0.
    """
    if amount >= 0:
        total = prestige[house] + amount
        prestige[house] = min(total, PRESTIGE_MAX)
        excess = total - PRESTIGE_MAX
        if excess > 0:
            for other in HOUSES:
                if other != house:
                    prestige[other] = max(0, prestige[other] - excess)
    else:
        prestige[house] = max(0, prestige[house] + amount)


def change_vp(vp: list[int], seat: int, amount: int) -> None:
    vp[seat] = max(0, vp[seat] + amount)
