"""MALTA (rules §8.5): T1–T5 and ruling A87."""

from __future__ import annotations

from p2ptarot.cards.arcanoid_tables import EMPEROR, EMPRESS, FOOL, JUSTICE, LOVERS, MAGICIAN
from p2ptarot.engine import PUBLIC
from p2ptarot.games.arcanoid.moves import Fool, Play
from p2ptarot.games.arcanoid.secret import FoolOutcome, SecretEngage
from p2ptarot.games.arcanoid.variants.malta import MagicianSecret

from .support import (P1, P2, abdicate_to_the_end, engage_move, idle, pass_windows, refused,
                       vtable)


def msecret(t, field: str, *cards: str) -> MagicianSecret:
    return MagicianSecret(t.h(MAGICIAN), MAGICIAN, field, tuple(t.h(c) for c in cards))


def test_t1_the_magician_never_transmutes_nor_joins() -> None:
    t = vtable("MALTA", {P1: [MAGICIAN, "cups-2", "coins-3"]})
    assert refused(t, P1, engage_move(t, ("cups",), "cups-2", "coins-3", MAGICIAN, transmute="coins-3"))
    assert "Magician" in refused(t, P1, engage_move(t, ("cups",), "cups-2", MAGICIAN))
    assert not any(MAGICIAN in getattr(m, "cards", ()) for m in t.state.legal_moves(P1))


def test_t1_shown_and_discarded_cards_face_down_count_public() -> None:
    t = vtable("MALTA", {P1: [MAGICIAN, "cups-2", "cups-3"]})
    st = t.state
    move = msecret(t, "cups", "cups-2", "cups-3")
    assert move in st.legal_moves(P1)
    assert [r.handle for r in st.move_reveals(P1, move)] == [t.h(MAGICIAN)]  # only the Magician
    t.do(P1, move)
    rec = st.parts[P1].records["cups"]
    assert rec.secret and len(rec.handles) == 2 and all(PUBLIC not in st.seen[h] for h in rec.handles)
    assert t.h(MAGICIAN) in st.discard and PUBLIC in st.seen[t.h(MAGICIAN)]
    assert st.view(P2)["participants"][P1]["records"]["cups"]["count"] == 2
    pass_windows(t)
    assert len(st.parts[P1].hand) == 6  # T: refilled for every card used, the Magician included


def test_t2_a87_content_is_mainz_legal_on_one_field() -> None:
    t = vtable("MALTA", {P1: [MAGICIAN, "cups-page", "cups-1", EMPRESS, EMPEROR, LOVERS]})
    assert refused(t, P1, msecret(t, "cups", "cups-page", "cups-1"))  # MAINZ: page alone
    assert refused(t, P1, msecret(t, "cups", LOVERS, EMPRESS))  # no E7b in MAINZ
    assert "at least one" in refused(t, P1, msecret(t, "cups"))
    assert refused(t, P1, MagicianSecret(t.h(MAGICIAN), MAGICIAN, "cups", (t.h(MAGICIAN),)))
    t.do(P1, msecret(t, "cups", EMPRESS, EMPEROR))  # the imperial couple, on this one field


def test_t3_revealed_and_scored_at_the_round_end() -> None:
    t = vtable("MALTA", {P1: [MAGICIAN, "cups-9", "cups-10"]}, n=2, rounds=1)
    st = t.state
    t.do(P1, msecret(t, "cups", "cups-9", "cups-10"))
    handles = st.parts[P1].records["cups"].handles
    abdicate_to_the_end(t)
    assert all(PUBLIC in st.seen[h] for h in handles)
    assert sorted(st.round_records[0]["cups"][P1]["cards"]) == ["cups-10", "cups-9"]
    assert st.round_winners[0]["cups"] == P1


def test_t4_fool_steals_unless_a_couple() -> None:
    t = vtable("MALTA", {P1: [MAGICIAN, "cups-1", "cups-3"], P2: [FOOL]})
    st = t.state
    t.do(P1, msecret(t, "cups", "cups-1", "cups-3"))
    t.do(P2, Fool(t.h(FOOL), FOOL, P2))
    pass_windows(t)
    handles = st.parts[P1].records["cups"].handles
    assert all(P2 in st.seen[h] and PUBLIC not in st.seen[h] for h in handles)
    assert st.legal_moves(P2) == [FoolOutcome("stolen")]  # MAINZ: an ace does not protect
    t.do(P2, FoolOutcome("stolen"))
    assert st.parts[P2].records["cups"].secret

    c = vtable("MALTA", {P1: [MAGICIAN, "cups-queen", "cups-king"], P2: [FOOL]})
    c.do(P1, msecret(c, "cups", "cups-queen", "cups-king"))
    c.do(P2, Fool(c.h(FOOL), FOOL, P2))
    pass_windows(c)
    assert "not stealable" in refused(c, P2, FoolOutcome("stolen"))
    c.do(P2, FoolOutcome("lost"))
    assert "cups" in c.state.parts[P1].records


def test_t5_no_other_secret_engagement() -> None:
    t = vtable("MALTA", {P1: ["cups-2"]})
    assert not any(isinstance(m, (SecretEngage, MagicianSecret)) for m in t.state.legal_moves(P1))
    assert "secret-engage" not in t.state.MOVES


def test_a87_the_magician_from_the_justice() -> None:
    t = vtable("MALTA", {P1: [JUSTICE, "cups-2", "cups-3"]}, pile=(MAGICIAN,))
    st = t.state
    t.do(P1, Play(t.h(JUSTICE), JUSTICE))  # Justice draws its cards: the Magician first
    assert t.h(MAGICIAN) in st.justice
    pass_windows(t)
    t.do(P1, msecret(t, "cups", "cups-2", "cups-3"))  # the replay
    assert st.parts[P1].records["cups"].secret and t.h(MAGICIAN) in st.discard


def test_a87_magician_secret_with_the_chariot_reserve() -> None:
    from p2ptarot.cards.arcanoid_tables import CHARIOT
    from p2ptarot.games.arcanoid.moves import ChariotLoad

    t = vtable("MALTA", {P1: [CHARIOT, MAGICIAN, "cups-2", "cups-3"]})
    st = t.state
    t.do(P1, ChariotLoad(t.h(CHARIOT), CHARIOT, (t.h("cups-2"),), ("cups-2",)))
    idle(t), idle(t), idle(t)
    t.do(P1, MagicianSecret(t.h(MAGICIAN), MAGICIAN, "cups", (t.h("cups-3"),), True))
    rec = st.parts[P1].records["cups"]
    assert rec.secret and rec.handles == (t.h("cups-2"), t.h("cups-3"))
    assert t.h(CHARIOT) in st.discard and t.h(MAGICIAN) in st.discard
