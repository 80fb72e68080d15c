"""MAINZ (rules §8.4): Z1–Z3 and ruling A86."""

from __future__ import annotations

from p2ptarot.cards.arcanoid_tables import CHARIOT, EMPEROR, EMPRESS, FOOL, LOVERS, MAGICIAN, TEMPERANCE
from p2ptarot.games.arcanoid.engage import composition_error, stealable
from p2ptarot.games.arcanoid.moves import ChariotAdd, ChariotLoad, Fool, Temperance
from p2ptarot.games.arcanoid.variants import rules_for

from .support import P1, P2, P3, engage_move, eng, idle, pass_windows, refused, vtable

MAINZ = rules_for("MAINZ")


def test_z1_a86_page_and_knight_only_alone() -> None:
    assert composition_error(("cups",), ["cups-page"], None, MAINZ) is None
    assert composition_error(("cups",), ["cups-knight", "cups-1"], None, MAINZ)
    assert composition_error(("cups",), ["cups-knight", "cups-1", MAGICIAN], None, MAINZ)
    assert composition_error(("cups",), ["cups-knight", "cups-1"], None, rules_for("NASSAU")) is None
    assert composition_error(("cups",), [LOVERS, "cups-page"], None, MAINZ) is None  # E7a kept
    assert composition_error(("cups",), ["cups-3", MAGICIAN], None, MAINZ) is None


def test_z1_fool_steals_an_ace() -> None:
    assert stealable(["cups-1", "cups-4"], MAINZ)
    assert not stealable(["cups-1", "cups-4"], rules_for("NASSAU"))
    t = vtable("MAINZ", {P1: ["cups-1", "cups-4"], P2: [FOOL]})
    eng(t, P1, ("cups",), "cups-1", "cups-4")
    st = t.state
    assert st.ctx().name == "fool"
    t.do(P2, Fool(t.h(FOOL), FOOL, P2))
    pass_windows(t)
    assert st.parts[P2].records["cups"].cards == ("cups-1", "cups-4")


def test_z2_chariot_adds_any_number() -> None:
    t = vtable("MAINZ", {P1: [CHARIOT, "cups-2", "cups-3", "cups-4", "cups-5", "cups-6"]})
    t.do(P1, ChariotLoad(t.h(CHARIOT), CHARIOT, (t.h("cups-2"),), ("cups-2",)))
    idle(t), idle(t), idle(t)
    three = ("cups-3", "cups-4", "cups-5")
    t.do(P1, ChariotAdd(tuple(t.h(c) for c in three), three))
    assert len(t.state.parts[P1].reserve) == 4
    d = vtable("NASSAU", {P1: [CHARIOT, "cups-2", "cups-3", "cups-4", "cups-5", "cups-6"]})
    d.do(P1, ChariotLoad(d.h(CHARIOT), CHARIOT, (d.h("cups-2"),), ("cups-2",)))
    idle(d), idle(d), idle(d)
    assert "1 to 2" in refused(d, P1, ChariotAdd(tuple(d.h(c) for c in three), three))


def test_z3_no_illegitimate_imperial_couple() -> None:
    t = vtable("MAINZ", {P1: [LOVERS, EMPRESS, EMPEROR]})
    assert refused(t, P1, engage_move(t, ("cups",), LOVERS, EMPRESS))
    assert refused(t, P1, engage_move(t, ("cups", "coins"), LOVERS, EMPEROR))
    legal = t.state.legal_moves(P1)
    assert engage_move(t, ("cups",), LOVERS, EMPRESS) not in legal
    assert engage_move(t, ("cups",), EMPRESS, EMPEROR) in legal
    eng(t, P1, ("cups", "coins"), EMPRESS, EMPEROR)


def test_mainz_keeps_the_nassau_temperance() -> None:
    t = vtable("MAINZ", {P1: [TEMPERANCE, "coins-9"]})
    t.do(P1, Temperance(t.h(TEMPERANCE), TEMPERANCE, "coins"))
    idle(t), idle(t), idle(t)
    assert "tempered" in refused(t, P1, engage_move(t, ("coins",), "coins-9"))
