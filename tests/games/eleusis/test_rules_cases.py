"""Rules §5 test cases T1–T9 (T10 is test_erl_examples.py), played through every knowledge mode."""

from __future__ import annotations

import pytest
from .support import Tables, cid, stacked_order

from p2ptarot.cards import standard_52_copy
from p2ptarot.engine import IllegalMove
from p2ptarot.games.eleusis import scoring
from p2ptarot.games.eleusis.moves import (NO, RIGHT, WRONG, YES, Answer, Call, Commit, DeclareSage,
                                          Hint, Judge, Open, Pass)
from p2ptarot.games.eleusis.rules import STANDARD, Rules
from p2ptarot.games.eleusis.state import BASE_DECK

BEGINNER_1 = "accept if p1.odd then c.color == black else c.color == red"
BEGINNER_3 = "accept c.suit == p1.suit or c.rank == p1.rank"
LOW = "accept c.rank <= 9"
LOWS = [f"{s}{r}" for r in range(1, 10) for s in "CDHS"]  # 36 right cards (copy 1)
FACES = [f"{s}{r}#{k}" for k in (1, 2) for r in (10, 11, 12, 13) for s in "CDHS"]  # 32 wrong ones


def tables(hands: dict[int, list[str]], starter: str, players: int = 5, **options) -> Tables:
    order = stacked_order(players, 0, {s: [cid(c) for c in cs] for s, cs in hands.items()}, cid(starter))
    return Tables(players, options, orders={(BASE_DECK, 0): order})


def hand_size(t: Tables, seat: int) -> int:
    return len(t.omni.hands[seat])


# ---- T1, T2, T8: scoring ---------------------------------------------------------------------------
def test_t1_the_sources_scored_round():
    # seats: 0 Pierre (dealer), 1 Alain 17, 2 François 14 (eliminated), 3 Jacques 0, 4 Philippe (Sage) 9
    scores = scoring.round_scores(STANDARD, [None, 17, 14, 0, 9], sage=4, sage_bonus=12 + 2 * 11,
                                  cap_cards=25)
    assert scores == [42, 0, 3, 21, 42]
    after = Rules(dealer_cap_basis="after")
    assert scoring.round_scores(after, [None, 17, 14, 0, 9], 4, 34, 48 - 25) == [42, 0, 3, 21, 42]


def test_t1_sage_bonus_counts_by_placement_number():
    from p2ptarot.games.eleusis.layout import Layout
    from p2ptarot.games.eleusis.sage import bonus
    layout = Layout()
    for i in range(25):
        layout.extend_main(i, "hearts-1#1")
    layout.marker = 25
    for i in range(12):
        layout.extend_main(100 + i, "hearts-2#1")
    for i in range(11):
        layout.add_side([(200 + i, "hearts-3#1")])
    assert layout.size == 48 and bonus(layout) == 34


def test_t2_the_dealers_cap_binds():
    scores = scoring.round_scores(STANDARD, [None, 21, 0, 21], sage=2, sage_bonus=0, cap_cards=10)
    assert max(scores[1:]) == 25 and scores[0] == 20
    scores = scoring.round_scores(STANDARD, [None, 21, 0, 21], sage=-1, sage_bonus=0, cap_cards=0)
    assert scores[0] == 25


def test_t8_a_game_stopped_early():
    totals = scoring.totals(STANDARD, [[20, 5, 12, 0], [3, 15, 9, 7]], [True, True, False, False])
    assert totals == [23, 20, 31, 17]
    assert scoring.winners(totals) == (2,)
    assert scoring.winners([5, 7, 7]) == (1, 2)


# ---- T3: the first player ------------------------------------------------------------------------
@pytest.mark.parametrize(("starter", "first"), [("H12", 4), ("H3", 3), ("H1", 1), ("H5", 1)])
def test_t3_first_player(starter, first):
    t = tables({}, starter)
    t.start(LOW)
    assert t.omni.order == (1, 2, 3, 4)
    assert t.seat() == first
    t.agree()


# ---- T4: runs are judged in sequence ---------------------------------------------------------------
def test_t4_runs_are_judged_in_sequence():
    t = tables({1: ["S2", "H2"], 2: ["H2#2", "S2#2", "S13"]}, "H9")
    t.start(BEGINNER_3)
    assert t.seat() == 1
    t.play("S2", "H2")
    assert t.omni.legal_moves(0) == [Judge(WRONG)]
    t.judge()
    assert t.omni.layout.side[0][-1] and len(t.omni.layout.side[0][-1]) == 2
    assert hand_size(t, 1) == 14 - 2 + 4
    t.decline()
    t.agree()
    t.play("H2", "S2", "S13")
    assert t.omni.legal_moves(0) == [Judge(RIGHT)]
    t.judge()
    assert [p.card.split("#")[0] for p in t.omni.layout.main] == [
        "hearts-9", "hearts-2", "spades-2", "spades-13"]
    assert hand_size(t, 2) == 11
    t.agree()


# ---- T5: penalties ------------------------------------------------------------------------------
def test_t5_penalties_and_no_play():
    lows = iter(LOWS)
    faces = iter(FACES)
    hands = {
        1: [next(lows) for _ in range(5)] + [next(faces) for _ in range(9)],
        2: [next(lows) for _ in range(5)] + [next(faces) for _ in range(9)],
        3: [next(lows) for _ in range(10)] + [next(faces) for _ in range(4)],
        4: [next(lows) for _ in range(10)] + [next(faces) for _ in range(4)],
    }
    t = tables(hands, "C5#2")  # seat 1 first
    t.start(LOW)
    h = {s: list(cs) for s, cs in hands.items()}

    def play(seat, cards):
        assert t.seat() == seat
        t.play(*cards)
        t.judge()
        t.decline()
        t.agree()

    play(1, h[1][0:4])
    play(2, h[2][0:4])
    play(3, h[3][0:4])
    play(4, [h[4][10]])  # a wrong single card: +2
    assert hand_size(t, 4) == 15
    play(1, [h[1][4]])
    play(2, [h[2][4]])
    assert hand_size(t, 1) == hand_size(t, 2) == 9
    play(3, h[3][4:8])
    play(4, h[4][11:14])  # a wrong run of 3: +6
    assert hand_size(t, 4) == 18
    # seat 1 holds 9 face cards: a right "no play"
    assert t.seat() == 1
    t.no_play()
    assert t.omni.legal_moves(0) == [Judge(RIGHT)]  # seat 1 holds only face cards
    t.judge()
    assert hand_size(t, 1) == 9 - 4  # right "no play" with 9 cards: a new hand of 5
    t.decline()
    t.agree()
    # seat 2 holds 9 face cards plus nothing low: also right; its hand goes back (R11)
    assert t.seat() == 2
    t.no_play()
    t.judge()
    assert hand_size(t, 2) == 5
    t.decline()
    t.agree()
    play(3, h[3][8:10])
    assert hand_size(t, 3) == 4
    play(4, h[4][0:1])
    for seat in (1, 2):  # whatever they play, right or wrong
        assert t.seat() == seat
        t.play_first()
        t.judge()
        t.decline()
    assert t.seat() == 3 and hand_size(t, 3) == 4 and t.omni.layout.size < 30
    t.no_play()  # right "no play" with 4 cards: 0 cards, the round ends
    t.judge()
    assert hand_size(t, 3) == 0
    assert t.omni.phase_name() == "open"
    maxi = max(len(t.omni.hands[s]) for s in (1, 2, 4))
    t.open()
    scores = t.omni.records[0].scores
    assert scores[3] == maxi + 4
    t.agree()


def test_t5_right_no_play_with_ten_cards_gives_six():
    hands = {1: LOWS[:4] + FACES[:10]}
    t = tables(hands, "C5#2")
    t.start(LOW)
    t.play(*LOWS[:4])
    t.judge()
    t.decline()
    for seat in (2, 3, 4):  # the others play one card each (low cards from the default deal)
        low = next(h for h in t.omni.hands[seat] if int(t.omni.cards[h].split("-")[1].split("#")[0]) <= 10)
        card = t.omni.cards[low]
        t.move(seat, type(t.omni.legal_moves(seat)[0])((low,), (card,)))
        t.judge()
        t.decline()
    # seat 1 holds 10 face cards: "no play" is right, a new hand of 10 - 4
    t.no_play()
    t.judge()
    assert hand_size(t, 1) == 6
    t.agree()


def test_t5_wrong_no_play_with_nine_cards_ends_with_thirteen():
    hands = {1: LOWS[:6] + FACES[:8]}
    t = tables(hands, "C5#2")
    t.start(LOW)
    t.play(*LOWS[:4])
    t.judge()
    t.decline()
    for seat in (2, 3, 4):
        t.move(seat, t.omni.legal_moves(seat)[0])
        t.judge()
        t.decline()
    t.play(LOWS[4])
    t.judge()
    t.decline()
    for seat in (2, 3, 4):
        t.move(seat, t.omni.legal_moves(seat)[0])
        t.judge()
        t.decline()
    assert t.seat() == 1 and hand_size(t, 1) == 9
    t.no_play()  # holds one low card: wrong
    assert t.omni.legal_moves(0) == [Judge(WRONG)]
    t.judge()
    picks = t.omni.legal_moves(0)
    assert [p.card for p in picks] == [cid(LOWS[5])]
    main_before = len(t.omni.layout.main)
    t.judge()  # the dealer's pick
    assert len(t.omni.layout.main) == main_before + 1
    assert hand_size(t, 1) == 13
    t.agree()


# ---- T6: sudden death ---------------------------------------------------------------------------
def test_t6_sudden_death_without_a_sage():
    lows = iter(LOWS)
    hands = {s: [next(lows) for _ in range(8)] + FACES[3 * (s - 1):3 * s] for s in (1, 2, 3, 4)}
    t = tables(hands, "C5#2")
    t.start(LOW)
    for seat, part in [(1, 0), (2, 0), (3, 0), (4, 0), (1, 4), (2, 4), (3, 4)]:
        assert t.seat() == seat
        t.play(*hands[seat][part:part + 4])
        t.judge()
        t.decline()
    assert t.omni.layout.size == 29
    t.play(hands[4][8])  # wrong at L = 29: +2, stays
    t.judge()
    assert hand_size(t, 4) == 14 - 4 - 1 + 2 and not t.omni.eliminated[4]
    t.decline()
    assert t.omni.layout.size == 30
    t.play(hands[1][8])  # wrong at L = 30: +2 and eliminated
    t.judge()
    assert t.omni.eliminated[1] and hand_size(t, 1) == 14 - 8 - 1 + 2
    assert t.seat() == 2  # no Sage window for an eliminated player
    t.agree()


def _sage_game():
    lows = iter(LOWS)
    hands = {s: [next(lows) for _ in range(9)] + FACES[3 * (s - 1):3 * s] for s in (1, 2, 3, 4)}
    t = tables(hands, "C5#2")
    t.start(LOW)
    t.play(*hands[1][:4])
    t.judge()
    assert t.omni.phase_name() == "sage-window"
    t.move(1, DeclareSage())
    assert t.omni.sage == 1 and t.omni.layout.marker == 5
    return t, hands


def _sage_judged(t, call, cards):
    t.play(*cards)
    t.move(1, Call(call))
    t.judge()


def _to_sudden_death_after_the_marker():
    t, hands = _sage_game()
    for seat, cards in [(2, hands[2][:4]), (3, hands[3][:4]), (4, hands[4][:4]),
                        (2, hands[2][4:8]), (3, hands[3][4:7])]:
        assert t.seat() == seat
        _sage_judged(t, RIGHT, cards)
        t.decline()
    assert t.omni.layout.size - t.omni.layout.marker == 19
    _sage_judged(t, WRONG, [hands[4][9]])  # 19 after the marker: +2, stays
    assert not t.omni.eliminated[4] and hand_size(t, 4) == 14 - 4 - 1 + 2
    t.decline()
    _sage_judged(t, WRONG, [hands[2][9]])  # 20 after the marker: eliminated
    assert t.omni.eliminated[2]
    t.agree()
    return t, hands


def test_t6_sudden_death_after_the_marker():
    t, _ = _to_sudden_death_after_the_marker()
    assert t.omni.eliminated == [False, False, True, False, False]


def test_t7_overruled_sage_in_sudden_death():
    t, hands = _to_sudden_death_after_the_marker()
    assert t.seat() == 3
    before = {s: hand_size(t, s) for s in (1, 3)}
    t.play(hands[3][9])  # a high card: wrong
    assert t.omni.pending.sudden
    t.move(1, Call(RIGHT))
    assert t.omni.legal_moves(0) == [Answer(NO)]
    t.judge()
    assert t.omni.sage == -1 and t.omni.was_sage[1] and t.omni.layout.marker == 0
    assert hand_size(t, 1) == before[1] + 5
    assert hand_size(t, 3) == before[3] - 1 and not t.omni.eliminated[3]
    assert t.omni.layout.side[-1][-1][0].card == cid(hands[3][9])
    t.agree()


def test_t7_overruled_sage_exact_case():
    """Beginner rule 1; the main line ends with hearts-3; hearts-5 played; Sage "right"; "no"."""
    t = tables({3: ["H7"], 4: ["H5"]}, "H3")  # (3 - 1) mod 4 + 1 = 3: seat 3 first
    t.start(BEGINNER_1)
    t.play("H7")  # wrong: after an odd card black is required
    t.judge()
    t.move(3, DeclareSage())
    assert t.omni.layout.marker == 2 and t.omni.cap_cards == 2
    t.play("H5")
    t.move(3, Call(RIGHT))
    assert t.omni.legal_moves(0) == [Answer(NO)]
    t.move(0, Answer(NO))
    assert t.omni.sage == -1 and t.omni.layout.marker == 0
    assert hand_size(t, 3) == 14 - 1 + 2 + 5
    assert hand_size(t, 4) == 13
    assert [b[0].card for b in t.omni.layout.side[0]] == [cid("H7"), cid("H5")]
    # a false prophet may not declare again (condition 4)
    t.agree()
    assert t.omni.was_sage[3]


# ---- T9: an inconsistent dealer -------------------------------------------------------------------
def test_t9_the_omniscient_state_refuses_a_false_judgment_at_once():
    t = tables({3: ["S5"]}, "H3")
    t.start(BEGINNER_1)
    t.play("S5")
    with pytest.raises(IllegalMove) as exc:
        t.omni.apply(0, Judge(WRONG))
    assert exc.value.seat == 0
    assert exc.value.where == "round 1, play 1"
    assert "spades-5#1" in exc.value.reason
    with pytest.raises(IllegalMove):  # the dealer's own peer knows its rule too
        t.views[0].apply(0, Judge(WRONG))


def test_t9_a_lie_is_caught_when_the_rule_opens_and_voids_the_round():
    """§7.7, R35: the round is void (nobody scores), the dealer counts as having dealt, the fault
    is recorded against him at his first false statement, and the game goes on (L1)."""
    from .support import finish_round
    t = tables({3: ["S5"]}, "H3", rounds=2)
    t.start_blind(BEGINNER_1)
    t.play("S5")
    t.move(0, Judge(WRONG))  # accepted by every state that does not know the rule: a claim
    assert t.observer.pending_claims()[0].seat == 0
    finish_round(t, BEGINNER_1)
    t.move(0, Open("rule-1", BEGINNER_1))
    for st in t.all():
        (finding,) = st.findings
        assert finding.seat == 0 and finding.claim == 0
        assert finding.where == "round 1, play 1" and "spades-5#1" in finding.reason
        assert st.records[0].void == finding.to_json() and st.records[0].scores == []
        assert st.claims == [] and st.dealt[0] and st.dealer == 1  # the next dealer deals
    # round 2, dealt by seat 1, is played and scored as usual; seat 0's void round scores nothing
    t.move(1, Commit("rule-2", LOW))
    t.move(1, Hint((), ""))
    from .support import oracle_move
    while t.ref.phase_name() != "open":  # seat 0's own peer left the lockstep: play from values
        phase = t.ref.phase_name()
        if phase == "play":
            t.play_first()
        elif phase == "sage-window":
            t.move(t.seat(), Pass())
        else:
            t.move(t.seat(), oracle_move(t, LOW))
    t.move(1, Open("rule-2", LOW))
    outcomes = {repr(st.outcome()) for st in t.all()}
    assert len(outcomes) == 1
    st = t.observer
    scores = st.records[1].scores
    assert st.outcome().scores == tuple(scores[s] + (0 if s in (0, 1) else 10) for s in range(5))
    assert st.outcome().detail["rounds"][0]["void"]["seat"] == 0


def test_an_honest_round_opens_cleanly_in_every_mode():
    from .support import finish_round
    t = tables({}, "H3")
    t.start_blind(BEGINNER_1)
    finish_round(t, BEGINNER_1)
    t.move(0, Open("rule-1", BEGINNER_1))
    assert all(st.records[0].scores for st in t.all())
    assert len({tuple(st.records[0].scores) for st in t.all()}) == 1


# ---- R12 and R11 together: an added deck, then a returned hand from two decks ---------------------
def test_added_deck_and_a_returned_hand_from_two_decks():
    """Eight participants leave 5 cards in the stock: a wrong run of 4 (8 cards) empties it, deck
    #3 is shuffled in; a right "no play" then returns cards of both decks, each reshuffled into its
    own part of the stock (L6, L7)."""
    highs = [f"{s}{r}#{k}" for k in (1, 2) for r in (10, 11, 12, 13) for s in "CDHS"]
    order = stacked_order(8, 0, {1: [cid(c) for c in highs[:14]]}, cid("H1"),
                          stock=[cid(c) for c in highs[14:19]])
    top = ["clubs-10#3", "clubs-11#3", "clubs-12#3"]
    copy3 = top + [c for c in standard_52_copy(3).ids if c not in top]
    t = Tables(8, orders={(BASE_DECK, 0): order, ("standard-52#3", 0): copy3})
    t.start(LOW)
    assert t.seat() == 1
    t.play(*highs[:4])
    t.judge()
    assert hand_size(t, 1) == 18 and t.omni.next_copy == 4
    assert len(t.omni.stock) == 49
    t.decline()
    for seat in range(2, 8):
        t.play_first()
        t.judge()
        t.decline()
    assert t.seat() == 1
    groups = {t.omni._group[h][0] for h in t.omni.hands[1]}
    assert groups == {BASE_DECK, "standard-52#3"}
    before = len(t.omni.cards)
    t.no_play()
    t.judge()
    assert hand_size(t, 1) == 14
    new = len(t.omni.cards) - before
    assert new >= 15 + 3  # both parts were reshuffled into fresh handles
    assert [t.omni._group[h][0] for h in t.omni.stock] == sorted(
        (t.omni._group[h][0] for h in t.omni.stock), key=lambda d: 0 if d == BASE_DECK else 1)
    t.agree()


# ---- §4.11: "no play" with a Sage, the four cases -------------------------------------------------
HIGHS = [f"{s}{r}#{k}" for k in (1, 2) for r in (10, 11, 12, 13) for s in "CDHS"]


def _sage_then_no_play(low_card: bool) -> Tables:
    """Seat 1 plays 4 right cards and becomes Sage; seat 2 (13 high cards, plus a low one or not)
    declares "no play"."""
    seat2 = HIGHS[:13] + (["C9#2"] if low_card else [HIGHS[13]])
    t = tables({1: LOWS[:4], 2: seat2}, "C5#2")
    t.start(LOW)
    t.play(*LOWS[:4])
    t.judge()
    t.move(1, DeclareSage())
    assert t.seat() == 2
    t.no_play()
    return t


def test_no_play_with_a_sage_case_1_right_yes():
    t = _sage_then_no_play(low_card=False)
    t.move(1, Call(RIGHT))
    assert t.omni.legal_moves(0) == [Answer(YES)]
    t.judge()
    assert hand_size(t, 2) == 10 and t.omni.sage == 1 and hand_size(t, 1) == 10
    t.agree()


def test_no_play_with_a_sage_case_2_right_no():
    t = _sage_then_no_play(low_card=True)
    t.move(1, Call(RIGHT))
    assert t.omni.legal_moves(0) == [Answer(NO)]
    t.judge()
    assert t.omni.sage == -1 and t.ref.phase_name() == "dealer-pick"
    assert [m.card for m in t.omni.legal_moves(0)] == [cid("C9#2")]
    t.judge()
    assert hand_size(t, 2) == 13  # the correct card taken, no penalty (R17)
    assert hand_size(t, 1) == 10 + 5  # the false prophet
    assert t.omni.layout.main[-1].card == cid("C9#2")
    t.agree()


def test_no_play_with_a_sage_case_3_wrong_no():
    t = _sage_then_no_play(low_card=False)
    t.move(1, Call(WRONG))
    assert t.omni.legal_moves(0) == [Answer(NO)]
    t.judge()
    assert t.omni.sage == -1 and hand_size(t, 1) == 15
    assert hand_size(t, 2) == 10  # the player was right: a new hand of 14 - 4
    t.agree()


def test_no_play_with_a_sage_case_4_the_sages_pick_accepted():
    t = _sage_then_no_play(low_card=True)
    t.move(1, Call(WRONG))
    assert t.omni.legal_moves(0) == [Answer(YES)]
    t.judge()
    assert t.ref.phase_name() == "sage-pick" and t.seat() == 1
    t.move(1, next(m for m in t.omni.legal_moves(1) if m.card == cid("C9#2")))
    assert t.omni.legal_moves(0) == [Answer(YES)]
    t.judge()
    assert t.omni.sage == 1 and t.omni.layout.main[-1].card == cid("C9#2")
    assert hand_size(t, 2) == 13 + 5
    t.agree()


def test_no_play_with_a_sage_case_4_the_sages_pick_rejected():
    t = _sage_then_no_play(low_card=True)
    t.move(1, Call(WRONG))
    t.judge()
    high = next(m for m in t.omni.legal_moves(1) if m.card != cid("C9#2"))
    t.move(1, high)
    assert t.omni.legal_moves(0) == [Answer(NO)]
    t.judge()
    assert t.omni.sage == -1 and t.ref.phase_name() == "dealer-pick"
    t.judge()
    assert t.omni.layout.main[-1].card == cid("C9#2")
    assert hand_size(t, 2) == 13 and hand_size(t, 1) == 15  # the pick went back; no penalty
    assert high.handle in t.omni.hands[2]
    t.agree()
