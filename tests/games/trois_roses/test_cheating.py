"""Reneges: a play that lies about a hidden hand ("I cannot follow", "I hold no major", "I hold no
higher major") is refused at once where the hand is known, recorded as a claim elsewhere, and
blamed on the liar when the card it denied is played."""

from __future__ import annotations

import pytest

from p2ptarot.engine import IllegalMove
from p2ptarot.games.trois_roses.moves import Play

from .support import Deal, fill_hands

# (claim kind, fixed hands, avoid, the lying trick, the liar, the next trick up to the caught card)
CASES = [
    ("no-family",
     {0: ["minor-cup-3"], 1: ["minor-cup-god", "major-role-2"], 2: ["minor-cup-1"]}, {},
     ["minor-cup-3", "major-role-2", "minor-cup-1"], 1, ["minor-cup-god"]),
    ("no-major",
     {0: ["minor-cup-3", "divine-1"], 1: ["minor-star-5", "major-role-2"], 2: ["minor-cup-1"]}, {1: {"cup"}},
     ["minor-cup-3", "minor-star-5", "minor-cup-1"], 1, ["divine-1", "major-role-2"]),
    ("no-higher-major",
     {0: ["minor-cup-3"], 1: ["major-role-5", "divine-1"], 2: ["major-nature-2", "major-concept-1"]},
     {1: {"cup"}, 2: {"cup"}},
     ["minor-cup-3", "major-role-5", "major-nature-2"], 2, ["divine-1", "major-concept-1"]),
]
VIEWS = [{"viewer": 0}, {"viewer": 1}, {"viewer": 2}, {"viewer": None, "omniscient": False}]


def _moves(d: Deal, cards: list[str]) -> list[tuple[int, Play]]:
    """(seat, move) for each card, by the true holder (the truth state is not advanced)."""
    out = []
    for c in cards:
        seat = next(s for s in range(d.players) for h in d.truth.hands[s] if d.truth.cards[h] == c)
        handle = next(h for h in d.truth.hands[seat] if d.truth.cards[h] == c)
        out.append((seat, Play(handle, c)))
    return out


@pytest.mark.parametrize("kind,fixed,avoid,lie,liar,later", CASES, ids=[c[0] for c in CASES])
def test_a_renege_is_caught_when_the_denied_card_opens(kind, fixed, avoid, lie, liar, later) -> None:
    d = Deal(fill_hands(3, fixed, avoid=avoid), dealer=2, modes=VIEWS)
    moves = _moves(d, lie)
    # where the liar's hand is known (omniscient, its own seat) the lie is refused at once
    for st in [d.truth] + [s for s in d.states if s.viewer == liar]:
        refused = False
        for seat, move in moves:
            if seat != liar:
                st.apply(seat, move)
                continue
            with pytest.raises(IllegalMove) as exc:
                st.apply(seat, move)
            assert exc.value.seat == liar and "while holding" in exc.value.reason
            refused = True
            break
        assert refused
    others = [s for s in d.states if s.viewer != liar]
    for st in others:
        for seat, move in moves:
            st.apply(seat, move)
        claims = [c for c in st.pending_claims() if c.seat == liar]
        assert kind in [c.kind for c in claims]
        assert all(c.where == "deal 1, trick 1" for c in claims)
        *honest, (seat, caught) = _moves(d, later)
        for s, m in honest:
            st.apply(s, m)
        assert seat == liar
        with pytest.raises(IllegalMove) as exc:
            st.apply(seat, caught)
        assert exc.value.seat == liar
        assert exc.value.where == "deal 1, trick 1"
        assert "false claim" in exc.value.reason
        assert exc.value.claim is not None and st.claim_log[exc.value.claim].kind == kind


def test_an_honest_void_play_leaves_a_claim_that_the_deal_settles() -> None:
    hands = fill_hands(3, {0: ["minor-cup-3"], 1: ["major-role-2"], 2: ["minor-cup-1"]}, avoid={1: {"cup"}})
    d = Deal(hands, dealer=2, modes=[{"viewer": 0}, {"viewer": None, "omniscient": False}])
    d.play("minor-cup-3", "major-role-2", "minor-cup-1")
    for st in d.states:
        assert [c.kind for c in st.pending_claims()] == ["no-family"]
    while d.truth.turn().kind.value == "seat":
        d.play(d.legal()[0])
    for st in d.states:
        assert st.pending_claims() == [] and len(st.claim_log) >= 1
        assert st.outcome() == d.truth.outcome()


def test_playing_a_card_not_held_or_misnamed_blames_the_player() -> None:
    hands = fill_hands(3, {0: ["minor-cup-3"], 1: ["minor-cup-god"]})
    d = Deal(hands, dealer=2, modes=[{"viewer": 0}, {"viewer": 1}])
    (_, cup3), = _moves(d, ["minor-cup-3"])
    (_, god), = _moves(d, ["minor-cup-god"])
    for st in [d.truth, *d.states]:
        with pytest.raises(IllegalMove) as exc:  # seat 0 names seat 1's handle
            st.apply(0, Play(god.handle, "minor-cup-god"))
        assert exc.value.seat == 0
        with pytest.raises(IllegalMove):  # not a card of the deck
            st.apply(0, Play(cup3.handle, "minor-cup-13"))
    for st in [d.truth, d.states[0]]:  # the value is known there: a misnamed card is refused
        with pytest.raises(IllegalMove):
            st.apply(0, Play(cup3.handle, "minor-cup-4"))
