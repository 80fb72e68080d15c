"""More advanced-note interactions: votes inside effects (A7), refill order `[8]`/`[11-12]`,
steals that finish the thief (A30), a demon outliving its master (A49)."""

from __future__ import annotations

from p2ptarot.cards.arcanoid_tables import DEVIL, FOOL, HANGED_MAN, JUSTICE, STRENGTH
from p2ptarot.engine import PUBLIC, TurnKind
from p2ptarot.games.arcanoid.moves import Discard, Engage, Fool, HangedMan, Play, Strength, Vote
from p2ptarot.games.arcanoid.battle import Record

from .test_arcana import P1, P2, P3, P4, idle, pass_windows, table


def test_vote_interrupts_the_justice_draw_and_it_resumes() -> None:
    """A7: the pile empties after 2 of the Justice's 6 cards; all vote yes; the draw resumes."""
    t = table({P1: [JUSTICE]})
    st = t.state
    st.discard.extend(st.pile[2:])
    del st.pile[2:]
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    assert st.turn().kind is TurnKind.SIMULTANEOUS and len(st.justice) == 2
    for s in (P1, P2, P3, P4):
        t.do(s, Vote("yes"))
    assert len(st.justice) == 6 and len(st.parts[P1].hand) == 6
    assert st.ctx().actor == P1  # the replay


def test_vote_refused_inside_justice_draw_leaves_it_short() -> None:
    t = table({P1: [JUSTICE]})
    st = t.state
    st.discard.extend(st.pile[3:])
    del st.pile[3:]
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    for s in (P1, P2, P3, P4):
        t.do(s, Vote("no" if s == P4 else "yes"))
    assert len(st.justice) == 3 and len(st.parts[P1].hand) == 5 and st.renewal_refused


def test_justice_refills_before_hands_when_pile_is_short() -> None:
    """[8]: a move taking cards from both the Justice and the hand refills the Justice first."""
    t = table({P1: [JUSTICE], P2: ["coins-4"]}, pile=tuple(f"cups-{r}" for r in range(2, 9)) + ("coins-5",))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    idle(t)
    assert "coins-5" in [st.cards[x] for x in st.justice]
    st.discard.extend(st.pile[1:])
    del st.pile[1:]  # a single card left
    t.state.renewal_refused = True
    t.do(P2, Engage(("coins",), (t.h("coins-4"), t.h("coins-5")), ("coins-4", "coins-5")))
    pass_windows(t)
    assert len(st.justice) == 6 and len(st.parts[P2].hand) == 5


def test_hanged_man_on_strength_owner_redraws_visible_first() -> None:
    """[11-12]: visible and hidden extras are discarded; visible slots are refilled first."""
    t = table({P1: [STRENGTH], P2: [HANGED_MAN]})
    st = t.state
    t.do(P1, Strength(t.h(STRENGTH), STRENGTH, "visible"))
    old = list(st.parts[P1].hand + st.parts[P1].visible)
    top = st.pile[:2]
    t.do(P2, HangedMan(t.h(HANGED_MAN), HANGED_MAN, P1))
    p = st.parts[P1]
    assert all(x in st.discard for x in old)
    assert p.visible == top and all(PUBLIC in st.seen[x] for x in p.visible) and len(p.hand) == 6


def test_steal_completing_the_thiefs_last_field_finishes_it() -> None:
    """A30: the thief finishes at once and draws nothing; the victim does not finish."""
    t = table({P1: ["swords-3"], P3: [FOOL]})
    st = t.state
    for f in ("wands", "cups", "coins"):
        st.parts[P3].records[f] = Record(P3, f, "abdication", 0)
        st.parts[P1].records[f] = Record(P1, f, "abdication", 0)
    t.do(P1, Engage(("swords",), (t.h("swords-3"),), ("swords-3",)))
    t.do(P3, Fool(t.h(FOOL), FOOL, P3))
    pass_windows(t)
    assert st.parts[P3].finished and not st.parts[P3].hand
    assert not st.parts[P1].finished and len(st.parts[P1].hand) == 6


def test_demon_plays_on_after_its_master_finishes() -> None:
    """A49: the master's seat still decides the demon's moves; its wins go to the master."""
    t = table({P1: [DEVIL]}, n=2)
    st = t.state
    t.do(P1, Play(t.h(DEVIL), DEVIL))
    for f in ("swords", "wands", "cups"):
        st.parts[P1].records[f] = Record(P1, f, "abdication", 0)
    idle(t)  # P2
    assert st.ctx().actor == 2
    t.do(P1, Discard(st.parts[2].hand[0]))  # the demon's turn, decided by seat 0
    from p2ptarot.games.arcanoid.moves import Abdicate
    t.do(P1, Abdicate("coins"))  # P1's own turn: it finishes
    assert st.parts[P1].finished and not st.parts[2].finished
    idle(t)  # P2
    assert st.ctx().actor == 2 and st.turn().seats == (P1,)


def test_waiting_demon_plays_when_everyone_else_has_finished() -> None:
    """A48 corner: the World (in a Hermit move) finishes both players right after the Devil;
    the demon, still waiting for its first turn, is the only one left and must play."""
    from p2ptarot.engine import Pass
    from p2ptarot.cards.arcanoid_tables import HERMIT, WORLD
    from p2ptarot.games.arcanoid.moves import HermitMove, World

    t = table({P1: [HERMIT, DEVIL, WORLD]}, n=2)
    st = t.state
    for pid in (P1, P2):
        for f in ("swords", "wands", "cups"):
            st.parts[pid].records[f] = Record(pid, f, "abdication", 0)
            st.ever_engaged.add(f)
    t.do(P1, Play(t.h(HERMIT), HERMIT))
    t.do(P1, Pass())
    idle(t)  # P2
    t.do(P1, Play(t.h(DEVIL), DEVIL))
    t.do(P1, HermitMove())
    t.do(P1, World(t.h(WORLD), WORLD, "coins"))
    assert st.parts[P1].finished and st.parts[P2].finished and not st.parts[2].finished
    assert st.ctx().name == "turn" and st.ctx().actor == 2 and st.turn().seats == (P1,)
