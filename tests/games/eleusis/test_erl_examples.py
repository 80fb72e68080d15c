"""ERL: every example rule of rules §6.8 is valid, and every evaluation vector of §6.9 holds."""

from __future__ import annotations

import pytest

from p2ptarot.games.eleusis.erl import compile_rule, facts

COLOUR_DIFFERS = "# too easy: a colour different from the last card\naccept c.color != p1.color\n"
PRIME_ALTERNATION = "accept c.prime != p1.prime"
BEGINNER_1 = "accept if p1.odd then c.color == black else c.color == red"
BEGINNER_2 = "accept if p1.color == black then c.rank >= p1.rank else c.rank <= p1.rank"
BEGINNER_3 = "accept c.suit == p1.suit or c.rank == p1.rank"
TOO_HARD = """# too hard: product of the last three ranks modulo 4 (fewer cards: their product, R32)
accept
  let m = prod(rank, last 3) % 4;
  if m == 0 then c.color == red or c.rank > 6
  else if m == 1 then c.color == black or c.face
  else if m == 2 then c.even or c.rank < 6
  else c.odd or c.rank == 10
"""
TOO_HARD_GUARDED = """accept
  if n >= 3 then
    (let m = (p1.rank * p2.rank * p3.rank) % 4;
     if m == 0 then c.color == red or c.rank > 6
     else if m == 1 then c.color == black or c.face
     else if m == 2 then c.even or c.rank < 6
     else c.odd or c.rank == 10)
  else true
"""
SUIT_CYCLE = "accept c.suitnum == p1.suitnum % 4 + 1"
HIGHER_UNLESS_FACE = "accept if p1.face then not c.face else c.rank > p1.rank"
WITHIN_TWO_WRAPPING = "accept (c.rank - p1.rank) % 13 in {1, 2, 11, 12}"
AT_MOST_TWO_APART = "accept abs(c.rank - p1.rank) <= 2"
BETWEEN_LAST_TWO = ("accept if n >= 2 then c.rank >= min(rank, last 2) and c.rank <= max(rank, last 2)"
                    " else true")
BY_POSITION = "accept if (n + 1) % 2 == 0 then c.color == red else c.color == black"
EVEN_SUM = "accept n < 2 or (p1.rank + p2.rank + c.rank) % 2 == 0"
PROGRESSION = """accept
  if n >= 2 then (let d = p1.rank - p2.rank; c.rank - p1.rank == d)
  else c.rank > p1.rank
"""
NOT_SUIT_OF_THREE_AGO = "accept n >= 3 implies c.suit != p3.suit"
RANKS_OR_HEARTS = "accept c.rank in {1, 4, 9, 13} or c.suit == hearts"

EXAMPLES = {
    "colour differs": COLOUR_DIFFERS, "prime alternation": PRIME_ALTERNATION,
    "beginner 1": BEGINNER_1, "beginner 2": BEGINNER_2, "beginner 3": BEGINNER_3,
    "too hard": TOO_HARD, "too hard (guarded form)": TOO_HARD_GUARDED, "suit cycle": SUIT_CYCLE,
    "higher unless face": HIGHER_UNLESS_FACE, "within two, wrapping": WITHIN_TWO_WRAPPING,
    "at most two apart": AT_MOST_TWO_APART, "between last two": BETWEEN_LAST_TWO,
    "by position": BY_POSITION, "even sum": EVEN_SUM, "progression": PROGRESSION,
    "not the suit of three ago": NOT_SUIT_OF_THREE_AGO, "ranks or hearts": RANKS_OR_HEARTS,
}

# rules §6.9, row by row: (rule, main line oldest → newest, "candidate R/W …")
VECTORS = [
    ("colour differs", "hearts-3", "spades-5 R, diamonds-5 W"),
    ("prime alternation", "hearts-7", "clubs-9 R, clubs-11 W"),
    ("beginner 1", "hearts-3", "spades-5 R, hearts-5 W"),
    ("beginner 1", "clubs-12", "spades-5 W, diamonds-1 R"),
    ("beginner 2", "spades-8", "hearts-8 R, hearts-7 W, clubs-13 R"),
    ("beginner 2", "diamonds-8", "hearts-8 R, hearts-9 W, clubs-1 R"),
    ("beginner 3", "hearts-9", "hearts-2 R, spades-9 R, spades-10 W"),
    ("too hard", "hearts-3", "clubs-5 R, clubs-11 R, hearts-4 W"),
    ("too hard", "hearts-1, clubs-1", "clubs-10 R, hearts-12 R, clubs-12 R"),
    ("too hard", "hearts-2, clubs-3, spades-5", "clubs-4 R, hearts-1 R, clubs-11 W"),
    ("too hard", "hearts-2, clubs-4, spades-5", "clubs-4 W, hearts-1 R, spades-7 R, clubs-6 W"),
    ("too hard", "hearts-1, clubs-1, spades-5", "clubs-2 R, hearts-12 R, hearts-2 W"),
    ("too hard", "hearts-1, clubs-1, spades-3", "clubs-10 R, hearts-12 W, hearts-7 R, clubs-8 W"),
    ("too hard (guarded form)", "hearts-1, clubs-1", "clubs-10 R, hearts-12 R"),
    ("suit cycle", "spades-4", "clubs-2 R, hearts-2 W"),
    ("higher unless face", "hearts-12", "clubs-3 R, clubs-13 W"),
    ("higher unless face", "hearts-5", "clubs-3 W, clubs-6 R, clubs-13 R"),
    ("within two, wrapping", "hearts-13", "clubs-1 R, clubs-2 R, clubs-12 R, clubs-13 W, clubs-3 W"),
    ("at most two apart", "hearts-12", "clubs-13 R, clubs-10 R, clubs-9 W, clubs-1 W"),
    ("between last two", "hearts-4, clubs-9", "clubs-4 R, clubs-9 R, clubs-10 W, clubs-6 R"),
    ("between last two", "hearts-4", "clubs-13 R"),
    ("by position", "hearts-4", "clubs-2 W, hearts-2 R"),
    ("by position", "hearts-4, clubs-5", "clubs-2 R, hearts-2 W"),
    ("even sum", "hearts-4", "clubs-3 R"),
    ("even sum", "hearts-4, clubs-5", "clubs-3 R, clubs-2 W"),
    ("progression", "hearts-2, clubs-5", "clubs-8 R, clubs-7 W"),
    ("progression", "hearts-2", "clubs-3 R, clubs-2 W"),
    ("not the suit of three ago", "hearts-2, clubs-5", "hearts-8 R"),
    ("not the suit of three ago", "hearts-2, clubs-5, spades-1", "hearts-8 W, clubs-1 R"),
    ("ranks or hearts", "hearts-12", "clubs-9 R, hearts-2 R, spades-2 W"),
]


def _cases():
    for rule, line, results in VECTORS:
        for item in results.split(", "):
            card, verdict = item.split()
            yield pytest.param(rule, line, card, verdict == "R", id=f"{rule}|{line}|{card}")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_rule_is_valid(name):
    rule = compile_rule(EXAMPLES[name])
    assert rule.text == EXAMPLES[name]


@pytest.mark.parametrize(("name", "line", "card", "right"), list(_cases()))
def test_evaluation_vector(name, line, card, right):
    rule = compile_rule(EXAMPLES[name])
    main = [facts(f"{c}#1") for c in line.split(", ")]
    assert rule.accepts(main, facts(f"{card}#2")) is right


def test_vector_count_covers_every_candidate_of_the_table():
    assert len(VECTORS) == 30
    assert len(list(_cases())) == 77


def test_deck_copy_is_invisible():
    rule = compile_rule(BEGINNER_3)
    assert rule.accepts([facts("hearts-9#1")], facts("hearts-2#1")) is rule.accepts(
        [facts("hearts-9#2")], facts("hearts-2#3"))


def test_run_judged_in_sequence_t4():
    """Rules §5 T4: a run is judged card by card against the extended line."""
    rule = compile_rule(BEGINNER_3)
    line = [facts("hearts-9#1")]
    assert rule.accepts_run(line, [facts(c) for c in ("hearts-2#1", "spades-2#1", "spades-13#1")])
    assert not rule.accepts_run(line, [facts(c) for c in ("spades-2#1", "hearts-2#1")])
