"""Issue 24 item 5: no move is judged by one peer from what only it knows.

A High Priestess shows the target's hand to her user alone, so that user knows cards of the
target's hand that nobody else does. When the target then makes a move carrying one of those card
ids (a face-up play, an engagement, a Chariot load, a Fool answer) or lays them face down (a
KOBLENZ secret engagement), the user's peer must not refuse it on that private knowledge: it
would convict alone while every other peer and the verifier, who cannot see the lie, abandon
with no blame. A face-up card is proven by the mover's decryption shares, which the table
publishes before it applies the move (every peer then refuses a false value together, on the
same reason); a face-down one is a claim decided when the cards open to everyone (the audit).
An honest move is accepted everywhere.
"""

from __future__ import annotations

from typing import Any

import pytest

from p2ptarot.cards.arcanoid_tables import CHARIOT, JUSTICE, PRIESTESS
from p2ptarot.engine import PUBLIC, IllegalMove, Move, Pass, create
from p2ptarot.games.arcanoid.moves import ChariotLoad, Engage, Fool, Play, Priestess
from p2ptarot.games.arcanoid.secret import SecretEngage

from .support import Table
from .test_arcana import idle, table
from .variants.support import vtable

P1, P2, P3, P4 = 0, 1, 2, 3
FOOL = "fool"


def _peer(st: Any, viewer: int | None) -> Any:
    """`viewer`'s partial state (None: an outsider, as the verifier), fed what it was shown."""
    peer = create("arcanoid", st.players, st.variant, options=st.options, viewer=viewer,
                  omniscient=False)
    shadow = create("arcanoid", st.players, st.variant, options=st.options)
    for entry in st._log:
        if entry[0] == "m":
            peer.apply(entry[1], entry[2])
            shadow.apply(entry[1], entry[2])
        elif entry[0] == "c":
            peer.resolve_chance({} if isinstance(entry[1], dict) else entry[1])
            shadow.resolve_chance(entry[1])
        elif entry[0] == "r":
            values = {r.handle: st.cards[r.handle] for r in shadow.turn().reveals
                      if r.to in (PUBLIC, viewer)}
            peer.resolve_reveals(values)
            shadow.resolve_reveals()
    return peer


def _peers(st: Any, looker: int, third: int) -> dict[str, Any]:
    return {"looker": _peer(st, looker), "third": _peer(st, third), "outsider": _peer(st, None)}


def _opened(peer: Any, st: Any, seat: int, move: Move) -> None:
    """What the table does before it applies `move`: the cards it turns face up are opened to
    everyone by the mover's proven decryption shares, and every peer learns their values."""
    for r in peer.move_reveals(seat, move):
        if peer.cards[r.handle] is None:
            peer.learn(r.handle, st.cards[r.handle])


def _looked(t: Table, target: int) -> int:
    """P1 plays the High Priestess on `target` and discards on its replay; returns a handle of
    the target's hand that P1 now knows privately."""
    st = t.state
    t.do(P1, Priestess(t.h(PRIESTESS), PRIESTESS, target))
    idle(t)
    h = st.parts[target].hand[-1]
    assert P1 in st.seen[h] and PUBLIC not in st.seen[h]
    return h


def _convicted_together(t: Table, liar: int, lie: Move, honest: Move, looked: int,
                        looker: int = P1) -> None:
    st = t.state
    with pytest.raises(IllegalMove):
        st.check(liar, lie)  # an omniscient state refuses it outright: it is a lie
    peers = _peers(st, looker, next(s for s in (P3, P4, P2) if s not in (liar, looker)))
    assert peers["looker"].cards[looked] is not None  # it knows the card, privately
    assert peers["outsider"].cards[looked] is None
    reasons = set()
    for name, peer in peers.items():
        peer.check(liar, lie)  # nobody refuses it from what only it knows
        _opened(peer, st, liar, lie)
        with pytest.raises(IllegalMove) as exc:
            peer.apply(liar, lie)
        assert exc.value.seat == liar, name
        reasons.add(exc.value.reason)
    assert len(reasons) == 1, reasons  # the same verdict at every peer
    for name, peer in _peers(st, looker, P4).items():  # the honest move: nobody is blamed
        _opened(peer, st, liar, honest)
        peer.apply(liar, honest)


def test_a_face_up_play_of_a_card_the_priestess_saw() -> None:
    """`_check_card`: P2 plays a numeric card of its hand as the Justice."""
    t = table({P1: [PRIESTESS], P2: [JUSTICE]})
    looked = _looked(t, P2)
    st = t.state
    assert st.cards[looked] != JUSTICE
    _convicted_together(t, P2, Play(looked, JUSTICE), Play(t.h(JUSTICE), JUSTICE), looked)


def test_an_engagement_declaring_a_card_the_priestess_saw_as_another() -> None:
    """Engage: the declared value of a card P1 saw is false."""
    t = table({P1: [PRIESTESS], P2: ["cups-5"]})
    _looked(t, P2)
    st = t.state
    h = t.h("cups-5")
    honest = Engage(("cups",), (h,), ("cups-5",))
    assert honest in st.legal_moves(P2)
    _convicted_together(t, P2, Engage(("cups",), (h,), ("cups-7",)), honest, h)


def test_a_chariot_loaded_with_a_card_the_priestess_saw_declared_as_another() -> None:
    """chariot._check_cards: the Chariot is loaded with a card P1 saw, under a false value."""
    t = table({P1: [PRIESTESS], P2: [CHARIOT, "cups-5"]})
    _looked(t, P2)
    h = t.h("cups-5")
    honest = ChariotLoad(t.h(CHARIOT), CHARIOT, (h,), ("cups-5",))
    lie = ChariotLoad(t.h(CHARIOT), CHARIOT, (h,), ("cups-7",))
    _convicted_together(t, P2, lie, honest, h)


def test_a_fool_answer_with_a_card_the_priestess_saw() -> None:
    """fool.check: P3 answers a Fool window with a numeric card of its hand as the Fool."""
    t = table({P1: [PRIESTESS], P2: ["swords-3"], P3: [FOOL]})
    looked = _looked(t, P3)
    st = t.state
    t.do(P2, Engage(("swords",), (t.h("swords-3"),), ("swords-3",)))
    assert st.turn().seats[0] == P3  # the Fool is hidden: P3 is asked first
    assert st.cards[looked] != FOOL
    _convicted_together(t, P3, Fool(looked, FOOL, P3), Fool(t.h(FOOL), FOOL, P3), looked)


def test_koblenz_an_illegal_secret_engagement_of_cards_the_priestess_saw() -> None:
    """secret.check_public: P1 saw every card P2 lays face down; its peer does not refuse the
    illegal content alone — it is the `secret-legal` claim at every peer, and the audit (which
    opens those cards to everyone) convicts P2 at every peer on the same claim. A legal one is
    never blamed."""
    t = vtable("KOBLENZ", {P1: [PRIESTESS], P2: ["cups-2", "coins-3", "cups-4"]})
    st = t.state
    t.do(P1, Priestess(t.h(PRIESTESS), PRIESTESS, P2))
    idle(t)
    lie = SecretEngage("cups", (t.h("cups-2"), t.h("coins-3")))
    honest = SecretEngage("cups", (t.h("cups-2"), t.h("cups-4")))
    with pytest.raises(IllegalMove):
        st.check(P2, lie)
    claims = set()
    for name, peer in _peers(st, P1, P3).items():
        assert all(peer.cards[h] is not None for h in lie.handles) == (name == "looker")
        peer.apply(P2, lie)  # a claim everywhere, the looker included
        claim = next(c for c in peer.claim_log if c.kind == "secret-legal")
        assert claim.seat == P2 and claim in peer.claims
        assert set(lie.handles) <= peer.audit_opens()
        with pytest.raises(IllegalMove) as exc:
            for h in sorted(peer.audit_opens()):
                peer.audited(h, st.cards[h])
        assert exc.value.seat == P2 and exc.value.claim == claim.id, name
        claims.add((exc.value.claim, exc.value.reason))
    assert len(claims) == 1
    for peer in _peers(st, P1, P3).values():
        peer.apply(P2, honest)
        for h in sorted(peer.audit_opens()):
            peer.audited(h, st.cards[h])
        assert not [c for c in peer.claims if c.kind == "secret-legal"]


def test_the_pass_of_an_asked_seat_is_never_judged() -> None:
    """A Fool window's pass is never evidence (fool.py): the looker accepts P3's pass although
    it knows P3 holds the Fool."""
    t = table({P1: [PRIESTESS], P2: ["swords-3"], P3: [FOOL]})
    _looked(t, P3)
    t.do(P2, Engage(("swords",), (t.h("swords-3"),), ("swords-3",)))
    for peer in _peers(t.state, P1, P4).values():
        peer.apply(P3, Pass())


def test_worms_a_reinforcement_declaring_a_card_the_priestess_saw_as_another() -> None:
    """worms._check: P2 looked at P1's hand; P1 reinforces its lone ace with a card P2 saw,
    under a false value."""
    from .variants.support import eng, idle as vidle, pass_windows
    from p2ptarot.games.arcanoid.variants.worms import Reinforce

    t = vtable("WORMS", {P1: ["cups-1", "cups-5"], P2: [PRIESTESS]})
    eng(t, P1, ("cups",), "cups-1")
    pass_windows(t)
    t.do(P2, Priestess(t.h(PRIESTESS), PRIESTESS, P1))
    vidle(t)  # P2's replay
    vidle(t), vidle(t)  # P3, P4
    h = t.h("cups-5")
    assert P2 in t.state.seen[h] and PUBLIC not in t.state.seen[h]
    honest = Reinforce("cups", (h,), ("cups-5",))
    assert honest in t.state.legal_moves(P1)
    _convicted_together(t, P1, Reinforce("cups", (h,), ("cups-7",)), honest, h, looker=P2)


def test_a_wheel_promotion_declared_as_another_card_is_refused_by_every_peer_alike() -> None:
    """wheel.check_discard: nobody but the drawer has seen a promoted card (it was just drawn), so
    no peer could judge it privately; the promotion opens it and every peer refuses a false
    value on the opened card, on the same reason."""
    from p2ptarot.cards.arcanoid_tables import STRENGTH, WHEEL
    from p2ptarot.games.arcanoid.moves import Strength, WheelDiscard

    t = table({P1: [STRENGTH]}, pile=("coins-2", WHEEL, "coins-3"))
    st = t.state
    t.do(P1, Strength(t.h(STRENGTH), STRENGTH, "visible"))
    p = st.parts[P1]
    for _ in range(3):
        idle(t)
    t.do(P1, Play(t.h(WHEEL), WHEEL))
    promote = next(x for x in st.ctx().data["new"] if x in p.hand)
    discards = (p.visible[-1],) + tuple(x for x in p.hand if x != promote)[:3]
    honest = WheelDiscard(discards, (promote,), (st.cards[promote],))
    lie = WheelDiscard(discards, (promote,), ("cups-9" if st.cards[promote] != "cups-9"
                                             else "cups-8",))
    with pytest.raises(IllegalMove):
        st.check(P1, lie)
    reasons = set()
    for name, peer in {"third": _peer(st, P3), "outsider": _peer(st, None)}.items():
        peer.check(P1, lie)
        _opened(peer, st, P1, lie)
        with pytest.raises(IllegalMove) as exc:
            peer.apply(P1, lie)
        assert exc.value.seat == P1, name
        reasons.add(exc.value.reason)
    assert len(reasons) == 1
    for peer in (_peer(st, P3), _peer(st, None)):
        _opened(peer, st, P1, honest)
        peer.apply(P1, honest)
