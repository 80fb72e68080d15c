"""NASSAU (rules §8.2): N1–N3 and rulings A81, A82."""

from __future__ import annotations

from p2ptarot.cards.arcanoid_tables import EMPEROR, EMPRESS, JUDGEMENT, TEMPERANCE, TOWER, WORLD
from p2ptarot.games.arcanoid.moves import Vote, Abdicate, Judgement, Temperance, Tower, World
from p2ptarot.games.arcanoid.battle import ABDICATION, JUDGED
from p2ptarot.games.arcanoid.variants.nassau import RemoveTemperance

from .support import P1, P2, P3, P4, eng, engage_move, idle, refused, vtable


def _tempered(variant: str = "NASSAU", **kw):
    t = vtable(variant, {P1: [TEMPERANCE, "coins-9", WORLD, EMPRESS, EMPEROR],
                         P2: ["coins-8", JUDGEMENT, TOWER]}, **kw)
    t.do(P1, Temperance(t.h(TEMPERANCE), TEMPERANCE, "coins"))
    return t


def test_n1_nobody_engages_on_the_tempered_field_owner_included() -> None:
    t = _tempered()
    idle(t), idle(t), idle(t)  # back to P1
    assert "tempered" in refused(t, P1, engage_move(t, ("coins",), "coins-9"))
    assert refused(t, P1, World(t.h(WORLD), WORLD, "coins"))
    assert "tempered" in refused(t, P1, engage_move(t, ("cups", "coins"), EMPRESS, EMPEROR))
    t.do(P1, Abdicate("cups"))  # not the tempered field
    assert "tempered" in refused(t, P2, engage_move(t, ("coins",), "coins-8"))


def test_n1_dresden_owner_may_engage_there() -> None:
    t = _tempered("DRESDEN")
    idle(t), idle(t), idle(t)
    eng(t, P1, ("coins",), "coins-9")
    assert t.state.temperance is None  # DRESDEN: the owner's engagement ends it


def test_a82_abdication_judgement_tower_stay_allowed() -> None:
    t = _tempered()
    t.do(P2, Judgement(t.h(JUDGEMENT), JUDGEMENT, P3, "coins"))
    assert t.state.parts[P3].records["coins"].kind == JUDGED
    t.do(P3, Abdicate("cups"))
    t.do(P4, Abdicate("coins"))
    assert t.state.parts[P4].records["coins"].kind == ABDICATION
    assert t.state.temperance is not None


def test_n2_remove_temperance_is_the_owners_whole_move() -> None:
    t = _tempered()
    st = t.state
    assert "owner" in refused(t, P2, RemoveTemperance())  # P2's turn, not the owner
    idle(t), idle(t), idle(t)
    hand_before = list(st.parts[P1].hand)
    pile_before = len(st.pile)
    assert RemoveTemperance() in st.legal_moves(P1)
    t.do(P1, RemoveTemperance())
    assert st.temperance is None
    assert st.parts[P1].hand == hand_before and len(st.pile) == pile_before  # nothing drawn
    assert st.turn().seats == (P2,)
    assert "owner" in refused(t, P2, RemoveTemperance())  # no Temperance any more


def test_n2_owner_engagement_elsewhere_keeps_it() -> None:
    t = _tempered()
    idle(t), idle(t), idle(t)
    eng(t, P1, ("cups",), EMPRESS, EMPEROR)
    assert t.state.temperance is not None and t.state.temperance.field == "coins"


def test_n3_a81_ends_when_the_pile_dies() -> None:
    t = _tempered()
    st = t.state
    while len(st.pile) > 1:  # leave one card: P2's refill draws it
        st.discard.append(st.pile.pop())
    t.do(P2, Abdicate("cups"))  # no refill needed, the pile keeps its last card
    assert st.temperance is not None
    idle(t)  # P3 discards and draws the last card: the renewal vote
    assert st.ctx().name == "vote"
    t.do(P1, Vote("yes")), t.do(P2, Vote("no")), t.do(P3, Vote("yes")), t.do(P4, Vote("yes"))
    assert not st.pile and st.renewal_refused and st.temperance is None


def test_a82_temperance_ends_when_its_owner_finishes() -> None:
    t = _tempered()
    st = t.state
    idle(t), idle(t), idle(t)
    for f in ("swords", "wands", "cups"):
        t.do(P1, Abdicate(f))
        idle(t), idle(t), idle(t)
    t.do(P1, Abdicate("coins"))  # abdication on the tempered field: allowed, and P1 finishes
    assert st.parts[P1].finished and st.temperance is None
