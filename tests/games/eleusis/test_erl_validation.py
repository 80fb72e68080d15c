"""ERL validation: §6.9's invalid rules, the history guard of §6.6, limits of §6.7, positions."""

from __future__ import annotations

import pytest

from p2ptarot.games.eleusis.erl import ErlError, compile_rule, facts, hint_holds, true_hints, validate
from p2ptarot.games.eleusis.erl.evaluator import floor_div, floor_mod, wrap

INVALID_69 = [
    "accept c.rank",
    "accept c.color == 3",
    "accept c.suit < p1.suit",
    "accept 1 < 2 < 3",
    "accept x == 1",
    "accept c.rank == 1 and if true then true else false",
]
GUARD_REJECTED = [
    "accept c.rank > p2.rank",
    "accept n >= 2 or p2.rank == 1",
    "accept if n >= 2 then p3.rank == 1 else true",
    "accept let x = p2.rank; x == 1",
]
GUARD_ACCEPTED = [
    "accept if n >= 3 then p3.odd else true",
    "accept n < 2 or p2.rank == c.rank",
    "accept if n > 2 then p3.odd else true",
    "accept 3 <= n and p3.odd",
    "accept not (n < 3) and p3.odd",
    "accept if n <= 1 then true else p2.odd",
    "accept if n == 3 then p3.odd else true",
    "accept n >= 2 and n >= 3 and p3.odd",
    "accept (n >= 2 and c.odd) implies p2.odd",
    "accept if n < 2 or n < 3 then true else p3.odd",
]


@pytest.mark.parametrize("text", INVALID_69 + GUARD_REJECTED)
def test_invalid_rules_of_the_reference(text):
    with pytest.raises(ErlError) as exc:
        validate(text)
    assert exc.value.line == 1 and exc.value.column >= 1


@pytest.mark.parametrize("text", GUARD_ACCEPTED)
def test_guarded_references_are_accepted(text):
    validate(text)


@pytest.mark.parametrize("text", [
    "accept if n >= 2 or c.odd then p2.odd else true",  # or: true guarantees nothing
    "accept n > 1 implies p3.odd",
    "accept if n != 1 then p2.odd else true",  # the table: lb(n != k, true) = 1
    "accept not (n >= 3) and p3.odd",
    "accept if (n) >= 3 then p3.odd else true",  # lb sees `n OP literal` only
    "accept let g = n >= 3; if g then p3.odd else true",
])
def test_unprovable_guards_are_rejected(text):
    with pytest.raises(ErlError, match="may not exist"):
        validate(text)


@pytest.mark.parametrize(("text", "line", "column", "fragment"), [
    ("accept c.rank", 1, 8, "must be a bool"),
    ("accept c.color == 3", 1, 16, "compares a colour with an int"),
    ("accept c.suit < p1.suit", 1, 15, "orders ints only"),
    ("accept 1 < 2 < 3", 1, 14, "do not chain"),
    ("accept x == 1", 1, 8, "not bound"),
    ("accept c.rank == 1 and if true then true else false", 1, 24, "must be in parentheses"),
    ("accept\n  c.rank > p2.rank", 2, 12, "p2 may not exist"),
    ("accept c == p1", 1, 8, "through an attribute"),
    ("accept p4.rank == 1", 1, 8, "not a card"),
    ("accept c.Rank == 1", 1, 10, "lower-case"),
    ("accept c.rank == 10000", 1, 18, "larger than 9999"),
    ("accept c.rank == 1\r\n", 1, 19, "carriage return"),
    ("accept c.rank é 1", 1, 15, "ASCII"),
    ("accept c.rank == 1 @", 1, 20, "unexpected character"),
    ("c.rank == 1", 1, 1, "'accept'"),
    ("accept let n = 1; true", 1, 12, "reserved word"),
    ("accept let x = 1; let x = 2; x == 1", 1, 19, "already bound"),
    ("accept sum(color, last 2) == 1", 1, 12, "takes 'rank' or 'suitnum'"),
    ("accept sum(rank, last 4) == 1", 1, 23, "1, 2 or 3"),
    ("accept if c.odd then 1 else true", 1, 8, "branches of 'if' differ"),
    ("accept if c.odd then true", 1, 26, "'else'"),
    ("accept c.suit in {hearts, 3}", 1, 27, "set element"),
    ("accept c.rank == 1)", 1, 19, "unexpected ')'"),
    ("accept (c.rank == 1", 1, 20, "expected ')'"),
    ("accept rank == 1", 1, 8, "is an attribute"),
    ("accept c.rank + true == 1", 1, 17, "operand of '+'"),
    ("accept not c.rank", 1, 12, "operand of 'not'"),
    ("accept 12a == 1", 1, 8, "run into a name"),
])
def test_errors_carry_positions(text, line, column, fragment):
    with pytest.raises(ErlError) as exc:
        validate(text)
    assert (exc.value.line, exc.value.column) == (line, column), str(exc.value)
    assert fragment in str(exc.value)


def _eval_int(expr: str) -> int:
    """The value of an int expression, found by asking the rule `expr == k` for each k."""
    rule = compile_rule(f"accept let v = {expr}; v == c.rank - 7")
    for rank in range(1, 14):
        if rule.accepts([facts("hearts-1#1")], (rank, 1)):
            return rank - 7
    raise AssertionError("value out of the probe range")


@pytest.mark.parametrize(("expr", "value"), [
    ("-7 % 3", 2), ("-7 / 3", -3), ("7 % -3", -2), ("7 / 0", 0), ("7 % 0", 0), ("7 / 2", 3),
    ("-(7 / -2)", 4), ("abs(-5)", 5), ("2 + 3 * 2 - 10", -2),
])
def test_arithmetic_vectors(expr, value):
    assert _eval_int(expr) == value


def test_64_bit_wrap_around():
    big = 1 << 63
    assert wrap(big) == -big
    assert wrap(-big - 1) == big - 1
    assert floor_div(-big, -1) == -big
    assert floor_mod(-big, -1) == 0
    rule = compile_rule("accept 9999 * 9999 * 9999 * 9999 * 9999 < 0")  # 9999^5 wraps negative
    assert rule.accepts([facts("hearts-1#1")], (1, 1)) is (wrap(9999 ** 5) < 0)


def test_short_circuit_and_if_choose_one_side():
    rule = compile_rule("accept n >= 3 and p3.rank == c.rank")
    assert not rule.accepts([facts("hearts-1#1")], (1, 1))
    assert rule.accepts([(5, 1), (2, 2), (3, 3)], (5, 4))


def test_aggregates_use_the_cards_available():
    rule = compile_rule("accept sum(rank, last 3) == c.rank")
    assert rule.accepts([(4, 1)], (4, 2))
    assert rule.accepts([(4, 1), (5, 1)], (9, 2))
    assert rule.accepts([(1, 1), (4, 1), (5, 1), (3, 1)], (12, 2))
    rule = compile_rule("accept min(suitnum, last 2) == 1 and max(rank, last 1) == 7")
    assert rule.accepts([(2, 2), (7, 4)], (1, 1)) is False
    assert rule.accepts([(1, 1), (7, 4)], (1, 1)) is True
    assert rule.accepts([(1, 1), (3, 4), (7, 4)], (1, 1)) is False


def test_comments_and_whitespace():
    rule = compile_rule("# header\naccept\t# why\n  c.odd # tail\n")
    assert rule.accepts([(2, 1)], (3, 1))


# ---- limits (§6.7) ---------------------------------------------------------------------------
def test_text_size_limit():
    body = "accept " + " or ".join(["c.odd"] * 600)
    with pytest.raises(ErlError, match="bytes"):
        validate(body)


def test_node_limit():
    text = "accept " + " or ".join(["c.rank == 1"] * 171)  # 1 + 171 * 3 = 514 nodes
    assert len(text) < 4096
    with pytest.raises(ErlError, match="syntax-tree nodes"):
        validate(text)
    validate("accept " + " or ".join(["c.rank == 1"] * 170))  # 511 nodes


def test_depth_limit_and_hostile_nesting():
    validate("accept " + "(" * 63 + "c.odd" + ")" * 63)
    with pytest.raises(ErlError, match="levels deep") as exc:
        validate("accept " + "(" * 64 + "c.odd" + ")" * 64)
    assert exc.value.line == 1
    for hostile in ("accept " + "(" * 3000, "accept " + "not " * 1000 + "true",
                    "accept " + "-" * 4000 + "1 == 1",
                    "accept " + "true implies " * 300 + "true"):
        with pytest.raises(ErlError):
            validate(hostile)


def test_let_and_set_limits():
    lets = "".join(f"let v{i} = {i}; " for i in range(16))
    validate(f"accept {lets}c.odd")
    with pytest.raises(ErlError, match="let bindings"):
        validate(f"accept {lets}let v16 = 1; c.odd")
    validate("accept c.rank in {" + ", ".join(["1"] * 52) + "}")
    with pytest.raises(ErlError, match="52 elements"):
        validate("accept c.rank in {" + ", ".join(["1"] * 30) + "} or c.rank in {"
                 + ", ".join(["1"] * 23) + "}")


def test_not_a_string():
    with pytest.raises(ErlError):
        validate(b"accept true")  # type: ignore[arg-type]


# ---- structured hints (§6.10) ------------------------------------------------------------------
def test_structured_hints():
    beginner1 = "accept if p1.odd then c.color == black else c.color == red"
    assert not hint_holds(beginner1, "ignores colour")
    assert not hint_holds(beginner1, "ignores rank")
    assert hint_holds(beginner1, "ignores position")
    assert hint_holds(beginner1, "history 1")
    assert true_hints("accept c.odd # colour and suit in a comment do not count") == (
        "ignores colour", "ignores position", "history 1", "history 2", "history 3")
    assert true_hints("accept n >= 3 implies c.suit != p3.suit") == ("ignores rank", "history 3")
    assert true_hints("accept c.rank > max(rank, last 2)") == (
        "ignores colour", "ignores position", "history 2", "history 3")
    with pytest.raises(ErlError, match="unknown structured hint"):
        hint_holds(beginner1, "history 4")


def test_leading_zeros_are_the_same_integer():
    rule = compile_rule("accept c.rank == 00000007")
    assert rule.accepts([(1, 1)], (7, 2)) and not rule.accepts([(1, 1)], (8, 2))
    with pytest.raises(ErlError, match="larger than 9999"):
        validate("accept c.rank == " + "9" * 3000)
