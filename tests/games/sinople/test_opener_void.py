"""Ruling S2 (revised): an opener search in which every seat passes every value proves only that
someone lied. The engine blames nobody then (the old engine blamed the last seat to pass, often an
honest dealer); it stops the game and lets the audit name every seat that denied a card it held."""

from __future__ import annotations

import pytest
from .support import cards, deal_order, figures_with, fill_hands, start

from p2ptarot.engine import IllegalMove, TurnKind

DEALER = 0  # honest, answers last (order 1, 2, 0), holds no class-A card
LIARS = {1, 2}


def _hands() -> list[list[str]]:
    return fill_hands(3, {1: cards("A0 A2 A4 A6 A8"), 2: cards("A1 A3 A5 A7 A9")}, avoid={0: "a"})


@pytest.mark.parametrize("mode", [{"viewer": 0}, {"viewer": None, "omniscient": False}])
def test_a_search_denied_by_colluding_liars_is_decided_at_the_audit(mode) -> None:
    t = start(3, figures_with("fig-a-wife"), DEALER, {0: deal_order(_hands(), DEALER)}, **mode)
    st = t.state
    assert st.turn().seats == (1, 2, 0)
    t.search(liars=LIARS)  # the honest dealer passes last at value 9: nobody is blamed yet
    assert st.view(None)["phase"] == "void"
    assert st.turn().kind is TurnKind.OVER and st.outcome() is None
    with pytest.raises(IllegalMove) as exc:  # the audit opens every hand
        for h in sorted(t.truth):
            if st.cards[h] is None:
                st.learn(h, t.truth[h])
    liar, other = exc.value.seat, (LIARS - {exc.value.seat}).pop()
    assert liar in LIARS and "denied holding num-a-" in exc.value.reason
    assert f"seat(s) {other} also denied" in exc.value.reason
    assert exc.value.where.startswith("round 1, opener search for num-a-")


def test_the_omniscient_state_still_catches_the_first_lie_at_once() -> None:
    t = start(3, figures_with("fig-a-wife"), DEALER, {0: deal_order(_hands(), DEALER)})
    with pytest.raises(IllegalMove) as exc:
        t.search(liars=LIARS)
    assert exc.value.seat == 1 and "num-a-0" in exc.value.reason
