"""A wager must name a card dealt to that player and not yet played (§3.9); anything else blames
the player at once, in every knowledge mode. Eliminated players may not act."""

from __future__ import annotations

import pytest

from p2ptarot.engine import IllegalMove, NotYourTurn
from p2ptarot.games.paris_divins.moves import Wager

from .support import PD_T3_HANDS, PD_T3_ROUNDS, Game, fill

MODES = [{"viewer": 0}, {"viewer": 1}, {"viewer": None, "omniscient": False}]


def test_a_wager_on_a_card_not_in_hand_is_refused_everywhere() -> None:
    g = Game(fill([["minor-cup-5"], ["divine-1"], ["world"]]), modes=MODES)
    other = g.wager(1, "divine-1", "minor").handle
    undealt = g.truth.handles[-1]
    for st in g.all():
        for bad in (Wager(other, "minor"), Wager(undealt, "minor"), Wager(10_000, "minor"), Wager(-1, "minor")):
            with pytest.raises(IllegalMove) as exc:
                st.apply(0, bad)
            assert exc.value.seat == 0
        with pytest.raises(IllegalMove):
            st.apply(0, Wager(g.wager(0, "minor-cup-5", "minor").handle, "rose"))


def test_a_played_card_cannot_be_played_again_nor_a_seat_choose_twice() -> None:
    g = Game(fill([["minor-cup-5"], ["divine-1"], ["world"]]), modes=MODES)
    first = g.wager(0, "minor-cup-5", "minor")
    for st in g.all():
        trial = st.clone()
        trial.apply(0, first)
        with pytest.raises(IllegalMove) as exc:
            trial.apply(0, g.wager(0, g.truth.cards[g.truth.hands[0][1]], "major"))
        assert exc.value.seat == 0 and "already chosen" in exc.value.reason
    g.round({0: ("minor-cup-5", "minor"), 1: ("divine-1", "divine"), 2: ("world", "major")})
    for st in g.all():
        with pytest.raises(IllegalMove) as exc:
            st.apply(0, first)
        assert exc.value.seat == 0 and "still to play" in exc.value.reason


def test_an_eliminated_player_may_not_act() -> None:
    g = Game([h.split() for h in PD_T3_HANDS], modes=MODES)
    for _, choices, *_ in PD_T3_ROUNDS[:5]:
        g.round(choices)
    for st in g.all():
        assert st.eliminated == [0] and st.turn().seats == (1, 2)
        assert st.legal_moves(0) == []
        with pytest.raises(NotYourTurn):
            st.apply(0, g.wager(0, "divine-8", "divine"))
