"""Hostile or mistaken moves are refused by `check` with a reason, blaming their sender; the
dealer's statements are refused at once where the rule is known and blamed at the opening
elsewhere."""

from __future__ import annotations

import pytest
from .support import Tables, cid, finish_round, stacked_order

from p2ptarot.engine import Commit, IllegalMove, NotYourTurn, Open, Pass, create
from p2ptarot.games.eleusis.moves import Answer, Call, DeclareSage, Hint, Judge, NoPlay, Pick, Play

BEGINNER_1 = "accept if p1.odd then c.color == black else c.color == red"


def started(rule: str = BEGINNER_1, hints: tuple[str, ...] = ()) -> Tables:
    order = stacked_order(5, 0, {3: [cid(c) for c in ("S5", "H7", "D2", "C9")]}, cid("H3"))
    t = Tables(5, orders={("standard-52x2", 0): order})
    t.start(rule, hints)
    assert t.seat() == 3
    return t


def refused(state, seat, move, fragment: str = "") -> IllegalMove:
    with pytest.raises(IllegalMove) as exc:
        state.check(seat, move)
    assert exc.value.seat == seat
    assert fragment in exc.value.reason, exc.value.reason
    return exc.value


def test_the_commitment_names_the_round_and_holds_valid_erl():
    state = create("eleusis", 4, options={"first_dealer": 1})
    err = refused(state, 1, Commit("rule-1", "accept c.rank > p2.rank"), "invalid rule")
    assert "line 1, column 17" in err.reason
    refused(state, 1, Commit("rule-2", BEGINNER_1), "rule-1")
    refused(state, 1, Commit("rule-1", ""), "without its value")  # an omniscient state knows it
    with pytest.raises(NotYourTurn):
        state.check(0, Commit("rule-1", BEGINNER_1))
    peer = create("eleusis", 4, options={"first_dealer": 1}, viewer=0)
    peer.check(1, Commit("rule-1", ""))  # another seat's commitment arrives without its value


def test_hints_are_checked():
    state = create("eleusis", 4, options={"first_dealer": 0})
    state.apply(0, Commit("rule-1", BEGINNER_1))
    refused(state, 0, Hint(("history 4",), ""), "unknown structured hint")
    refused(state, 0, Hint(("history 1", "history 1"), ""), "twice")
    refused(state, 0, Hint((), "x" * 201), "at most 200")
    refused(state, 0, Hint((), "tab\there"), "printable")
    refused(state, 0, Hint(("ignores colour",), ""), "contradicts his rule")
    state.check(0, Hint(("history 1", "ignores position"), "think about parity"))


def test_a_false_hint_voids_the_round_at_the_opening():
    t = Tables(5)  # only the states that do not know the rule (they accept a false hint)
    t.drop(t.omni)
    t.drop(t.views[0])
    t.auto()
    t.move(0, Commit("rule-1", BEGINNER_1))
    t.move(0, Hint(("ignores colour",), ""))
    finish_round(t, BEGINNER_1)
    t.move(0, Open("rule-1", BEGINNER_1))
    for st in t.all():
        (finding,) = st.findings
        assert finding.seat == 0 and finding.claim == 0
        assert finding.where == "round 1, before the deal"
        assert st.records[0].void == finding.to_json() and st.records[0].scores == []
        assert st.claims == [] and st.dealer == 1 and st.phase_name() == "rule"


def test_plays_must_be_real_cards_of_the_hand():
    t = started()
    st = t.omni
    h = t.handle(3, "S5")
    other = st.hands[4][0]
    refused(st, 3, Play((h,), ("hearts-5#1",)), "holds spades-5#1")
    refused(st, 3, Play((other,), (st.cards[other],)), "not in the hand")
    refused(st, 3, Play((h, h), (st.cards[h], st.cards[h])), "named twice")
    refused(st, 3, Play((), ()), "one card or a run")
    five = tuple(st.hands[3][:5])
    refused(st, 3, Play(five, tuple(st.cards[x] for x in five)), "run of 2 to 4")
    refused(st, 3, Play((h,), ("spades-5#1", "x")), "one length")
    refused(st, 3, Play((10**6,), ("spades-5#1",)), "not in the hand")
    refused(st, 3, Play((h,), ("joker",)), "not a standard card")
    partial = tuple(st.hands[3][:3])
    refused(st, 3, NoPlay(partial, tuple(st.cards[x] for x in partial)), "whole hand")
    refused(st, 3, Judge("right"), "not expected")
    four = tuple(t.handle(3, c) for c in ("S5", "H7", "D2", "C9"))
    st.check(3, Play(four, tuple(st.cards[x] for x in four)))  # a run of 4, not listed but legal
    # a peer that does not know seat 3's hand cannot be told a card known elsewhere
    peer = t.views[4]
    mine = peer.hands[4][0]
    refused(peer, 3, Play((h,), (peer.cards[mine],)), "already known")


def test_statements_are_refused_where_the_rule_is_known():
    t = started()
    t.play("S5")  # right: black after an odd card
    for st in (t.omni, t.views[0]):
        refused(st, 0, Judge("wrong"), "contradicts his rule")
        refused(st, 0, Judge("maybe"), "'right' or 'wrong'")
    for st in t.views[1:] + [t.observer]:
        st.check(0, Judge("wrong"))  # nobody else can tell yet: a claim when applied
    t.judge()
    t.move(3, DeclareSage())
    t.play_first()
    refused(t.omni, 3, Call("perhaps"), "'right' or 'wrong'")
    t.move(3, Call("right"))
    refused(t.omni, 0, Answer("maybe"), "'yes' or 'no'")


def test_picks_name_a_card_of_the_shown_hand():
    order = stacked_order(5, 0, {1: [cid(c) for c in ("S5", "C7")]}, cid("H1"))
    t = Tables(5, orders={("standard-52x2", 0): order})
    t.start("accept c.suit == spades")
    t.no_play()  # seat 1 holds the 5 of spades: wrong
    t.judge()
    assert t.ref.phase_name() == "dealer-pick"
    other = t.omni.hands[2][0]
    refused(t.omni, 0, Pick(other, t.omni.cards[other]), "not a card of the shown hand")
    clubs = t.handle(1, "C7")
    refused(t.omni, 0, Pick(clubs, t.omni.cards[clubs]), "contradicts his rule")
    t.views[2].check(0, Pick(clubs, t.omni.cards[clubs]))
    t.judge()
    assert [p.card for p in t.omni.layout.main][-1] == cid("S5")


def test_the_sage_window_and_open_are_for_their_seats_only():
    t = started()
    t.play("S5")
    t.judge()
    with pytest.raises(NotYourTurn):
        t.omni.check(4, DeclareSage())
    t.omni.check(3, Pass())
    refused(t.omni, 3, Play((t.handle(3, "H7"),), (cid("H7"),)), "not expected")


def test_an_invalid_rule_opened_voids_the_round_against_the_dealer():
    t = Tables(5)
    t.drop(t.omni)
    t.drop(t.views[0])
    t.auto()
    t.move(0, Commit("rule-1", BEGINNER_1))
    t.move(0, Hint((), ""))
    finish_round(t, BEGINNER_1)
    with pytest.raises(IllegalMove):  # only the dealer opens his rule
        t.views[1].check(1, Open("rule-1", BEGINNER_1))
    t.move(0, Open("rule-1", "accept c.rank"))
    for st in t.all():
        (finding,) = st.findings
        assert finding.seat == 0 and finding.claim is None
        assert "not valid ERL" in finding.reason and finding.where == "round 1, rule opening"
        assert st.records[0].void is not None and st.records[0].rule == "accept c.rank"
        assert st.dealer == 1 and st.claims == []


def test_oversized_moves_are_refused_before_any_work():
    t = started()
    st = t.omni
    refused(st, 3, Play(tuple(range(10**5)), ("x",) * 10**5), "run of 2 to 4")
    refused(st, 3, NoPlay(tuple(range(10**5)), ("x",) * 10**5), "whole hand")
    state = create("eleusis", 4, options={"first_dealer": 0})
    refused(state, 0, Commit("rule-1", "accept true " + "#" * 10**6), "longer than 4096")
    state.apply(0, Commit("rule-1", BEGINNER_1))
    refused(state, 0, Hint(("history 1",) * 10**5, ""), "at most 6")
