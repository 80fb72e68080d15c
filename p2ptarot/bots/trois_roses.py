"""A one-ply trois roses strategy from the seat's view only.

Each legal card is judged by what the trick would give if it ended with that card: the points
(roses weigh extra, they turn excess points into a bonus) won, kept as an excused card, or handed
to the trick's winner. When later players still have to play, a win is discounted by how easily
it can be beaten; cheap cards are preferred when the trick is lost anyway.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from p2ptarot.engine.types import Move
from p2ptarot.cards.roses_tables import CATEGORY, DIVINE, INDEX, IS_ROSE, MAJOR, POINTS, TRICK_VALUE
from p2ptarot.games.trois_roses import trick

ROSE_WEIGHT = 6  # a rose in one's pile is worth more than its 8 points (TR5 bonus)


def _worth(card: int) -> float:
    return POINTS[card] + (ROSE_WEIGHT if IS_ROSE[card] else 0)


def _strength(card: int) -> float:
    """How hard a card is to beat, for the discount when others still play."""
    if CATEGORY[card] == DIVINE:
        return 0.5 + TRICK_VALUE[card] / 22
    if CATEGORY[card] == MAJOR:
        return 0.3 + TRICK_VALUE[card] / 40
    return TRICK_VALUE[card] / 24


def _utility(view: Mapping[str, Any], card: int) -> float:
    played = [INDEX[c] for _, c in view["trick"]]
    cards = played + [card]
    remaining = view["players"] - len(cards)
    me = len(played)
    out = trick.excused(cards)
    if me in out:
        return _worth(card) + 1.0  # excused: the card stays with its player
    pot = sum(_worth(c) for i, c in enumerate(cards) if i not in out)
    if trick.winner(cards) == me:
        chance = 1.0 if remaining == 0 else _strength(card) ** remaining
        return chance * (pot + remaining * 1.5) - (1 - chance) * _worth(card) - 0.05 * TRICK_VALUE[card]
    return -_worth(card) - 0.02 * TRICK_VALUE[card] - (1.0 if CATEGORY[card] == DIVINE else 0.0)


def choose(view: Mapping[str, Any], seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    """The best legal card by utility; ties broken by the bot's own generator."""
    plays = [m for m in legal if getattr(m, "KIND", "") == "play"]
    if not plays:
        return legal[rng.randrange(len(legal))]
    scored = [(_utility(view, INDEX[m.card]), i) for i, m in enumerate(plays)]  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
    best = max(s for s, _ in scored)
    top = [i for s, i in scored if s == best]
    return plays[top[rng.randrange(len(top))]]
