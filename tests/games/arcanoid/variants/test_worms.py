"""WORMS (rules §8.6): W1–W6 and ruling A88."""

from __future__ import annotations

from p2ptarot.cards.arcanoid_tables import FOOL, MAGICIAN, TEMPERANCE, TOWER
from p2ptarot.games.arcanoid.moves import Fool, Temperance, Tower
from p2ptarot.games.arcanoid.battle import battle_key
from p2ptarot.games.arcanoid.variants.worms import Reinforce, lone_ace

from .support import P1, P2, P3, eng, idle, pass_windows, refused, vtable


def reinforce(t, field: str, *cards: str, transmute: str | None = None) -> Reinforce:
    return Reinforce(field, tuple(t.h(c) for c in cards), cards, t.h(transmute) if transmute else -1)


def _ace(special: dict | None = None, ace: tuple[str, ...] = ("cups-1",), **kw):
    sp = {P1: list(ace) + ["cups-5", "cups-6", "cups-page", "coins-7", "cups-queen"][: 6 - len(ace)]}
    sp.update(special or {})
    t = vtable("WORMS", sp, **kw)
    eng(t, P1, ("cups",), *ace, transmute=ace[0] if ace[0] != "cups-1" and MAGICIAN in ace else None)
    pass_windows(t)
    idle(t), idle(t), idle(t)
    return t


def test_w1_lone_ace_records() -> None:
    t = _ace()
    assert lone_ace(t.state.parts[P1].records["cups"])
    m = _ace(ace=("coins-1", MAGICIAN))  # an ace of another suit transmuted
    assert lone_ace(m.state.parts[P1].records["cups"])
    idle_mag = _ace(ace=("cups-1", MAGICIAN))
    assert lone_ace(idle_mag.state.parts[P1].records["cups"])


def test_w2_w3_numeric_reinforcement_is_one_engagement() -> None:
    t = _ace()
    st = t.state
    move = reinforce(t, "cups", "cups-5", "cups-6")
    assert move in st.legal_moves(P1)
    t.do(P1, move)
    pass_windows(t)
    rec = st.parts[P1].records["cups"]
    assert sorted(rec.cards) == ["cups-1", "cups-5", "cups-6"]
    assert battle_key(rec)[1:4] == (24, 3, 1)  # 1+5+6 doubled, three cards, the ace lowest
    idle(t), idle(t), idle(t)
    assert "once" in refused(t, P1, reinforce(t, "cups", "cups-queen"))  # never a third


def test_w2_never_a_couple_and_page_alone() -> None:
    t = _ace(special={P1: ["cups-1", "cups-queen", "cups-king", "cups-page", "cups-5", "cups-knight"]})
    assert "couple" in refused(t, P1, reinforce(t, "cups", "cups-queen", "cups-king"))
    assert refused(t, P1, reinforce(t, "cups", "cups-page", "cups-5"))
    assert reinforce(t, "cups", "cups-page") in t.state.legal_moves(P1)


def test_w3_page_discards_the_ace_face_up() -> None:
    t = _ace()
    st = t.state
    ace = t.h("cups-1")
    t.do(P1, reinforce(t, "cups", "cups-page"))
    pass_windows(t)
    assert st.parts[P1].records["cups"].cards == ("cups-page",) and ace in st.discard


def test_w2_a88_magician_with_the_ace_cannot_help() -> None:
    t = _ace(ace=("coins-1", MAGICIAN))
    assert "cups" in t.state.parts[P1].records and t.h(MAGICIAN) not in t.state.available(P1)
    assert refused(t, P1, reinforce(t, "cups", "coins-7", transmute="coins-7"))


def test_w4_a88_fool_takes_the_reinforcement_not_the_ace() -> None:
    t = _ace(special={P2: [FOOL]})
    st = t.state
    t.do(P1, reinforce(t, "cups", "cups-5", "cups-6"))
    assert st.ctx().name == "fool"  # A88: the window opens on a reinforcement
    t.do(P2, Fool(t.h(FOOL), FOOL, P2))
    pass_windows(t)
    assert st.parts[P1].records["cups"].cards == ("cups-1",)
    assert sorted(st.parts[P2].records["cups"].cards) == ["cups-5", "cups-6"]
    assert (P1, "cups") in st.reinforced  # the owner's right is spent
    idle(t), idle(t), idle(t)
    assert "once" in refused(t, P1, reinforce(t, "cups", "cups-page"))


def test_w4_a88_thief_of_a_lone_ace_may_reinforce_it() -> None:
    t = vtable("WORMS", {P1: ["cups-1"], P2: [FOOL, "cups-5"]})
    st = t.state
    eng(t, P1, ("cups",), "cups-1")
    t.do(P2, Fool(t.h(FOOL), FOOL, P2))  # MAINZ: an ace does not protect
    pass_windows(t)
    assert lone_ace(st.parts[P2].records["cups"])
    assert reinforce(t, "cups", "cups-5") in st.legal_moves(P2)
    t.do(P2, reinforce(t, "cups", "cups-5"))


def test_w2_a88_temperance_blocks_a_reinforcement() -> None:
    idle_t = vtable("WORMS", {P1: ["cups-1", "cups-5"], P2: [TEMPERANCE]})
    eng(idle_t, P1, ("cups",), "cups-1")
    pass_windows(idle_t)
    idle_t.do(P2, Temperance(idle_t.h(TEMPERANCE), TEMPERANCE, "cups"))
    idle(idle_t), idle(idle_t)
    assert "tempered" in refused(idle_t, P1, reinforce(idle_t, "cups", "cups-5"))


def test_w5_w6_ordinary_record_and_tower_removes_it_whole() -> None:
    t = _ace(special={P2: [TOWER]})
    st = t.state
    t.do(P1, reinforce(t, "cups", "cups-5"))
    pass_windows(t)
    handles = st.parts[P1].records["cups"].handles
    t.do(P2, Tower(t.h(TOWER), TOWER, P1, "cups"))
    assert "cups" not in st.parts[P1].records and all(h in st.discard for h in handles)
    assert "cups" in st.ever_engaged
