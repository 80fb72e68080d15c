"""Procedural test cases F1–F14 of rules §7.1 (four players P1–P4 = seats 0–3, P1 starts)."""

from __future__ import annotations

import pytest

from p2ptarot.cards.arcanoid_tables import (DEATH, DEVIL, FOOL, HERMIT, JUDGEMENT, JUSTICE, PRIESTESS, STAR,
                                            TEMPERANCE, TOWER, WHEEL, WORLD)
from p2ptarot.engine import IllegalMove, Pass, TurnKind
from p2ptarot.games.arcanoid.moves import (Abdicate, Call, Discard, Engage, Fool, HermitMove,
                                           Judgement, Play, Priestess, Temperance, Tower, Vote,
                                           WheelDiscard, World)
from p2ptarot.games.arcanoid.battle import FORCED, JUDGED

from .support import Table, filler

P1, P2, P3, P4 = 0, 1, 2, 3


def hands_with(special: dict[int, list[str]], n: int = 4, pile: tuple[str, ...] = ()) -> list[list[str]]:
    taken = [c for cs in special.values() for c in cs] + list(pile)
    base = filler(n, exclude=taken)
    out = []
    for i in range(n):
        extra = special.get(i, [])
        out.append(extra + [c for c in base[i] if c not in extra][: 6 - len(extra)])
    return out


def pass_window(t: Table) -> None:
    """Everyone asked in an interrupt window passes."""
    st = t.state
    while st.turn().kind is TurnKind.INTERRUPT:
        seat = next(x for x in st.turn().seats if x not in st.ctx().answers)
        t.do(seat, Pass())


def refuse(t: Table, seat: int, move) -> None:
    """The pure move check (no state change)."""
    t.state.check(seat, move)


def engage(t: Table, seat: int, field: str, *cards: str, transmute: str | None = None) -> None:
    t.do(seat, Engage((field,), tuple(t.h(c) for c in cards), cards,
                      t.h(transmute) if transmute else -1))


def test_f1_fool_steal() -> None:
    hands = hands_with({P1: ["swords-3", "swords-5"], P3: [FOOL]})
    t = Table(hands)
    engage(t, P1, "swords", "swords-3", "swords-5")
    assert t.turn() == ("interrupt", (P2, P3, P4))
    t.do(P2, Pass())
    t.do(P3, Fool(t.h(FOOL), FOOL, P3))
    st = t.state
    assert "swords" not in st.parts[P1].records
    assert st.parts[P3].records["swords"].cards == ("swords-3", "swords-5")
    assert len(st.parts[P1].hand) == 6 and len(st.parts[P3].hand) == 6
    assert t.turn() == ("seat", (P2,))


def test_f1_refill_order_victim_before_thief() -> None:
    pile = ("cups-2", "cups-3", "cups-4")
    t = Table(hands_with({P1: ["swords-3", "swords-5"], P3: [FOOL]}, pile=pile), pile=pile)
    engage(t, P1, "swords", "swords-3", "swords-5")
    t.do(P2, Pass())
    t.do(P3, Fool(t.h(FOOL), FOOL, P3))
    t.do(P4, Pass()) if t.turn()[0] == "interrupt" else None
    assert {"cups-2", "cups-3"} <= set(t.hand(P1)) and "cups-4" in t.hand(P3)


def test_f2_ace_protects_from_fool() -> None:
    t = Table(hands_with({P1: ["swords-1", "swords-9"], P3: [FOOL]}))
    engage(t, P1, "swords", "swords-1", "swords-9")
    assert t.turn() == ("seat", (P2,))  # no window


@pytest.mark.parametrize("renew", [True, False])
def test_f3_renewal_vote_then_reveal(renew: bool) -> None:
    t = Table(hands_with({P2: ["cups-2", "cups-3", "cups-4"]}))
    st = t.state
    st.discard.extend(st.pile[2:4])  # two cards in the discard pile, two left in the pile
    del st.pile[2:]
    t.do(P1, Discard(st.parts[P1].hand[0]))  # P1 draws; one card left
    assert len(st.pile) == 1
    engage(t, P2, "cups", "cups-2", "cups-3", "cups-4")
    pass_window(t)
    assert st.turn().kind is TurnKind.SIMULTANEOUS and st.turn().seats == (P2, P3, P4, P1)
    drawn = st.parts[P2].hand[-1]
    assert P2 not in st.seen[drawn], "P2 votes before seeing its new card"
    for s in (P2, P3, P4, P1):
        t.do(s, Vote("no" if (s == P3 and not renew) else "yes"))
    assert P2 in st.seen[drawn]
    if renew:
        assert len(st.parts[P2].hand) == 6 and not st.renewal_refused
    else:
        assert len(st.parts[P2].hand) == 4 and st.renewal_refused and not st.pile
        t.do(P3, Discard(st.parts[P3].hand[0]))  # no vote ever again this round
        assert st.turn().kind is TurnKind.SEAT


def test_f4_temperance_blocks_others_and_owner_lifts_it() -> None:
    hands = hands_with({P1: [TEMPERANCE, "cups-4"], P2: ["cups-9"]})
    t = Table(hands)
    t.do(P1, Temperance(t.h(TEMPERANCE), TEMPERANCE, "cups"))
    with pytest.raises(IllegalMove):
        refuse(t, P2, Engage(("cups",), (t.h("cups-9"),), ("cups-9",)))
    t.do(P2, Abdicate("cups"))
    t.do(P3, Discard(t.state.parts[P3].hand[0]))
    t.do(P4, Discard(t.state.parts[P4].hand[0]))
    engage(t, P1, "cups", "cups-4")
    assert t.state.temperance is None


def test_f5_justice_then_devil() -> None:
    hands = hands_with({P1: [JUSTICE], P3: [DEVIL]})
    t = Table(hands)
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    assert len(st.justice) == 6 and all(st.public_card(x) for x in st.justice)
    assert len(st.parts[P1].hand) == 6
    assert t.turn() == ("seat", (P1,))  # replay
    t.do(P1, Discard(st.parts[P1].hand[0]))
    t.do(P2, Discard(st.parts[P2].hand[0]))
    justice_cards = list(st.justice)
    t.do(P3, Play(t.h(DEVIL), DEVIL))
    demon = st.parts[4]
    assert demon.demon and demon.seat == P3 and demon.hand == justice_cards
    assert st.justice_card == -1 and st.order == [0, 1, 4, 2, 3]
    # turns: P4, P1, P2, then the demon (its master's seat decides), then P3
    seen = []
    for _ in range(5):
        ctx = st.ctx()
        seen.append(ctx.actor)
        t.do(st.seat_of(ctx.actor), Discard(st.available(ctx.actor)[0]))
    assert seen == [P4, P1, P2, 4, P3]


def test_f6_world_forces_abdications_and_finishes() -> None:
    hands = hands_with({P2: [WORLD]})
    t = Table(hands)
    st = t.state
    for f in ("swords", "wands", "cups"):
        st.parts[P4].records[f] = __import__(
            "p2ptarot.games.arcanoid.battle", fromlist=["Record"]).Record(P4, f, "abdication", 0)
    t.do(P1, Discard(st.parts[P1].hand[0]))
    t.do(P2, World(t.h(WORLD), WORLD, "coins"))
    assert [st.parts[q].records["coins"].kind for q in (P1, P3, P4)] == [FORCED] * 3
    assert len({st.parts[q].records["coins"].timestamp for q in range(4)}) == 1
    assert st.parts[P4].finished and not st.parts[P4].hand


def test_f7_hermit_moves_after_any_turn() -> None:
    t = Table(hands_with({P2: [HERMIT]}))
    st = t.state
    t.do(P1, Discard(st.parts[P1].hand[0]))
    t.do(P2, Play(t.h(HERMIT), HERMIT))
    assert len(st.parts[P2].hand) == 6
    assert t.turn() == ("seat", (P2,)) and st.ctx().name == "hermit"
    t.do(P2, Pass())
    t.do(P3, Discard(st.parts[P3].hand[0]))
    t.do(P2, HermitMove())
    t.do(P2, Discard(st.parts[P2].hand[0]))
    t.do(P2, HermitMove())
    t.do(P2, Discard(st.parts[P2].hand[0]))
    t.do(P2, Pass())
    assert st.ctx().actor == P4 and st.hermit is not None and st.hermit.free == 1


def test_f8_no_hermit_move_between_move_and_replay() -> None:
    t = Table(hands_with({P1: [PRIESTESS], P2: [HERMIT]}))
    st = t.state
    t.do(P1, Discard(st.parts[P1].hand[1]))
    t.do(P2, Play(t.h(HERMIT), HERMIT))
    t.do(P2, Pass())
    t.do(P3, Discard(st.parts[P3].hand[0]))
    t.do(P2, Pass())
    t.do(P4, Discard(st.parts[P4].hand[0]))
    t.do(P2, Pass())
    t.do(P1, Priestess(t.h(PRIESTESS), PRIESTESS, P3))
    assert all(P1 in st.seen[x] for x in st.parts[P3].hand)
    assert st.ctx().name == "turn" and st.ctx().actor == P1  # the replay, no Hermit window
    t.do(P1, Discard(st.parts[P1].hand[0]))
    assert st.ctx().name == "hermit"


def test_f9_wheel() -> None:
    t = Table(hands_with({P1: [WHEEL]}))
    st = t.state
    t.do(P1, Play(t.h(WHEEL), WHEEL))
    assert len(st.parts[P1].hand) == 10 and st.ctx().name == "wheel"
    t.do(P1, WheelDiscard(tuple(st.parts[P1].hand[:4])))
    assert len(st.parts[P1].hand) == 6 and st.ctx().actor == P2


def test_f10_star_call_success_and_failure() -> None:
    t = Table(hands_with({P1: [STAR], P4: ["cups-queen"]}))
    st = t.state
    t.do(P1, Call(t.h(STAR), STAR, "cups-queen"))
    assert st.turn().kind is TurnKind.INTERRUPT and st.turn().seats == (P1, P2, P3, P4)
    for s in (P1, P2, P3):
        t.do(s, Pass())
    from p2ptarot.games.arcanoid.moves import Give
    t.do(P4, Give(t.h("cups-queen"), "cups-queen"))
    assert "cups-queen" in t.hand(P1) and len(st.parts[P1].hand) == 6
    assert len(st.parts[P4].hand) == 6
    assert {c.seat for c in st.claim_log if c.kind == "not-held"} == {P1, P2, P3}


def test_f11_death() -> None:
    t = Table(hands_with({P1: [DEATH, TEMPERANCE]}))
    st = t.state
    t.do(P1, Temperance(t.h(TEMPERANCE), TEMPERANCE, "cups"))
    for s in (P2, P3, P4):
        t.do(s, Discard(st.parts[s].hand[0]))
    pile = len(st.pile)
    t.do(P1, Play(t.h(DEATH), DEATH))
    assert not st.pile and len(st.discard) >= pile and st.temperance is None
    assert len(st.parts[P1].hand) == 5
    t.do(P2, Discard(st.parts[P2].hand[0]))  # no vote: the pile is dead
    assert st.turn().kind is TurnKind.SEAT


def test_f12_judgement_finishes_target() -> None:
    t = Table(hands_with({P1: [JUDGEMENT]}))
    st = t.state
    from p2ptarot.games.arcanoid.battle import Record
    for f in ("swords", "wands", "cups"):
        st.parts[P4].records[f] = Record(P4, f, "abdication", 0)
    t.do(P1, Judgement(t.h(JUDGEMENT), JUDGEMENT, P4, "coins"))
    rec = st.parts[P4].records["coins"]
    assert rec.kind == JUDGED and rec.timestamp == st.clock
    assert st.parts[P4].finished and len(st.parts[P1].hand) == 6


def test_f13_tower_only_on_participants_in_round() -> None:
    t = Table(hands_with({P2: [TOWER], P1: ["wands-2"], P3: ["wands-3"]}))
    st = t.state
    engage(t, P1, "wands", "wands-2")
    pass_window(t)
    st.parts[P1].finished = True  # P1 has left the round
    t.do(P2, Discard(st.parts[P2].hand[-1]))
    engage(t, P3, "wands", "wands-3")
    pass_window(t)
    t.do(P4, Discard(st.parts[P4].hand[0]))
    with pytest.raises(IllegalMove):
        refuse(t, P2, Tower(t.h(TOWER), TOWER, P1, "wands"))
    t.do(P2, Tower(t.h(TOWER), TOWER, P3, "wands"))
    assert "wands" not in st.parts[P3].records and "wands" in st.ever_engaged


def test_f14_demon_gives_called_card_face_up() -> None:
    t = Table(hands_with({P3: [DEVIL], P1: [STAR]}, pile=("coins-2", "coins-3", "wands-7")),
              pile=["coins-2", "coins-3", "wands-7"])
    st = t.state
    t.do(P1, Discard(st.parts[P1].hand[-1]))
    t.do(P2, Discard(st.parts[P2].hand[0]))
    t.do(P3, Play(t.h(DEVIL), DEVIL))
    demon = st.parts[4]
    assert "wands-7" in [st.cards[x] for x in demon.hand]
    t.do(P4, Discard(st.parts[P4].hand[0]))
    t.do(P1, Call(t.h(STAR), STAR, "wands-7"))
    assert "wands-7" in t.hand(P1) and len(demon.hand) == 6
    assert all(st.public_card(x) for x in demon.hand)
