"""The deal (rules §2.4): every card dealt one at a time from the player after the dealer (TR4)."""

from __future__ import annotations


def deal_seats(players: int, dealer: int, hand_size: int) -> list[int]:
    """Seat receiving the card at each position of the shuffled deck; positions past
    `players × hand_size` are the surplus, set aside face down (5 players: one card)."""
    return [(dealer + 1 + i) % players for i in range(players * hand_size)]
