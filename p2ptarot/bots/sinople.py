"""A one-ply sinople strategy that plays to the round figure's goal, from the seat's view only.

Each legal card gets a utility: the chance it ends up winning the trick (exact when the seat plays
last, a crude estimate otherwise) times the round-class points the trick would then carry, signed
by the goal — wife: take class-K points; husband: avoid them and dump class-K cards on others;
child: take points only while staying at or under the target.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from p2ptarot.engine.types import Move


def _parse(card: str) -> tuple[str, int]:
    _, cls, value = card.split("-")
    return cls, int(value)


def _utility(view: Mapping[str, Any], seat: int, card: str) -> float:
    k = view["round_class"]
    goal = view["goal"]
    trick = view["trick"]
    cls, val = _parse(card)
    played = [_parse(c) for _, c in trick]
    led = played[0][0] if played else cls
    top = max((v for _, v in played), default=-1)
    remaining = view["players"] - len(played) - 1
    if val < top:
        p_win = 0.0
    elif remaining == 0:
        p_win = 1.0
    else:
        p_win = ((val + 1) / 10) ** remaining
    k_points = sum(v for c, v in played if c == k) + (val if cls == k else 0)
    k_points += remaining * (3.0 if led == k else 0.5)
    if goal == "wife":
        score = p_win * k_points - 0.05 * val
        if p_win == 0.0 and cls == k:
            score -= val  # feeding a rival
    elif goal == "husband":
        score = -p_win * k_points + 0.05 * val
        if p_win == 0.0 and cls == k:
            score += 0.5 * val  # dump class-K cards while someone else takes them
    else:
        mine = view["points"][seat]
        room = view["child_target"] - mine
        score = p_win * (k_points if k_points <= room else -20.0) - 0.02 * val
    return score


def choose(view: Mapping[str, Any], seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    """The best legal move by utility; ties broken by the bot's own generator."""
    plays = [m for m in legal if getattr(m, "KIND", "") == "play"]
    if not plays or view.get("goal") is None:
        return legal[rng.randrange(len(legal))]
    scored = [(_utility(view, seat, m.card), i) for i, m in enumerate(plays)]  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
    best = max(s for s, _ in scored)
    top = [i for s, i in scored if s == best]
    return plays[top[rng.randrange(len(top))] if len(top) > 1 else top[0]]
