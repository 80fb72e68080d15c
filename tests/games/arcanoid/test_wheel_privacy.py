"""The Wheel's discards stay face down (issue 9, defect 6): a discard that promotes nothing must
not ask the table to open the discarded cards (the old `promote or handles` fallback did)."""

from __future__ import annotations

from p2ptarot.cards.arcanoid_tables import JUSTICE, STRENGTH, WHEEL
from p2ptarot.engine import PUBLIC
from p2ptarot.games.arcanoid.moves import Play, Strength, WheelDiscard

from .test_arcana import P1, P2, idle, table


def test_discard_without_promotion_reveals_nothing() -> None:
    t = table({P1: [JUSTICE]}, pile=("coins-2", WHEEL))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    idle(t)
    t.do(P2, Play(t.h(WHEEL), WHEEL))
    discards = tuple(st.parts[P2].hand[:4])
    move = WheelDiscard(discards)
    assert st.move_reveals(P2, move) == ()
    t.do(P2, move)
    assert all(PUBLIC not in st.seen[h] for h in discards)


def test_promotion_reveals_only_the_promoted_card() -> None:
    t = table({P1: [STRENGTH]}, pile=("coins-2", WHEEL, "coins-3"))
    st = t.state
    t.do(P1, Strength(t.h(STRENGTH), STRENGTH, "visible"))
    p = st.parts[P1]
    for _ in range(3):
        idle(t)
    t.do(P1, Play(t.h(WHEEL), WHEEL))
    promote = next(x for x in st.ctx().data["new"] if x in p.hand)
    discards = (p.visible[-1],) + tuple(x for x in p.hand if x != promote)[:3]
    move = WheelDiscard(discards, (promote,), (st.cards[promote],))
    assert [r.handle for r in st.move_reveals(P1, move)] == [promote]
    hidden = [h for h in discards if PUBLIC not in st.seen[h]]
    t.do(P1, move)
    assert all(PUBLIC not in st.seen[h] for h in hidden)
