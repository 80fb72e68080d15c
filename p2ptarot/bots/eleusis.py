"""Eleusis bots, from a seat's view only (rules §3.3, §4).

* As **dealer**: commits a library rule of middling difficulty (2–4: neither found at once nor
  never), sometimes gives one true structured hint, and makes the statements its peer computes
  from the rule (its legal moves are exactly the true ones).
* As **player**: keeps a family of hypotheses (the library and simple variations), drops every
  one the layout contradicts (main-line cards were accepted after the line before them; each
  side-line block was refused after the main line as it stood) or the structured hints exclude,
  and plays the card — or, when
  the survivors agree, the run — that the most survivors accept. "No play" only when every
  survivor refuses every card of the hand.
* As **Sage**: calls with the survivors' majority; declares himself Sage when the survivors agree
  on almost every next card and the layout holds enough evidence.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Mapping, Sequence

from p2ptarot.engine.types import Move, Pass
from p2ptarot.games.eleusis.erl import HINTS, Facts, Rule, compile_rule, facts, hint_holds
from p2ptarot.games.eleusis.library import LIBRARY
from p2ptarot.games.eleusis.moves import (RIGHT, WRONG, Call, Commit, DeclareSage, Hint, NoPlay,
                                          Pick, Play)

#: dealer: the difficulties it picks from
SENSIBLE = (2, 3, 4)
#: player: declare Sage when the survivors agree on this share of next cards, with this much evidence
SAGE_AGREEMENT = 0.97
SAGE_MIN_LAYOUT = 8
HINT_RATE = 0.3

_TEMPLATES = [
    "c.color != p1.color", "c.color == p1.color", "c.suit == p1.suit", "c.suit != p1.suit",
    "c.rank == p1.rank or c.suit == p1.suit", "c.odd != p1.odd", "c.odd == p1.odd",
    "c.rank > p1.rank", "c.rank >= p1.rank", "c.rank < p1.rank", "c.rank <= p1.rank",
    "c.rank != p1.rank", "c.prime != p1.prime", "c.face != p1.face", "c.face == p1.face",
    "c.suitnum == p1.suitnum % 4 + 1", "c.suitnum % 4 + 1 == p1.suitnum",
    "c.color == red", "c.color == black", "c.odd", "c.even", "not c.face", "c.rank <= 7",
    "c.rank >= 7", "c.suit != p1.suit and c.color == p1.color",
    "if p1.odd then c.color == red else c.color == black",
    "if p1.color == red then c.rank >= p1.rank else c.rank <= p1.rank",
    "if p1.color == black then c.odd else c.even",
    "if p1.face then c.face else not c.face",
    "if (n + 1) % 2 == 0 then c.color == black else c.color == red",
    "if (n + 1) % 2 == 0 then c.odd else c.even",
] + [f"abs(c.rank - p1.rank) <= {k}" for k in (1, 3, 4)] + [
    f"abs(c.rank - p1.rank) >= {k}" for k in (2, 3, 4)]


@lru_cache(maxsize=1)
def family() -> tuple[Rule, ...]:
    """The hypotheses: every library rule plus the templates (duplicates by text removed)."""
    texts = [r.text for r in LIBRARY] + [f"accept {t}" for t in _TEMPLATES]
    return tuple(compile_rule(t) for t in dict.fromkeys(texts))


def _deck() -> tuple[Facts, ...]:
    return tuple((rank, suit) for suit in (1, 2, 3, 4) for rank in range(1, 14))


DECK = _deck()


# ---- reading the layout ---------------------------------------------------------------------------
def evidence(view: Mapping[str, Any]) -> tuple[list[Facts], list[tuple[int, tuple[Facts, ...]]]]:
    """The main line (facts, oldest first) and each refused block with the main-line length it
    was judged after."""
    layout = view["layout"]
    main = [facts(p["card"]) for p in layout["main"]]
    refused = [(i + 1, tuple(facts(p["card"]) for p in block))
               for i, col in enumerate(layout["side"]) for block in col]
    return main, refused


def consistent(rule: Rule, main: Sequence[Facts], refused: Sequence[tuple[int, tuple[Facts, ...]]]) -> bool:
    for j in range(1, len(main)):
        if not rule.accepts(main[:j], main[j]):
            return False
    return all(not rule.accepts_run(main[:length], block) for length, block in refused)


@lru_cache(maxsize=4096)
def _fits_hint(text: str, hint: str) -> bool:
    return hint_holds(text, hint)


def survivors(view: Mapping[str, Any]) -> list[Rule]:
    """The hypotheses the layout and the dealer's structured hints (binding, §6.10) allow."""
    main, refused = evidence(view)
    hints = [h for h in view.get("hints") or () if h in HINTS]
    return [r for r in family() if all(_fits_hint(r.text, h) for h in hints)
            and consistent(r, main, refused)]


def _support(rules: Sequence[Rule], line: Sequence[Facts], card: Facts) -> float:
    return sum(1 for r in rules if r.accepts(line, card)) / len(rules) if rules else 0.5


# ---- the dealer -----------------------------------------------------------------------------------
def _dealer(view: Mapping[str, Any], legal: Sequence[Move], rng: random.Random) -> Move:
    first = legal[0]
    if isinstance(first, Commit):
        by_text = {r.text: r for r in LIBRARY}
        sensible = [m for m in legal if isinstance(m, Commit) and m.value in by_text
                    and by_text[m.value].difficulty in SENSIBLE]
        return rng.choice(sensible or list(legal))
    if isinstance(first, Hint):
        hinted = [m for m in legal if isinstance(m, Hint) and m.hints]
        return rng.choice(hinted) if hinted and rng.random() < HINT_RATE else first
    return rng.choice(list(legal)) if isinstance(first, Pick) else first


# ---- a player's turn ------------------------------------------------------------------------------
def _play(view: Mapping[str, Any], seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    hand = [(h["handle"], h["card"]) for h in view["hand"] if h["card"] is not None]
    main, _ = evidence(view)
    rules = survivors(view)
    if not hand:
        return legal[0]
    scored = sorted(((_support(rules, main, facts(c)), rng.random(), h, c) for h, c in hand),
                    reverse=True)
    best, _, handle, card = scored[0]
    no_play = next((m for m in legal if isinstance(m, NoPlay)), None)
    if rules and best == 0.0 and no_play is not None:
        return no_play
    if rules and best == 1.0:
        return _run(rules, main, hand, handle, card)
    return Play((handle,), (card,))


def _run(rules: Sequence[Rule], main: list[Facts], hand: list[tuple[int, str]], handle: int,
         card: str) -> Move:
    """Extend a card every survivor accepts into a run of up to 4 that they all accept."""
    handles, cards = [handle], [card]
    line = main + [facts(card)]
    while len(handles) < 4:
        nxt = next(((h, c) for h, c in hand if h not in handles
                    and all(r.accepts(line, facts(c)) for r in rules)), None)
        if nxt is None:
            break
        handles.append(nxt[0])
        cards.append(nxt[1])
        line.append(facts(nxt[1]))
    return Play(tuple(handles), tuple(cards))


# ---- the Sage -------------------------------------------------------------------------------------
def should_declare(view: Mapping[str, Any]) -> bool:
    rules = survivors(view)
    if not rules or view["layout"]["size"] < SAGE_MIN_LAYOUT:
        return False
    main, _ = evidence(view)
    agree = sum(1 for card in DECK if _support(rules, main, card) in (0.0, 1.0))
    return agree / len(DECK) >= SAGE_AGREEMENT


def _truth_guess(view: Mapping[str, Any]) -> bool:
    pending = view["pending"]
    main, _ = evidence(view)
    rules = survivors(view) or list(family())
    cards = [facts(c) for c in pending["cards"]]
    if pending["no_play"]:
        votes = sum(1 for r in rules if not any(r.accepts(main, c) for c in cards))
    else:
        votes = sum(1 for r in rules if r.accepts_run(main, cards))
    return votes * 2 >= len(rules)


def _sage_pick(view: Mapping[str, Any], legal: Sequence[Move]) -> Move:
    main, _ = evidence(view)
    rules = survivors(view) or list(family())
    return max(legal, key=lambda m: _support(rules, main, facts(m.card)) if isinstance(m, Pick) else -1)


# ---- entry point ----------------------------------------------------------------------------------
def choose(view: Mapping[str, Any], seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    if len(legal) == 1:
        return legal[0]
    if seat == view["dealer"]:
        return _dealer(view, legal, rng)
    phase = view["phase"]
    if phase == "play":
        return _play(view, seat, legal, rng)
    if phase == "sage-window":
        return DeclareSage() if should_declare(view) else Pass()
    if phase == "sage-call":
        return Call(RIGHT if _truth_guess(view) else WRONG)
    if phase == "sage-pick":
        return _sage_pick(view, legal)
    return legal[0]


__all__ = ["choose", "family", "should_declare", "survivors"]
