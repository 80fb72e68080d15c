"""Stacked deals through the state machine in every knowledge mode: dealing, who leads, excused
cards kept by their players, claims recorded where a hand is hidden, the set-aside card."""

from __future__ import annotations

import pytest

from p2ptarot.engine import BadConfiguration, TurnKind, create
from p2ptarot.cards.roses_tables import INDEX, POINTS

from .support import Deal, fill_hands

MODES4 = [{"viewer": s} for s in range(4)] + [{"viewer": None, "omniscient": False}]


def test_tr_t3_the_excused_world_stays_with_its_player() -> None:
    hands = fill_hands(4, {0: ["major-nature-3"], 1: ["world"], 2: ["major-concept-1"], 3: ["minor-staff-2"]},
                       avoid={3: {"major"}})
    d = Deal(hands, dealer=3, modes=MODES4)
    assert d.truth.turn().seats == (0,)  # TR17: the player after the dealer leads
    d.play("major-nature-3", "world", "major-concept-1", "minor-staff-2")
    for st in [d.truth, *d.states]:
        assert st.last_winner == 2 and st.last_excused == [1]
        assert st.won[1] == [INDEX["world"]]
        assert sorted(st.won[2]) == sorted(INDEX[c] for c in ("major-nature-3", "major-concept-1", "minor-staff-2"))
        assert st.turn().seats == (2,)  # the winner leads
    # seat 3's discard on a major demand says "I hold no major": a claim only where its hand is hidden
    for st in d.states:
        kinds = [(c.seat, c.kind) for c in st.pending_claims()]
        assert kinds == ([] if st.viewer == 3 else [(3, "no-major")])
    assert d.truth.pending_claims() == []


def test_tr_t5_a_lone_divine_facing_a_major_is_excused() -> None:
    hands = fill_hands(4, {0: ["minor-mask-2"], 1: ["divine-4"], 2: ["major-nature-1"], 3: ["minor-mask-god"]},
                       avoid={2: {"mask"}})
    d = Deal(hands, dealer=3, modes=MODES4)
    d.play("minor-mask-2", "divine-4", "major-nature-1", "minor-mask-god")
    for st in [d.truth, *d.states]:
        assert st.last_winner == 2 and st.last_excused == [1]
        assert st.won[1] == [INDEX["divine-4"]]
        assert st.deal_points()[2] == 6 and st.deal_points()[1] == 4
        assert st.view(None)["points"] == [0, 4, 6, 0]


def test_tr_l2_legal_moves_come_from_the_seats_own_view() -> None:
    hands = fill_hands(4, {0: ["minor-cup-1"], 1: ["major-role-5"],
                           2: ["major-nature-2", "major-concept-3", "world", "minor-star-1"]},
                       avoid={1: {"cup"}, 2: {"cup"}})
    d = Deal(hands, dealer=3, modes=MODES4)
    d.play("minor-cup-1", "major-role-5")
    truth_legal = d.legal()
    assert "major-nature-2" not in truth_legal and "minor-star-1" not in truth_legal
    assert {"major-concept-3", "world"} <= set(truth_legal)
    own = next(s for s in d.states if s.viewer == 2)
    assert d.legal(own) == truth_legal
    for st in d.states:
        if st.viewer != 2:  # another seat's hand is hidden: it knows no card to play for seat 2
            assert st.legal_moves(2) == []


def test_five_players_the_surplus_card_is_never_shown_nor_scored() -> None:
    order_surplus = ["rose-upright"]
    hands = fill_hands(5, {}, surplus=order_surplus)
    d = Deal(hands, dealer=0, surplus=order_surplus,
             modes=[{"viewer": s} for s in range(5)] + [{"viewer": None, "omniscient": False}])
    surplus = d.truth.surplus
    assert len(surplus) == 1 and d.truth.cards[surplus[0]] == "rose-upright"
    for st in d.states:
        assert st.cards[surplus[0]] is None
    while d.truth.turn().kind is TurnKind.SEAT:
        d.play(d.legal()[0])
    assert d.truth.turn().kind is TurnKind.OVER
    for st in [d.truth, *d.states]:
        assert st.outcome() == d.truth.outcome()
        assert sum(st.history[0]["points"]) == 165 - POINTS[INDEX["rose-upright"]]
        assert sum(st.history[0]["roses"]) == 2
        assert st.pending_claims() == []
        assert "rose-upright" not in str(st.view(st.viewer))
    for st in d.states:  # still hidden after the deal: only the audit opens it
        assert st.cards[surplus[0]] is None


@pytest.mark.parametrize("players", [2, 6])
def test_player_count_is_checked(players: int) -> None:
    with pytest.raises(BadConfiguration):
        create("trois-roses", players)


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(BadConfiguration):
        create("trois-roses", 4, "no-such-variant")
