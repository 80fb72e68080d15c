"""Rules and test cases T1–T7, T18–T21 of spec/games/sinople.md on the engine, in every
knowledge mode where the case allows."""

from __future__ import annotations

import pytest
from .support import (all_modes, card, cards, deal_order, figures_with, fill_hands, start)

from p2ptarot.engine import PUBLIC, IllegalMove, NotYourTurn, Pass, TurnKind, create
from p2ptarot.games.sinople.moves import Play, Show
from p2ptarot.games.sinople.rules import HAND_SIZE


def play_round_out(t) -> int:
    """Play the current round to its end with the first legal move; returns the number of plays."""
    st, r, count = t.state, t.state.round, 0
    while st.round == r and st.turn().kind is TurnKind.SEAT:
        seat = st.turn().seats[0]
        st.apply(seat, st.legal_moves(seat)[0])
        count += 1
        t.advance()
    return count


@pytest.mark.parametrize("n,h,surplus", [(2, 15, 0), (3, 10, 0), (4, 7, 2), (5, 6, 0)])
def test_t1_deal_sizes(n: int, h: int, surplus: int) -> None:
    t = start(n, figures_with("fig-a-wife"), 0, {})
    st = t.state
    assert [len(x) for x in st.hands] == [h] * n
    assert len(st.surplus) == surplus
    t.search()
    assert play_round_out(t) == n * h
    assert st.round == 1 and len(st.history) == 1


def test_r9_deal_order_from_dealers_left() -> None:
    order = [f"num-{c}-{v}" for c in "abc" for v in range(10)]
    t = start(3, figures_with("fig-a-wife"), 1, {0: order})
    hands = [[t.truth[h] for h in hand] for hand in t.state.hands]
    assert hands[2][:2] == ["num-a-0", "num-a-3"] and hands[0][0] == "num-a-1" and hands[1][0] == "num-a-2"


def test_r8_r10_pile_and_surplus_stay_hidden() -> None:
    t = start(4, figures_with("fig-b-wife"), 0, {})
    st = t.state
    assert st.seen[st.fig_handles[0]] == {PUBLIC}
    assert all(not st.seen[h] for h in st.fig_handles[1:])
    surplus = st.surplus
    t.search()
    play_round_out(t)
    assert all(not st.seen[h] for h in surplus)


@pytest.mark.parametrize("mode", all_modes(3))
def test_t2_opener_may_lead_any_card(mode) -> None:
    hands = fill_hands(3, {1: cards("C0 A7")})
    t = start(3, figures_with("fig-c-husband"), 0, {0: deal_order(hands, 0)}, **mode)
    assert t.search() == 1
    st = t.state
    assert st.view(None)["shown"] == "num-c-0"
    if st.omniscient or st.viewer == 1:
        assert len(st.legal_moves(1)) == 10
    t.play(card("A7"), seat=1)
    assert st.view(None)["trick"] == [[1, "num-a-7"]]
    assert st.led == 0


@pytest.mark.parametrize("mode", all_modes(4))
def test_t3_opener_when_the_zero_is_in_the_surplus(mode) -> None:
    surplus = cards("B0 A5")
    hands = fill_hands(4, {3: cards("B1")}, surplus)
    t = start(4, figures_with("fig-b-wife"), 0, {0: deal_order(hands, 0, surplus)}, **mode)
    assert t.search() == 3
    assert t.state.view(None)["shown"] == "num-b-1"
    assert t.state.pending_claims() == [] or not t.state.omniscient


@pytest.mark.parametrize("mode", all_modes(4))
def test_t3_search_goes_to_two(mode) -> None:
    surplus = cards("B0 B1")
    hands = fill_hands(4, {1: cards("B2")}, surplus)
    t = start(4, figures_with("fig-b-wife"), 0, {0: deal_order(hands, 0, surplus)}, **mode)
    assert t.search() == 1
    assert t.state.view(None)["shown"] == "num-b-2"


def test_t4_following_is_forced() -> None:
    hands = fill_hands(3, {0: cards("B0 A5"), 1: cards("A3 C9")}, avoid={1: "a"})
    t = start(3, figures_with("fig-b-wife"), 2, {0: deal_order(hands, 2)})
    assert t.search() == 0
    t.play(card("A5"))
    assert t.state.legal_moves(1) == [Play(t.handle_of(1, card("A3")), card("A3"))]
    with pytest.raises(IllegalMove) as exc:
        t.state.apply(1, Play(t.handle_of(1, card("C9")), card("C9")))
    assert exc.value.seat == 1 and "follow" in exc.value.reason


def test_t4_void_seat_may_play_anything() -> None:
    hands = fill_hands(3, {0: cards("B0 A5"), 1: cards("C9 B1")}, avoid={1: "a"})
    t = start(3, figures_with("fig-b-wife"), 2, {0: deal_order(hands, 2)})
    t.search()
    t.play(card("A5"))
    assert len(t.state.legal_moves(1)) == 10


@pytest.mark.parametrize("mode", all_modes(4))
def test_t5_tie_on_value_last_played_wins(mode) -> None:
    surplus = cards("B8 B9")
    hands = fill_hands(4, {0: cards("B0 A5"), 1: cards("A7"), 2: cards("C7"), 3: cards("A2")},
                       surplus, avoid={2: "a"})
    t = start(4, figures_with("fig-b-wife"), 3, {0: deal_order(hands, 3, surplus)}, **mode)
    assert t.search() == 0
    t.play(*cards("A5 A7 C7 A2"))
    assert t.state.last_winner == 2 and t.state.turn().seats == (2,)
    assert t.state.view(None)["won"][2] == cards("A5 A7 C7 A2")


@pytest.mark.parametrize("mode", all_modes(3))
def test_t6_off_class_card_wins(mode) -> None:
    hands = fill_hands(3, {0: cards("C0 B3"), 1: cards("B4"), 2: cards("A9")}, avoid={2: "b"})
    t = start(3, figures_with("fig-c-wife"), 2, {0: deal_order(hands, 2)}, **mode)
    t.search()
    t.play(*cards("B3 B4 A9"))
    assert t.state.last_winner == 2


@pytest.mark.parametrize("mode", all_modes(2))
def test_t7_tie_at_zero(mode) -> None:
    hands = fill_hands(2, {0: cards("C0 C1 C2 C3 C4 C5 C6 C7 C8 C9"), 1: cards("A0")})
    t = start(2, figures_with("fig-c-child"), 1, {0: deal_order(hands, 1)}, **mode)
    assert t.search() == 0
    t.play(*cards("C0 A0"))
    assert t.state.last_winner == 1


T19_HANDS = [cards("A8 B3 B4 B8 C4 C9"), cards("A4 A9 B5 B6 C2 C3"), cards("A6 A7 B1 B2 C5 C6"),
             cards("A0 A2 A3 A5 B7 B9"), cards("A1 B0 C0 C1 C7 C8")]
T19_PLAYS = ["C1 C4 C2 C6 A5", "B2 B7 B0 B4 B6", "A0 A1 A8 A9 A6", "B5 B1 B9 C0 B3",
             "A3 C7 C9 A4 A7", "B8 C3 C5 A2 C8"]
T19_WINNERS = [2, 3, 1, 3, 0, 4]


@pytest.mark.parametrize("figure,winner", [("fig-b-wife", 3), ("fig-b-husband", 2), ("fig-b-child", 4)])
@pytest.mark.parametrize("mode", all_modes(5))
def test_t19_complete_five_player_round(mode, figure: str, winner: int) -> None:
    t = start(5, figures_with(figure), 0, {0: deal_order(T19_HANDS, 0)}, **mode)
    st = t.state
    assert t.search() == 4
    for plays, trick_winner in zip(T19_PLAYS, T19_WINNERS):
        t.play(*cards(plays))
        assert st.last_winner == trick_winner
    assert st.pending_claims() == []
    won = st.history[0]["won"]
    assert sorted(won[3]) == sorted(cards("B0 B1 B2 B3 B4 B5 B6 B7 B9 C0"))
    assert sorted(won[0]) == sorted(cards("A3 A4 A7 C7 C9"))
    assert st.history[0]["points"] == [0, 0, 0, 37, 8]
    assert st.history[0]["winner"] == winner
    assert st.dealer == winner  # T18: the figure's winner deals next
    assert st.view(None)["figures"][winner] == [figure]


T10_HANDS = [cards("B1 B3 B5 B7 B9 A9 C9"), cards("B0 B2 B4 B6 B8 A8 C8"),
             cards("A1 A2 A3 A4 A5 A6 A7"), cards("C1 C2 C3 C4 C5 C6 C7")]
T10_PLAYS = ["B0 A7 C7 B9", "B1 B8 A6 C6", "B6 A5 C5 B7", "B5 B4 A4 C4", "A9 A8 A3 C3",
             "C9 C8 A2 C2", "B3 B2 A1 C1"]


@pytest.mark.parametrize("mode", all_modes(4))
def test_t10_unbreakable_husband_tie_is_removed_and_dealer_stays(mode) -> None:
    surplus = cards("A0 C0")
    t = start(4, figures_with("fig-b-husband"), 2, {0: deal_order(T10_HANDS, 2, surplus)}, **mode)
    st = t.state
    assert t.search() == 1
    for plays in T10_PLAYS:
        t.play(*cards(plays))
    assert st.history[0]["points"] == [36, 9, 0, 0]
    assert st.history[0]["winner"] is None
    assert st.view(None)["removed"] == ["fig-b-husband"]
    assert st.dealer == 2 and st.history[-1]["dealer"] == 2


def test_t18_dealer_follows_figure_winners_over_a_game() -> None:
    t = start(4, figures_with("fig-a-wife"), 1, {})
    st = t.state
    while st.turn().kind is not TurnKind.OVER:
        t.search()
        play_round_out(t)
    rounds = st.history
    assert rounds[0]["dealer"] == 1
    for prev, cur in zip(rounds, rounds[1:]):
        expected = prev["dealer"] if prev["winner"] is None else prev["winner"]
        assert cur["dealer"] == expected


def t20_start(mode):
    hands = fill_hands(3, {0: cards("C0 A5"), 1: cards("A2 C4")}, avoid={1: "a"})
    t = start(3, figures_with("fig-c-wife"), 2, {0: deal_order(hands, 2)}, **mode)
    t.search()
    t.play(card("A5"))
    return t


def test_t20_false_not_following_caught_at_once_when_omniscient() -> None:
    t = t20_start({})
    with pytest.raises(IllegalMove) as exc:
        t.state.apply(1, Play(t.handle_of(1, card("C4")), card("C4")))
    assert exc.value.seat == 1


@pytest.mark.parametrize("mode", [{"viewer": 0}, {"viewer": 2}, {"viewer": None, "omniscient": False}])
def test_t20_false_not_following_caught_when_the_card_shows(mode) -> None:
    t = t20_start(mode)
    st = t.state
    t.play(card("C4"))  # accepted: a claim is recorded
    (claim,) = st.pending_claims()
    assert claim.seat == 1 and claim.kind == "void-in" and dict(claim.detail) == {"class": "a"}
    t.play(t.honest_card(2))
    while st.turn().seats[0] != 1:
        t.play(t.honest_card(st.turn().seats[0]))
    with pytest.raises(IllegalMove) as exc:
        t.play(card("A2"))
    assert exc.value.seat == 1 and exc.value.where == "round 1, trick 1"


def t21_hands():
    return fill_hands(3, {0: cards("C1"), 2: cards("C0")})


def test_t21_false_opener_claim_caught_at_once_when_omniscient() -> None:
    t = start(3, figures_with("fig-c-wife"), 2, {0: deal_order(t21_hands(), 2)})
    with pytest.raises(IllegalMove) as exc:
        t.search(liars={2})
    assert exc.value.seat == 2 and "num-c-0" in exc.value.reason


@pytest.mark.parametrize("mode", [{"viewer": 0}, {"viewer": 1}, {"viewer": None, "omniscient": False}])
def test_t21_false_opener_claim_caught_when_the_card_shows(mode) -> None:
    t = start(3, figures_with("fig-c-wife"), 2, {0: deal_order(t21_hands(), 2)}, **mode)
    st = t.state
    assert t.search(liars={2}) == 0
    assert st.view(None)["shown"] == "num-c-1"
    assert any(c.seat == 2 and c.kind == "not-holding" for c in st.pending_claims())
    with pytest.raises(IllegalMove) as exc:
        while True:
            seat = st.turn().seats[0]
            t.play("num-c-0" if seat == 2 else t.honest_card(seat))
    assert exc.value.seat == 2
    assert exc.value.where == "round 1, opener search for num-c-0"


def test_search_answers_must_come_in_clockwise_order() -> None:
    t = start(3, figures_with("fig-a-wife"), 0, {})
    st = t.state
    assert st.turn().kind is TurnKind.INTERRUPT and st.turn().seats == (1, 2, 0)
    with pytest.raises(NotYourTurn):
        st.apply(2, Pass())


def test_show_of_the_wrong_card_or_a_foreign_handle_is_illegal() -> None:
    hands = fill_hands(3, {0: cards("A0 A1")})
    t = start(3, figures_with("fig-a-wife"), 2, {0: deal_order(hands, 2)})
    st = t.state
    with pytest.raises(IllegalMove):
        st.apply(0, Show(t.handle_of(0, card("A1")), card("A1")))
    st2 = start(3, figures_with("fig-a-wife"), 2, {0: deal_order(hands, 2)}, viewer=1).state
    with pytest.raises(IllegalMove):
        st2.apply(0, Show(st2.hands[1][0], card("A0")))


def test_playing_a_foreign_handle_or_a_false_value_is_illegal() -> None:
    t = start(3, figures_with("fig-a-wife"), 2, {})
    t.search()
    st = t.state
    seat = st.turn().seats[0]
    other = st.hands[(seat + 1) % 3][0]
    with pytest.raises(IllegalMove):
        st.apply(seat, Play(other, t.truth[other]))
    mine = st.hands[seat][0]
    wrong = next(c for c in (card("A9"), card("B9")) if c != t.truth[mine])
    with pytest.raises(IllegalMove):
        st.apply(seat, Play(mine, wrong))


def test_moves_round_trip_through_json() -> None:
    st = create("sinople", 3)
    for move in (Play(4, "num-a-3"), Show(7, "num-b-0"), Pass()):
        assert st.move_from_json(move.to_json()) == move


def test_view_shows_only_own_hand() -> None:
    import json

    t = start(4, figures_with("fig-a-wife"), 0, {})
    t.search()
    st = t.state
    for seat in range(4):
        text = json.dumps(st.view(seat))
        assert sorted(st.view(seat)["hand"]) == sorted(t.truth[h] for h in st.hands[seat])
        shown = st.view(None)["shown"]
        for other in range(4):
            if other != seat:
                assert all(t.truth[h] not in text for h in st.hands[other] if t.truth[h] != shown)
    assert "hand" not in st.view(None)


def test_bad_configuration() -> None:
    from p2ptarot.engine import BadConfiguration

    with pytest.raises(BadConfiguration):
        create("sinople", 6)
    with pytest.raises(BadConfiguration):
        create("sinople", 3, options={"x": 1})
    assert HAND_SIZE[5] == 6
