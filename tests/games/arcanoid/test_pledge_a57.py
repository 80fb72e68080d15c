"""Ruling A57 on `[0-8-9]`: a Hermit owner cutting in *first* for the Justice's Fool pledges the
gap right after the current turn (before the next player's normal turn), even when that next
player is not asked because it is already engaged on the field."""

from __future__ import annotations

from p2ptarot.cards.arcanoid_tables import FOOL, HERMIT, JUSTICE
from p2ptarot.engine import Pass
from p2ptarot.games.arcanoid.moves import Fool, Play

from .test_arcana import P1, P2, P3, P4, eng, idle, pass_windows, table


def _p2_engages_while_p3_is_not_asked():
    t = table({P1: [JUSTICE, HERMIT], P2: ["swords-3"], P3: ["swords-4"]}, pile=("coins-2", FOOL))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    assert FOOL in [st.cards[x] for x in st.justice]
    t.do(P1, Play(t.h(HERMIT), HERMIT))  # the Justice's replay
    pass_windows(t)
    idle(t)  # P2
    eng(t, P3, ("swords",), "swords-4")
    pass_windows(t)
    idle(t)  # P4
    idle(t)  # P1
    eng(t, P2, ("swords",), "swords-3")
    return t


def test_cutting_in_first_pledges_the_gap_before_the_next_player() -> None:
    t = _p2_engages_while_p3_is_not_asked()
    st = t.state
    assert st.ctx().data["asked"] == [P4, P1]  # P3 is engaged on swords: not asked
    t.do(P1, Fool(t.h(FOOL), FOOL, P1, P4))  # P1 cuts in before P4 was asked: "first"
    assert "swords" in st.parts[P1].records and "swords" not in st.parts[P2].records
    # due in the gap right after P2's turn, before P3's normal turn: P1 must move now
    assert st.ctx().name == "turn" and st.ctx().actor == P1
    assert st.hermit.used == 1 and not st.hermit.pledges and st.hermit.free == 2
    idle(t)
    pass_windows(t)
    assert st.ctx().actor == P3


def test_cutting_in_last_pledges_the_gap_before_the_engager() -> None:
    t = _p2_engages_while_p3_is_not_asked()
    st = t.state
    t.do(P4, Pass())
    t.do(P1, Fool(t.h(FOOL), FOOL, P1, P2))  # P1 cuts in last: before the engager's next turn
    assert "swords" in st.parts[P1].records and st.hermit.pledges == [P2]
    pass_windows(t)  # not due yet: P1 declines its voluntary Hermit offer
    assert st.ctx().name == "turn" and st.ctx().actor == P3
    for expected in (P3, P4, P1):
        assert idle(t) == expected
    assert st.ctx().name == "turn" and st.ctx().actor == P1  # the pledged move, before P2
    assert st.hermit.used == 1 and not st.hermit.pledges
