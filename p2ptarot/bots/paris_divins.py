"""A sampling paris divins strategy from the seat's view only.

For each (card, bet) it deals the other active players random cards from those it has not seen
(its own hand and the public discards are excluded), gives them plausible bets (mostly their own
card's category), and counts how often it would win the round. The value of a win is the pot;
spending a strong card costs a little, so strong cards are kept when the odds are poor.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from p2ptarot.engine.types import Move
from p2ptarot.games.paris_divins.moves import BETS
from p2ptarot.games.paris_divins.scoring import round_winner
from p2ptarot.cards.roses_tables import CATEGORY, DECK_IDS, INDEX, STRENGTH

SAMPLES = 16


def choose(view: Mapping[str, Any], seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    wagers = [m for m in legal if getattr(m, "KIND", "") == "wager"]
    hand = view.get("hand") or []
    if not wagers or any(m.handle not in view["hand_handles"] for m in wagers):  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
        return legal[rng.randrange(len(legal))]
    card_of = {h: INDEX[c] for h, c in zip(view["hand_handles"], hand)}
    seen = set(hand) | {c for r in view["history"] for c in r.get("cards", {}).values()}
    unseen = [INDEX[c] for c in DECK_IDS if c not in seen]
    others = [s for s in view["active"] if s != seat]
    pot = sum(view["stakes"])
    samples = []
    for _ in range(SAMPLES):
        drawn = rng.sample(unseen, len(others))
        bets = {s: (CATEGORY[c] if rng.random() < 0.6 else rng.randrange(3)) for s, c in zip(others, drawn)}
        samples.append((dict(zip(others, drawn)), bets))
    best, choice = float("-inf"), wagers[0]
    for m in wagers:
        mine = card_of[m.handle]  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
        bet = BETS.index(m.bet)  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
        wins = 0
        for cards, bets in samples:
            _, winner = round_winner({**cards, seat: mine}, {**bets, seat: bet})
            wins += winner == seat
        value = wins / SAMPLES * pot - STRENGTH[mine] / 96 * 0.5 + rng.random() * 1e-6
        if value > best:
            best, choice = value, m
    return choice
