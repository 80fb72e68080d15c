"""ERL robustness: hostile text only ever raises ErlError; every valid rule is total (it answers a
bool for every main line and candidate, never an exception), including randomly generated
rules that use p2 and p3 under guards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.games.eleusis.erl import ErlError, compile_rule

TOKENS = ["accept", "let", "x", "=", ";", "if", "then", "else", "and", "or", "not", "implies",
          "in", "{", "}", ",", "(", ")", "c", "p1", "p2", "p3", ".", "rank", "suit", "color",
          "odd", "n", "1", "3", "13", "9999", "-", "+", "*", "/", "%", "==", "!=", "<", ">=",
          "sum", "last", "red", "hearts", "true", "false", "abs", "#", "\n", "\t", "é", "\r", "?"]


def _line(rng: random.Random) -> list[tuple[int, int]]:
    return [(rng.randint(1, 13), rng.randint(1, 4)) for _ in range(rng.randint(1, 5))]


def _total(rule, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        assert rule.accepts(_line(rng), (rng.randint(1, 13), rng.randint(1, 4))) in (True, False)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30), st.integers(0, 10**6))
def test_token_soup_is_refused_cleanly_or_total(tokens, seed):
    text = " ".join(tokens)
    try:
        rule = compile_rule(text)
    except ErlError as exc:
        assert exc.line >= 0 and exc.column >= 0
        return
    _total(rule, seed)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.integers(0, 10**6))
def test_arbitrary_text_is_refused_cleanly_or_total(text, seed):
    try:
        rule = compile_rule("accept " + text)
    except ErlError:
        return
    _total(rule, seed)


def _int(rng: random.Random, depth: int, k: int) -> str:
    cards = ["c", "p1", "p2", "p3"][:k + 1]
    choice = rng.randrange(6 if depth > 0 else 3)
    if choice == 0:
        return str(rng.randint(0, 13))
    if choice == 1:
        return f"{rng.choice(cards)}.{rng.choice(['rank', 'suitnum'])}"
    if choice == 2:
        return rng.choice(["n", f"{rng.choice(['sum', 'prod', 'min', 'max'])}(rank, last {rng.randint(1, 3)})"])
    if choice == 3:
        return f"({_int(rng, depth - 1, k)} {rng.choice('+-*/%')} {_int(rng, depth - 1, k)})"
    if choice == 4:
        return f"abs({_int(rng, depth - 1, k)})"
    return f"-{_int(rng, depth - 1, k)}"


def _bool(rng: random.Random, depth: int, k: int) -> str:
    """A bool expression that reads at most p<k> where n >= k is known."""
    cards = ["c", "p1", "p2", "p3"][:k + 1]
    choice = rng.randrange(8 if depth > 0 else 3)
    if choice == 0:
        return f"{_int(rng, depth, k)} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} {_int(rng, depth, k)}"
    if choice == 1:
        return f"{rng.choice(cards)}.{rng.choice(['odd', 'even', 'face', 'prime'])}"
    if choice == 2:
        return f"{rng.choice(cards)}.color == {rng.choice(cards)}.color"
    if choice == 3:
        return f"({_bool(rng, depth - 1, k)} {rng.choice(['and', 'or', 'implies'])} {_bool(rng, depth - 1, k)})"
    if choice == 4:
        return f"not {_bool(rng, depth - 1, k)}"
    if choice == 5:
        g = rng.randint(1, 3)
        return (f"(if n >= {g} then {_bool(rng, depth - 1, max(k, g))} "
                f"else {_bool(rng, depth - 1, k)})")
    if choice == 6:
        return f"({rng.choice(cards)}.suit in {{hearts, spades}} or {_bool(rng, depth - 1, k)})"
    name = f"v{depth}"  # one name per depth: never bound twice on a path
    return f"(let {name} = {_int(rng, depth - 1, k)}; {name} % 2 == 0 or {_bool(rng, depth - 1, k)})"


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
def test_generated_guarded_rules_are_valid_and_total(seed):
    rng = random.Random(seed)
    text = "accept " + _bool(rng, 4, 1)
    try:
        rule = compile_rule(text)
    except ErlError as exc:  # only the size limits may refuse a generated rule
        assert "nodes" in str(exc) or "deep" in str(exc) or "let" in str(exc), (text, exc)
        return
    _total(rule, seed)
