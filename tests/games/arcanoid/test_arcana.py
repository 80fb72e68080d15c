"""One focused test per major arcanum and per advanced-note interaction (rules §6, §7)."""

from __future__ import annotations

import pytest

from p2ptarot.cards.arcanoid_tables import (CHARIOT, DEVIL, EMPEROR, EMPRESS, FOOL, HANGED_MAN, HERMIT,
                                            JUDGEMENT, JUSTICE, LOVERS, MAGICIAN, MOON, POPE, PRIESTESS, STAR,
                                            STRENGTH, SUN, TEMPERANCE, TOWER, WHEEL, WORLD)
from p2ptarot.engine import PUBLIC, IllegalMove, Pass, TurnKind
from p2ptarot.games.arcanoid.engage import composition_error, stealable
from p2ptarot.games.arcanoid.moves import (Abdicate, Call, CallAgain, ChariotAdd, ChariotEngage,
                                           ChariotLoad, Discard, Engage, Fool, Give, HangedMan,
                                           HermitMove, Judgement, Play, Pope, Priestess,
                                           Strength, Temperance, Tower, WheelDiscard, World)
from p2ptarot.games.arcanoid.battle import JUDGED

from .support import Table, filler

P1, P2, P3, P4 = 0, 1, 2, 3


def table(special: dict[int, list[str]], n: int = 4, pile: tuple[str, ...] = ()) -> Table:
    taken = [c for cs in special.values() for c in cs] + list(pile)
    base = filler(n, exclude=taken)
    hands = []
    for i in range(n):
        extra = special.get(i, [])
        hands.append(extra + [c for c in base[i] if c not in extra][: 6 - len(extra)])
    return Table(hands, pile=pile)


def pass_windows(t: Table) -> None:
    st = t.state
    while st.turn().kind is TurnKind.INTERRUPT:
        seat = next(x for x in st.turn().seats if x not in st.ctx().answers)
        t.do(seat, Pass())
    while st.ctx() is not None and st.ctx().name == "hermit":
        t.do(st.turn().seats[0], Pass())


def idle(t: Table) -> int:
    """The participant to move discards its last available card; returns its pid."""
    st = t.state
    pass_windows(t)
    pid = st.ctx().actor
    t.do(st.seat_of(pid), Discard(st.available(pid)[-1]))
    pass_windows(t)
    return pid


def refuse(t: Table, seat: int, move) -> None:
    """The pure move check (no state change)."""
    t.state.check(seat, move)


def eng(t: Table, seat: int, fields: tuple[str, ...], *cards: str, transmute: str | None = None) -> None:
    t.do(seat, Engage(fields, tuple(t.h(c) for c in cards), cards, t.h(transmute) if transmute else -1))


# ---- 0 The Fool ---------------------------------------------------------------------------------
def test_fool_from_the_justice_any_eligible_participant() -> None:
    t = table({P1: [JUSTICE], P2: ["swords-3"]}, pile=("coins-2", FOOL))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    assert FOOL in [st.cards[x] for x in st.justice]
    idle(t)  # P1's replay
    eng(t, P2, ("swords",), "swords-3")
    assert st.turn().seats == (P3, P4, P1)  # every eligible participant, from the next one
    t.do(P3, Pass())
    hand_before = list(st.parts[P4].hand)
    t.do(P4, Fool(t.h(FOOL), FOOL, P4))
    assert st.parts[P4].records["swords"].cards == ("swords-3",)
    assert st.parts[P4].hand == hand_before, "the user of the Justice's Fool draws nothing"
    assert len(st.justice) == 6


def test_fool_pledge_hermit_cuts_in() -> None:
    """[0-8-9]: P4 owns the Hermit and cuts in before P3 for the Justice's Fool: pledge before P3."""
    t = table({P1: [JUSTICE], P4: [HERMIT], P2: ["swords-3"]}, pile=("coins-2", FOOL))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    idle(t)
    idle(t)  # P2
    idle(t)  # P3
    t.do(P4, Play(t.h(HERMIT), HERMIT))
    pass_windows(t)
    idle(t)  # P1
    eng(t, P2, ("swords",), "swords-3")
    assert st.turn().seats == (P3, P4, P1)
    t.do(P3, Fool(t.h(FOOL), FOOL, P3))  # P3 would take it...
    t.do(P4, Fool(t.h(FOOL), FOOL, P4, P3))  # ...but P4 cut in before P3
    assert "swords" in st.parts[P4].records and "swords" not in st.parts[P3].records
    # the pledged move falls due in the gap right before P3's turn, i.e. now: P4 must move
    assert st.ctx().name == "turn" and st.ctx().actor == P4
    assert st.hermit.used == 1 and not st.hermit.pledges and st.hermit.free == 2
    idle(t)
    assert st.ctx().actor == P3


# ---- 1 The Magician -------------------------------------------------------------------------------
def test_magician_transmutes_one_card() -> None:
    assert composition_error(("swords",), ["swords-10", "wands-10", MAGICIAN], "wands-10") is None
    assert composition_error(("wands",), ["swords-10", "wands-10", MAGICIAN], "swords-10") is None
    assert composition_error(("swords",), ["wands-9", "wands-10", MAGICIAN], "wands-10")
    assert composition_error(("swords",), [MAGICIAN], None)
    assert composition_error(("cups",), ["swords-4", MAGICIAN], "swords-4") is None
    t = table({P1: ["swords-10", "wands-10", MAGICIAN]})
    eng(t, P1, ("swords",), "swords-10", "wands-10", MAGICIAN, transmute="wands-10")
    rec = t.state.parts[P1].records["swords"]
    assert rec.transmuted_card() == "wands-10" and MAGICIAN in rec.cards


def test_magician_transmuted_ace_keeps_ace_roles() -> None:
    """[1, 1-0]: a transmuted ace goes with a page and protects from the Fool."""
    cards = ["swords-page", "cups-1", MAGICIAN]
    assert composition_error(("swords",), cards, "cups-1") is None
    assert not stealable(cards)
    assert composition_error(("swords",), ["swords-page", "cups-1"], None)
    assert stealable(["swords-4", "wands-5", MAGICIAN])  # [1-21, 1-0]


# ---- 2 The High Priestess ---------------------------------------------------------------------------
def test_priestess_from_justice_only_user_sees() -> None:
    """[2-8]: played from the Justice, only its user sees; the Justice refills, not the user."""
    t = table({P1: [JUSTICE]}, pile=("coins-2", PRIESTESS))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    idle(t)
    hand = list(st.parts[P2].hand)
    t.do(P2, Priestess(t.h(PRIESTESS), PRIESTESS, P4))
    assert all(P2 in st.seen[x] and PUBLIC not in st.seen[x] for x in st.parts[P4].hand)
    assert st.parts[P2].hand == hand and len(st.justice) == 6
    assert st.ctx().actor == P2  # replay


# ---- 3/4/6 couples ------------------------------------------------------------------------------
def test_imperial_couple_on_two_fields_and_tower_on_one() -> None:
    t = table({P1: [EMPRESS, EMPEROR], P2: [TOWER]})
    st = t.state
    eng(t, P1, ("swords", "coins"), EMPRESS, EMPEROR)
    assert st.ctx().actor == P2, "couples cannot be stolen: no Fool window"
    t.do(P2, Tower(t.h(TOWER), TOWER, P1, "swords"))
    assert "swords" not in st.parts[P1].records
    assert st.parts[P1].records["coins"].cards == (EMPRESS, EMPEROR)
    assert t.h(EMPRESS) not in st.discard


def test_lovers_couples() -> None:
    assert composition_error(("cups",), [LOVERS, "cups-knight"], None) is None
    assert composition_error(("cups", "swords"), [LOVERS, "cups-knight"], None)
    assert composition_error(("cups", "swords"), [LOVERS, EMPEROR], None) is None
    assert composition_error(("cups",), [LOVERS, EMPRESS, EMPEROR], None)
    assert composition_error(("cups",), [LOVERS], None)
    assert composition_error(("cups",), [EMPRESS], None)
    assert composition_error(("cups",), ["cups-queen", "cups-king", MAGICIAN], None)


# ---- 5 The Pope ---------------------------------------------------------------------------------
def test_pope_shows_category_and_replays() -> None:
    t = table({P1: [POPE, "cups-2"], P3: ["cups-9", "cups-10"]})
    st = t.state
    t.do(P1, Pope(t.h(POPE), POPE, "cups"))
    assert st.turn().kind is TurnKind.SIMULTANEOUS and st.turn().seats == (P1, P2, P3, P4)
    for s in (P1, P2, P3, P4):
        legal = st.legal_moves(s)
        assert len(legal) == 1
        t.do(s, legal[0])
    assert st.public_card(t.h("cups-9")) == "cups-9" and st.public_card(t.h("cups-2")) == "cups-2"
    assert st.ctx().actor == P1 and len(st.parts[P1].hand) == 6


# ---- 7 The Chariot --------------------------------------------------------------------------------
def test_chariot_load_add_engage_with_magician() -> None:
    t = table({P1: [CHARIOT, "swords-10", MAGICIAN, "swords-9", "wands-8"]})
    st = t.state
    t.do(P1, ChariotLoad(t.h(CHARIOT), CHARIOT, (t.h("swords-10"), t.h(MAGICIAN)),
                         ("swords-10", MAGICIAN)))
    assert len(st.parts[P1].hand) == 6 and len(st.parts[P1].reserve) == 2
    for _ in range(3):
        idle(t)
    t.do(P1, ChariotAdd((t.h("swords-9"),), ("swords-9",)))
    for _ in range(3):
        idle(t)
    t.do(P1, ChariotEngage(("swords",), (t.h("wands-8"),), ("wands-8",), t.h("wands-8")))
    rec = st.parts[P1].records["swords"]
    assert set(rec.cards) == {"swords-10", MAGICIAN, "swords-9", "wands-8"}
    assert st.parts[P1].chariot == -1 and t.h(CHARIOT) in st.discard


def test_chariot_reserve_with_other_major_cannot_engage() -> None:
    """[7-(1,3,4,6)]: a reserve holding the World can only be discarded."""
    t = table({P1: [CHARIOT, WORLD, "swords-9"]})
    t.do(P1, ChariotLoad(t.h(CHARIOT), CHARIOT, (t.h(WORLD), t.h("swords-9")), (WORLD, "swords-9")))
    for _ in range(3):
        idle(t)
    assert not [m for m in t.state.legal_moves(P1) if m.KIND == "chariot-engage"]
    with pytest.raises(IllegalMove):
        refuse(t, P1, ChariotEngage(("swords",), (), (), -1))


def test_hanged_man_on_chariot_owner() -> None:
    """[7-12]: the Chariot, its reserve and the whole hand are discarded, the hand refilled."""
    t = table({P1: [CHARIOT, "swords-9"], P2: [HANGED_MAN]})
    st = t.state
    t.do(P1, ChariotLoad(t.h(CHARIOT), CHARIOT, (t.h("swords-9"),), ("swords-9",)))
    old = list(st.parts[P1].hand)
    t.do(P2, HangedMan(t.h(HANGED_MAN), HANGED_MAN, P1))
    assert st.parts[P1].chariot == -1 and not st.parts[P1].reserve
    assert all(h in st.discard for h in old) and len(st.parts[P1].hand) == 6


def test_star_takes_card_from_chariot_reserve() -> None:
    """[7-(17,18,19)]: the call takes the card out of the reserve; the owner draws nothing."""
    t = table({P1: [CHARIOT, "swords-9"], P2: [STAR]})
    st = t.state
    t.do(P1, ChariotLoad(t.h(CHARIOT), CHARIOT, (t.h("swords-9"),), ("swords-9",)))
    t.do(P2, Call(t.h(STAR), STAR, "swords-9"))
    assert not st.parts[P1].reserve and "swords-9" in t.hand(P2)
    assert len(st.parts[P1].hand) == 6 and st.ctx().actor == P3


# ---- 8 Justice -----------------------------------------------------------------------------------
def test_justice_absorbs_demon() -> None:
    """[8-15] (a): all the demon's cards become Justice cards; no replay; the demon has no hand."""
    t = table({P1: [DEVIL], P3: [JUSTICE]})
    st = t.state
    t.do(P1, Play(t.h(DEVIL), DEVIL))
    demon = st.parts[4]
    cards = list(demon.hand)
    idle(t)  # P2
    t.do(P3, Play(t.h(JUSTICE), JUSTICE))
    assert st.justice == cards and demon.hand == [] and demon.hand_cap == 0
    assert st.ctx().actor == P4, "no replay when absorbing a demon"
    assert not demon.finished and st.justice_cap == 6


# ---- 9 The Hermit --------------------------------------------------------------------------------
def test_devil_during_hermit_move_seats_demon_at_the_gap() -> None:
    """[9-15]: the demon sits after the participant the Hermit move followed, and waits a cycle."""
    t = table({P2: [HERMIT, DEVIL]})
    st = t.state
    idle(t)  # P1
    t.do(P2, Play(t.h(HERMIT), HERMIT))
    t.do(P2, Pass())
    t.do(P3, Discard(st.parts[P3].hand[0]))
    t.do(P2, HermitMove())
    t.do(P2, Play(t.h(DEVIL), DEVIL))
    assert st.order == [0, 1, 2, 4, 3]
    t.do(P2, Pass())
    assert st.ctx().actor == P4  # the demon does not play at once
    order = [idle(t) for _ in range(4)]
    assert order == [P4, P1, P2, P3]
    pass_windows(t)
    assert st.ctx().actor == 4


# ---- 10 The Wheel --------------------------------------------------------------------------------
def test_wheel_from_justice() -> None:
    """[8-10]: 1 into the Justice, 4 into the player's hand, then 4 discards."""
    t = table({P1: [JUSTICE]}, pile=("coins-2", WHEEL))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    idle(t)
    t.do(P2, Play(t.h(WHEEL), WHEEL))
    assert len(st.justice) == 6 and len(st.parts[P2].hand) == 10
    t.do(P2, WheelDiscard(tuple(st.parts[P2].hand[:4])))
    assert len(st.parts[P2].hand) == 6


def test_wheel_from_visible_slot_with_promotion() -> None:
    """[10-11]: from a visible slot: 1 face up, 4 in hand; option (ii) swaps in a new card."""
    t = table({P1: [STRENGTH]}, pile=("coins-2", WHEEL, "coins-3"))
    st = t.state
    t.do(P1, Strength(t.h(STRENGTH), STRENGTH, "visible"))
    p = st.parts[P1]
    assert p.vis_cap == 2 and [st.cards[x] for x in p.visible] == ["coins-2", WHEEL]
    for _ in range(3):
        idle(t)
    t.do(P1, Play(t.h(WHEEL), WHEEL))
    assert len(p.visible) == 2 and len(p.hand) == 10
    new_visible = p.visible[-1]
    new_hand = st.ctx().data["new"]
    promote = next(x for x in new_hand if x in p.hand)
    discards = (new_visible,) + tuple(x for x in p.hand if x != promote)[:3]
    t.do(P1, WheelDiscard(discards, (promote,), (st.cards[promote],)))
    assert len(p.hand) == 6 and len(p.visible) == 2 and promote in p.visible
    assert st.public_card(promote) is not None


# ---- 11 Strength ---------------------------------------------------------------------------------
def test_strength_hidden_and_from_justice() -> None:
    t = table({P1: [STRENGTH, JUSTICE]}, pile=())
    st = t.state
    t.do(P1, Strength(t.h(STRENGTH), STRENGTH, "hidden"))
    assert st.parts[P1].hand_cap == 7 and len(st.parts[P1].hand) == 7
    assert all(P1 in st.seen[x] and PUBLIC not in st.seen[x] for x in st.parts[P1].hand)


def test_strength_played_from_justice_raises_justice_capacity() -> None:
    """[8-11]: the extra cards belong to the Justice."""
    t = table({P1: [JUSTICE]}, pile=("coins-2", STRENGTH))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    idle(t)
    t.do(P2, Strength(t.h(STRENGTH), STRENGTH, "visible"))
    assert st.justice_cap == 8 and len(st.justice) == 8 and st.parts[P2].vis_cap == 0


# ---- 12 The Hanged Man ---------------------------------------------------------------------------
def test_hanged_man_suicide_of_justice() -> None:
    """[8-12]: from the Justice onto the Justice: all Justice cards go, the Justice refills."""
    t = table({P1: [JUSTICE]}, pile=("coins-2", HANGED_MAN))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))
    idle(t)
    old = [x for x in st.justice if x != t.h(HANGED_MAN)]
    hand = list(st.parts[P2].hand)
    t.do(P2, HangedMan(t.h(HANGED_MAN), HANGED_MAN, -1))
    assert all(x in st.discard for x in old) and len(st.justice) == 6
    assert st.parts[P2].hand == hand


# ---- 14 Temperance --------------------------------------------------------------------------------
def test_temperance_owner_world_lifts_it_and_others_cannot() -> None:
    t = table({P1: [TEMPERANCE, WORLD], P2: [WORLD.replace("21", "20")]})
    st = t.state
    t.do(P1, Temperance(t.h(TEMPERANCE), TEMPERANCE, "coins"))
    assert st.temperance is not None and st.temperance.field == "coins"
    t.do(P2, Judgement(t.h(JUDGEMENT), JUDGEMENT, P3, "coins"))  # Temperance does not block it
    assert st.parts[P3].records["coins"].kind == JUDGED and st.temperance is not None
    idle(t)
    idle(t)
    with pytest.raises(IllegalMove):  # coins was engaged (a Judgement): no World there
        refuse(t, P1, World(t.h(WORLD), WORLD, "coins"))


def test_temperance_needs_a_pile() -> None:
    t = table({P1: [TEMPERANCE]})
    t.state.discard.extend(t.state.pile)
    t.state.pile.clear()
    with pytest.raises(IllegalMove):
        refuse(t, P1, Temperance(t.h(TEMPERANCE), TEMPERANCE, "cups"))


# ---- 15 The Devil --------------------------------------------------------------------------------
def test_devil_two_players_order() -> None:
    """A48: with 2 players A (master) and B the order becomes B, demon, A."""
    t = table({P1: [DEVIL]}, n=2)
    st = t.state
    t.do(P1, Play(t.h(DEVIL), DEVIL))
    demon = st.parts[2]
    assert demon.demon and len(demon.hand) == 6 and all(st.public_card(x) for x in demon.hand)
    assert [idle(t) for _ in range(3)] == [P2, 2, P1]


def test_demon_priestess_shows_everyone() -> None:
    """[2-15]: a High Priestess played by the demon shows the target's hand to everyone."""
    t = table({P1: [DEVIL]}, n=2, pile=("coins-2", PRIESTESS))
    st = t.state
    t.do(P1, Play(t.h(DEVIL), DEVIL))
    idle(t)  # P2
    assert st.ctx().actor == 2
    t.do(P1, Priestess(t.h(PRIESTESS), PRIESTESS, P2))
    assert all(PUBLIC in st.seen[x] for x in st.parts[P2].hand[:5])


# ---- 17/18/19 calls ------------------------------------------------------------------------------
def test_moon_second_call_and_refill_after_last_failure() -> None:
    t = table({P1: [MOON]})
    st = t.state
    t.do(P1, Call(t.h(MOON), MOON, "coins-queen"))
    pass_windows(t)
    assert st.ctx().name == "call-again" and len(st.parts[P1].hand) == 5
    t.do(P1, CallAgain("coins-king"))
    pass_windows(t)
    assert len(st.parts[P1].hand) == 6 and st.ctx().actor == P2


def test_sun_major_call_is_the_only_call_and_calling_own_card() -> None:
    t = table({P1: [SUN, STAR], P2: [HERMIT]})
    st = t.state
    t.do(P1, Call(t.h(SUN), SUN, HERMIT))
    t.do(P1, Pass())
    t.do(P2, Give(t.h(HERMIT), HERMIT))
    assert HERMIT in t.hand(P1)
    with pytest.raises(IllegalMove):  # Judgement, the World and the Fool cannot be called
        from p2ptarot.games.arcanoid.arcana.calls import check
        check(st, P1, Call(t.h(STAR), SUN, JUDGEMENT))


def test_star_calling_own_card() -> None:
    """[17,18,19]: the caller shows its own card; same as discarding the Star openly."""
    t = table({P1: [STAR, "cups-5"]})
    st = t.state
    t.do(P1, Call(t.h(STAR), STAR, "cups-5"))
    t.do(P1, Give(t.h("cups-5"), "cups-5"))
    assert st.public_card(t.h("cups-5")) == "cups-5" and "cups-5" in t.hand(P1)
    assert len(st.parts[P1].hand) == 6


# ---- 20/21 Judgement, World ----------------------------------------------------------------------
def test_world_blocked_by_any_earlier_record_even_removed() -> None:
    t = table({P1: ["wands-2"], P2: [TOWER], P3: [WORLD]})
    st = t.state
    eng(t, P1, ("wands",), "wands-2")
    pass_windows(t)
    t.do(P2, Tower(t.h(TOWER), TOWER, P1, "wands"))
    assert not st.parts[P1].records and "wands" in st.ever_engaged
    with pytest.raises(IllegalMove):
        refuse(t, P3, World(t.h(WORLD), WORLD, "wands"))
    t.do(P3, World(t.h(WORLD), WORLD, "cups"))
    assert st.parts[P3].records["cups"].cards == (WORLD,)


def test_abdication_is_always_legal_and_judgement_on_self() -> None:
    t = table({P1: [JUDGEMENT]})
    st = t.state
    t.do(P1, Judgement(t.h(JUDGEMENT), JUDGEMENT, P1, "swords"))
    assert st.parts[P1].records["swords"].kind == JUDGED
    t.do(P2, Abdicate("swords"))
    assert st.parts[P2].records["swords"].timestamp > st.parts[P1].records["swords"].timestamp
