"""A one-ply arcanoïd heuristic from the seat's view only (no omniscient state, no clones).

It engages strong sets at once (World, couples, knights, sums of 15+), lowers its bar as the round
runs out of cards, plays the obviously useful arcana (Justice, Strength, Hermit, the replaying
High Priestess and Pope, the Tower on the best rival engagement), steals with the Fool whenever
asked, takes its Hermit moves, votes for one renewal per round at most, and otherwise discards its
least useful card. Plug-in point: `choose(view, seat, legal, rng)`.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from p2ptarot.engine.types import Move

FIELDS = ("swords", "wands", "cups", "coins")
COUPLE_VALUE = {"imperial": 90.0, "royal": 80.0, "illegitimate": 70.0}
ARCANA_BONUS = {"trump-8": 60.0, "trump-11": 45.0, "trump-9": 50.0, "trump-15": 40.0,
                "trump-10": 25.0, "trump-2": 30.0, "trump-5": 28.0}


def _suit(card: str) -> str:
    return card.split("-")[0]


def _rank(card: str) -> str:
    return card.split("-")[-1]


def _engagement_value(cards: Sequence[str]) -> float:
    s = set(cards)
    if "trump-21" in s:
        return 100.0
    if {"trump-3", "trump-4"} <= s:
        return COUPLE_VALUE["imperial"]
    if "trump-6" in s:
        return COUPLE_VALUE["illegitimate"]
    ranks = [_rank(c) for c in cards if not c.startswith("trump")]
    if "queen" in ranks and "king" in ranks:
        return COUPLE_VALUE["royal"]
    if "knight" in ranks:
        return 17.5
    if "page" in ranks:
        return 14.5
    return float(sum(int(r) for r in ranks if r.isdigit()))


def _me(view: Mapping[str, Any], pid: int) -> Mapping[str, Any]:
    return next(p for p in view["participants"] if p["pid"] == pid)


def _score_turn(view: Mapping[str, Any], pid: int, move: Move) -> float:
    me = _me(view, pid)
    kind = move.KIND
    pile = view["pile"]
    urgency = 1.0 + max(0, 20 - pile) / 10.0  # engage weaker sets when the pile runs low
    if kind in ("engage", "chariot-engage"):
        value = _engagement_value(getattr(move, "cards"))
        n_fields = len(getattr(move, "fields"))
        if value >= 60:
            return value + 10 * (n_fields - 1)
        bar = 15.0 / urgency
        return value * 2 if value >= bar else value * 0.3 * urgency
    if kind in ("secret-engage", "magician-secret", "reinforce"):
        # variants (KOBLENZ, MALTA, WORMS): the mover sees its own cards in its view
        own = {c["handle"]: c["card"] for c in me["hand"] + me["visible"] + (view["justice"] or [])}
        cards = [own.get(h) or "" for h in getattr(move, "handles")]
        value = _engagement_value([c for c in cards if c])
        if kind == "reinforce":
            value += 1.0  # the ace stays (or a page/knight replaces it)
        bar = 15.0 / urgency
        return value * 2 + 3.0 if value >= bar else value * 0.3 * urgency
    if kind == "remove-temperance":
        return 2.0
    if kind == "world":
        return 100.0
    if kind == "abdicate":
        available = len(me["hand"]) + len(me["visible"]) + len(view["justice"] or [])
        return 50.0 if available == 0 else (4.0 if pile == 0 else -5.0)
    if kind == "tower":
        if getattr(move, "target") < 0:
            return 1.0
        rival = next(p for p in view["participants"] if p["pid"] == getattr(move, "target"))
        if rival["seat"] == me["seat"]:
            return -10.0
        rec = rival["records"][getattr(move, "field")]
        return _engagement_value(rec["cards"]) / 2
    if kind == "play" or kind in ("priestess", "pope", "strength"):
        card = getattr(move, "card")
        bonus = ARCANA_BONUS.get(card, 2.0)
        if kind == "strength" and getattr(move, "option") == "visible":
            bonus += 5
        if kind == "priestess" and getattr(move, "target") < 0:
            bonus -= 5
        return bonus
    if kind == "judgement":
        target = next(p for p in view["participants"] if p["pid"] == getattr(move, "target"))
        return -20.0 if target["seat"] == me["seat"] else 12.0 + len(target["records"])
    if kind == "call":
        called = getattr(move, "called")
        mine = {c["card"] for c in me["hand"] if c["card"]}
        if _rank(called) in ("queen", "king"):
            mate = called.replace(_rank(called), "king" if _rank(called) == "queen" else "queen")
            return 35.0 if mate in mine else 8.0
        return 6.0 if _rank(called) in ("knight", "10") else 1.0
    if kind == "discard":
        return 10.0 - _usefulness(view, me, getattr(move, "handle"))
    if kind == "hanged-man":
        return 3.0 if getattr(move, "target") != pid else -3.0
    if kind == "temperance":
        return 6.0
    return 0.0  # chariot moves, Death and the rest: rarely worth it


def _usefulness(view: Mapping[str, Any], me: Mapping[str, Any], handle: int) -> float:
    cards = me["hand"] + me["visible"] + (view["justice"] or [])
    card = next((c["card"] for c in cards if c["handle"] == handle), None)
    if card is None:
        return 0.0
    if card.startswith("trump") or card == "fool":
        return 8.0 if card in ("trump-21", "trump-3", "trump-4", "trump-6", "fool", "trump-8") else 4.0
    suit = _suit(card)
    if suit in me["records"]:
        return 0.0
    rank = _rank(card)
    return {"page": 6.0, "knight": 7.0, "queen": 7.0, "king": 7.0}.get(rank, int(rank) / 2 if rank.isdigit() else 0)


def choose(view: Mapping[str, Any], seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    decision = view.get("decision") or {}
    name = decision.get("name")
    kinds = {m.KIND for m in legal}
    if name == "vote":
        me_done = all(p["finished"] for p in view["participants"] if p["seat"] == seat)
        want = "yes" if view.get("renewals", 0) == 0 and not me_done else "no"
        return next(m for m in legal if getattr(m, "choice", "") == want)
    if "fool" in kinds:
        return next(m for m in legal if m.KIND == "fool" and getattr(m, "cut") < 0)
    if "hermit-move" in kinds:
        return next(m for m in legal if m.KIND == "hermit-move")
    if name == "wheel":
        me = _me(view, decision["actor"])
        return min(legal, key=lambda m: sum(_usefulness(view, me, h) for h in getattr(m, "handles")))
    if name == "turn":
        pid = decision["actor"]
        scored = [(_score_turn(view, pid, m), rng.random(), i) for i, m in enumerate(legal)]
        return legal[max(scored)[2]]
    pas = [m for m in legal if m.KIND == "pass"]
    return pas[0] if pas else legal[rng.randrange(len(legal))]


class ArcanoidBot:
    """Standalone agent wrapper (the shared HeuristicBot can dispatch to `choose` instead)."""

    uses_view = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, seat: int, view: Mapping[str, Any] | None, legal: Sequence[Move]) -> Move:
        if len(legal) == 1 or view is None:
            return legal[0]
        return choose(view, seat, legal, self.rng)
