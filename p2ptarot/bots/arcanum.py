"""An Arcanum heuristic from the seat's view only: raise the Houses it hides, hide as much as it may,
play the obvious majors (VP, prestige for its Houses), declare the Fool where it pays most.

The random-legal player is the generic `RandomBot`; this strategy is the `heuristic` bot's.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from p2ptarot.engine.types import Move

HOUSES = ("swords", "wands", "cups", "coins")
#: rough worth of a location effect to its visitor
LOCATION_VALUE = {1: 1.6, 2: 1.2, 3: 1.0, 4: 1.2, 5: 2.2, 6: 1.5, 7: 1.8, 8: 1.2, 9: 0.9, 10: 0.8}
#: rough worth of playing a major now (the Devil and the World are judged separately)
MAJOR_VALUE = {0: 1.0, 1: 1.5, 2: 3.0, 3: 1.2, 4: 2.0, 5: 1.4, 6: 2.4, 7: 1.6, 8: 3.2, 9: 1.8,
               10: 0.2, 11: 0.8, 12: -1.0, 13: 0.4, 14: 0.6, 16: 2.1, 17: 2.0, 18: 1.2, 19: 2.2,
               20: 0.7}
COURT_VALUE = {"knave": 11, "knight": 12, "queen": 13, "king": 14}


def _value(card: str | None) -> int:
    if not card or card.startswith("major-"):
        return 0
    rank = card.split("-")[1]
    return COURT_VALUE.get(rank) or int(rank)



def _given_value(view: Mapping[str, Any], seat: int, handles: tuple[int, ...]) -> int:
    """What the cards a Wheel would give away are worth to their holder."""
    return sum(_value(_card_of(view, seat, h)) for h in handles)


def _house(card: str | None) -> str | None:
    return card.split("-")[0] if card and not card.startswith("major-") else None


def _weights(view: Mapping[str, Any], seat: int) -> dict[str, float]:
    """How much each House matters to this seat: its hidden cards there (count, then values)."""
    w = {h: 0.1 for h in HOUSES}
    for c in view["players"][seat]["hidden"]:
        h = _house(c["card"])
        if h:
            w[h] += 1.0 + _value(c["card"]) / 30
    return w


def _card_of(view: Mapping[str, Any], seat: int, handle: int) -> str | None:
    for c in view["players"][seat]["hand"] + view["players"][seat]["hidden"]:
        if c["handle"] == handle:
            return c["card"]
    return None


def _minor_score(view: Mapping[str, Any], w: dict[str, float], move: Any) -> float:
    gain = {h: 0.0 for h in HOUSES}
    house = _house(move.card)
    if house:
        gain[house] += 1
    if move.figure:
        _, fhouse, frank = move.figure.split("-")
        symbols = view["board"]["symbols"][str(move.dest)]
        gain[fhouse] += symbols.get(fhouse, 0) + symbols.get(frank, 0)
    factor = 2 if view.get("devil") else 1
    score = factor * sum(w[h] * g for h, g in gain.items())
    if move.figure:
        score += LOCATION_VALUE.get(move.dest, 1.0)
    return score - _value(move.card) / 40  # keep strong cards for hiding


def _major_score(view: Mapping[str, Any], seat: int, w: dict[str, float], card: str) -> float:
    n = int(card.split("-")[1])
    if n == 15:  # the Devil pays only before a good minor
        return 2.0 if not view["minor_done"] else -5.0
    if n == 21:  # the World: worth it when this seat hides a lot
        return 0.6 * len(view["players"][seat]["hidden"]) - 1.0
    return MAJOR_VALUE.get(n, 0.5)


def _act(view: Mapping[str, Any], seat: int, legal: Sequence[Move], w: dict[str, float]) -> Move:
    minors = [m for m in legal if m.KIND == "play-minor"]
    majors = [m for m in legal if m.KIND == "play-major"]
    best_minor = max(minors, key=lambda m: _minor_score(view, w, m), default=None)
    best_major = max(majors, key=lambda m: _major_score(view, seat, w, m.card), default=None)  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
    if best_major is not None:
        value = _major_score(view, seat, w, best_major.card)  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
        if best_major.card == "major-15" and best_minor is not None:  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
            return best_major if _minor_score(view, w, best_minor) >= 4 else best_minor
        if value >= 1.0 and (best_minor is None or value >= 2.0 or view["minor_done"]):
            return best_major
    if best_minor is not None:
        return best_minor
    return next((m for m in legal if m.KIND == "pass"), legal[0])


def _discard_cost(view: Mapping[str, Any], seat: int, move: Any) -> float:
    cost = 0.0
    for card in move.cards:
        cost += _value(card) / 10 if _house(card) else max(0.3, MAJOR_VALUE.get(int(card.split("-")[1]), 1.0))
    return cost


def _hide_score(view: Mapping[str, Any], seat: int, w: dict[str, float], move: Any) -> float:
    score = 0.0
    for h in move.handles:
        card = _card_of(view, seat, h)
        house = _house(card)
        score += 1.0 + (w[house] if house else 0) * 0.5 + view["prestige"].get(house, 0) / 10 \
            + _value(card) / 20
    return score


def _declare(view: Mapping[str, Any], seat: int, legal: Sequence[Move]) -> Move:
    from p2ptarot.games.arcanum.scoring import score_all

    hidden = [[c["card"] or "" for c in p["hidden"]] for p in view["players"]]
    if any(not c for cards in hidden for c in cards):
        return legal[0]
    world = bool(view["decision"].get("world"))
    return max(legal, key=lambda m: score_all(view["prestige"], hidden, {seat: m.house}, world)[seat])  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields


def choose(view: Mapping[str, Any], seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    decision = view.get("decision") or {}
    name = decision.get("name")
    w = _weights(view, seat)
    top = max(HOUSES, key=lambda h: w[h])
    if name == "act":
        return _act(view, seat, legal, w)
    if name == "draw-choice":
        minors_in_hand = sum(1 for c in view["players"][seat]["hand"] if c["kind"] == "minor")
        option = "major" if minors_in_hand >= 4 and rng.random() < 0.5 else "minors"
        return next((m for m in legal if getattr(m, "option", "") == option), legal[0])
    if name in ("hide", "cathedral"):
        hides = [m for m in legal if m.KIND == "hide"]
        if hides:
            return max(hides, key=lambda m: _hide_score(view, seat, w, m))
    if name in ("limit", "castle", "chariot", "judgement", "death"):
        pool = legal
        if name == "death":
            return max(legal, key=lambda m: len(m.handles) - _discard_cost(view, seat, m) / 5)  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
        return min(pool, key=lambda m: _discard_cost(view, seat, m))
    if name == "wheel":
        return min(legal, key=lambda m: _given_value(view, seat, m.handles))  # type: ignore[attr-defined]  # the legal moves here are all of one class; `Move` declares no fields
    if name == "house":
        return next((m for m in legal if getattr(m, "house", "") == top), legal[0])
    if name == "declare":
        return _declare(view, seat, legal)
    if name == "empress":
        low = min(HOUSES, key=lambda h: w[h])
        return next((m for m in legal if getattr(m, "up", "") == top and getattr(m, "down", "") == low), legal[0])
    if name == "fields":
        want = tuple(1 if w[h] >= 1 else -1 for h in HOUSES)
        return next((m for m in legal if getattr(m, "changes", ()) == want), legal[0])
    if name == "relocate":
        moves = [m for m in legal if m.KIND == "relocate"]
        if moves:
            def gain(m: Any) -> float:
                _, fhouse, frank = m.figure.split("-")
                s = view["board"]["symbols"][str(m.dest)]
                return w[fhouse] * (s.get(fhouse, 0) + s.get(frank, 0)) + LOCATION_VALUE.get(m.dest, 1)
            return max(moves, key=gain)
    if name == "market" or name == "harbour" or name == "artisan":
        pref = {"harbour": "draw", "artisan": "minors"}.get(name)
        if pref:
            return next((m for m in legal if getattr(m, "option", "") == pref), legal[0])
        return next((m for m in legal if m.KIND == "pass"), legal[0])
    if name == "fool-mode":
        option = "hide" if w[top] >= 1 else "joker"
        return next((m for m in legal if getattr(m, "option", "") == option), legal[0])
    return legal[rng.randrange(len(legal))]
