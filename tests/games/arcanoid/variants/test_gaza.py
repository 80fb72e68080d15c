"""GAZA (rules §8.7, §9.1): G1–G8 and ruling A89."""

from __future__ import annotations

import pytest

from p2ptarot.cards.arcanoid_tables import FOOL, HANGED_MAN, POPE, PRIESTESS, STAR
from p2ptarot.engine import NOBODY, PUBLIC, BadConfiguration, TurnKind, create, info
from p2ptarot.games.arcanoid.moves import (Abdicate, Call, Engage, Fool, HangedMan, Pope,
                                           Priestess, Show)
from p2ptarot.games.arcanoid.variants import rules_for

from .support import P1, P2, P3, P4, idle, pass_windows, vtable

USA4 = 4  # the USA's participant id at a 4-player table
USA_CARDS = ["swords-2", "swords-3", "swords-4", "swords-5", STAR.replace("17", "18"), "wands-9"]


def gaza(special=None, n: int = 4, usa=(USA_CARDS,), variant: str = "GAZA", **kw):
    return vtable(variant, special or {}, n=n, usa=usa, **kw)


def test_g1_a89_combinations() -> None:
    assert rules_for("GAZA").usa_seats == 1 and rules_for("GAZA").parent == "MAINZ"
    assert not rules_for("GAZA").aces_special  # GAZA alone is MAINZ + GAZA
    assert rules_for("GAZA+GAZA").usa_seats == 2
    malta = rules_for("MALTA+GAZA")
    assert malta.usa_seats == 1 and malta.composition_error is rules_for("MALTA").composition_error
    assert rules_for("DRESDEN+GAZA").aces_special
    gi = info("arcanoid")
    assert gi.resolve_variant("MALTA+GAZA+GAZA") == "MALTA+GAZA+GAZA"
    assert {"GAZA", "MALTA+GAZA", "GAZA+GAZA"} <= set(gi.playable_variants())
    for bad in ("GAZA+BONN", "MALTA+KOBLENZ", "MALTA+"):
        with pytest.raises(BadConfiguration):
            create("arcanoid", 4, bad)
    st = create("arcanoid", 3, "KOBLENZ+GAZA+GAZA", options={"first_seat": 1})
    assert [p.pid for p in st.parts if p.usa] == [3, 4]


def test_g2_a89_sits_last_hand_hidden_from_everyone() -> None:
    t = gaza(first_seat=2)
    st = t.state
    assert st.order == [2, 3, 0, 1, USA4]  # the USA closes every cycle
    usa = st.parts[USA4]
    assert usa.usa and usa.seat == NOBODY and len(usa.hand) == 6
    assert all(not st.seen[h] for h in usa.hand)  # dealt to nobody
    for seat in (None, P1, P2):
        assert all(c["card"] is None for c in st.view(seat)["participants"][USA4]["hand"])


def test_g3_discards_the_oldest_then_draws_then_abdicates_in_field_order() -> None:
    t = gaza()
    st = t.state
    usa = st.parts[USA4]
    oldest = usa.hand[0]
    for _ in range(4):
        idle(t)
    assert oldest in st.discard and len(usa.hand) == 6 and usa.hand[-1] not in st.seen[usa.hand[-1]]
    assert st.turn().seats == (P1,)  # the USA needs no decision
    st.discard.extend(usa.hand + st.pile)  # no card left to the USA, none to draw
    usa.hand.clear()
    st.pile.clear()
    for _ in range(4):
        idle(t)
    assert list(usa.records) == ["swords"]
    for _ in range(4):
        idle(t)
    assert list(usa.records) == ["swords", "wands"]


def test_g4_g5_never_votes_nor_uses_the_fool() -> None:
    t = gaza(special={P1: ["cups-2"]}, usa=([FOOL] + USA_CARDS[:5],))
    st = t.state
    t.do(P1, Engage(("cups",), (t.h("cups-2"),), ("cups-2",)))
    if st.turn().kind is TurnKind.INTERRUPT:
        assert NOBODY not in st.turn().seats and USA4 not in st.ctx().data["asked"]
    pass_windows(t)
    assert t.h(FOOL) in st.parts[USA4].hand


def test_g6_priestess_gives_a_private_look_at_the_usa() -> None:
    t = gaza(special={P1: [PRIESTESS]})
    st = t.state
    t.do(P1, Priestess(t.h(PRIESTESS), PRIESTESS, USA4))
    usa = st.parts[USA4]
    assert all(P1 in st.seen[h] and PUBLIC not in st.seen[h] for h in usa.hand)


def test_g6_hanged_man_renews_the_usa_hand_unseen() -> None:
    t = gaza(special={P1: [HANGED_MAN]})
    st = t.state
    old = list(st.parts[USA4].hand)
    t.do(P1, HangedMan(t.h(HANGED_MAN), HANGED_MAN, USA4))
    new = st.parts[USA4].hand
    assert all(h in st.discard for h in old) and len(new) == 6
    assert all(not st.seen[h] for h in new)


def test_g7_pope_turns_the_usa_hand_up_first() -> None:
    t = gaza(special={P1: [POPE]})
    st = t.state
    hand = list(st.parts[USA4].hand)
    t.do(P1, Pope(t.h(POPE), POPE, "cups"))
    assert all(PUBLIC in st.seen[h] for h in hand)
    assert NOBODY not in st.turn().seats  # the USA does not answer the Pope
    for seat in st.turn().seats:
        shown = [h for h in st.parts[seat].hand if (st.cards[h] or "").startswith("cups")]
        t.do(seat, Show(tuple(shown), tuple(st.cards[h] for h in shown)))
    pass_windows(t)
    for _ in range(4):
        idle(t)  # the USA discards an old card and draws: the new card stays hidden
    usa = st.parts[USA4].hand
    assert PUBLIC not in st.seen[usa[-1]] and all(PUBLIC in st.seen[h] for h in usa[:-1])


def test_g7_a89_star_takes_the_called_card_from_the_usa() -> None:
    t = gaza(special={P1: [STAR]})
    st = t.state
    called = "swords-4"
    t.do(P1, Call(t.h(STAR), STAR, called))
    pass_windows(t)
    assert t.h(called) in st.parts[P1].hand and t.h(called) not in st.parts[USA4].hand
    assert len(st.parts[USA4].hand) == 6  # the USA drew a replacement
    assert not [c for c in st.claim_log if c.kind == "not-held" and c.seat == NOBODY]


def test_g8_the_usa_ranks_with_the_players() -> None:
    t = gaza(n=2, rounds=1, special={})
    st = t.state
    # everyone abdicates at once; the USA abdicates last and so wins nothing...
    while st.turn().kind is not TurnKind.OVER:
        pass_windows(t)
        ctx = st.ctx()
        if ctx is None:
            continue
        if ctx.name == "vote":
            from p2ptarot.games.arcanoid.moves import Vote
            for s in st.turn().seats:
                t.do(s, Vote("no"))
            continue
        pid = ctx.actor
        free = [f for f in ("swords", "wands", "cups", "coins") if f not in st.parts[pid].records]
        t.do(st.seat_of(pid), Abdicate(free[0]))
    out = st.outcome()
    assert out is not None and "usa_fields" in out.detail
    # the first abdication wins a field of abdications: the players, never the later USA
    assert all(w in (P1, P2) for w in st.round_winners[0].values())
    assert out.detail["usa_fields"] == 0 and out.winners
