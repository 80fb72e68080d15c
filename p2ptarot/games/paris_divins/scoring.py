"""The round winner (rules §3.5): the strongest card among the players who bet on the winning
category."""

from __future__ import annotations

from typing import Mapping

from p2ptarot.cards.roses_tables import CATEGORY, STRENGTH

from .category import winning_category


def round_winner(cards: Mapping[int, int], bets: Mapping[int, int]) -> tuple[int, int | None]:
    """(winning category, winning seat or None when nobody bet on it, PD10).

    `cards[seat]` is the card index played, `bets[seat]` the category bet on. Strength is the
    whole-deck order of §1.6 whatever the card's own category (PD9); it never ties.
    """
    category = winning_category(CATEGORY[c] for c in cards.values())
    eligible = [seat for seat in cards if bets[seat] == category]
    if not eligible:
        return category, None
    return category, max(eligible, key=lambda seat: STRENGTH[cards[seat]])
