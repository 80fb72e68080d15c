"""Cheating in partial mode is caught at the audit (or at once when known), blaming the right
seat: a hidden called card (Star/Moon/Sun "not held") and an incomplete Pope showing."""

from __future__ import annotations

import pytest

from p2ptarot.cards.arcanoid_tables import POPE, STAR
from p2ptarot.engine import PUBLIC, IllegalMove, Pass, TurnKind, create
from p2ptarot.games.arcanoid.moves import Call, Pope, Show

from .support import Table, filler

P1, P2, P3, P4 = 0, 1, 2, 3


def _hands() -> list[list[str]]:
    base = filler(4, exclude=("cups-queen", "cups-9"))
    base[0][0] = STAR
    base[0][1] = POPE
    base[3][0] = "cups-queen"
    base[2][0] = "cups-9"
    return base


def _peer(t: Table, viewer: int):
    """A partial-knowledge peer fed with exactly what `viewer` is shown so far."""
    omni = t.state
    shadow = create("arcanoid", 4, options=omni.options)
    peer = create("arcanoid", 4, options=omni.options, viewer=viewer, omniscient=False)
    for entry in omni._log:
        if entry[0] == "c":
            peer.resolve_chance({} if isinstance(entry[1], dict) else entry[1])
            shadow.resolve_chance(entry[1])
        elif entry[0] == "r":
            values = {r.handle: omni.cards[r.handle] for r in shadow.turn().reveals
                      if r.to in (PUBLIC, viewer)}
            peer.resolve_reveals(values)
            shadow.resolve_reveals()
    return peer


def _audit(peer, omni) -> None:
    """As the table's audit: the handles claims need, opened to everyone."""
    for h in sorted(peer.audit_opens()):
        peer.audited(h, omni.cards[h])


def test_hidden_called_card_is_blamed_at_the_audit() -> None:
    t = Table(_hands())
    peer = _peer(t, P1)
    call = Call(t.h(STAR), STAR, "cups-queen")
    peer.apply(P1, call)
    assert peer.turn().kind is TurnKind.INTERRUPT
    with pytest.raises(IllegalMove):  # the honest omniscient engine refuses the lie outright
        t.state.apply(P1, call) or t.advance() or [t.state.apply(s, Pass()) for s in (P1, P2, P3, P4)]
    for s in (P1, P2, P3, P4):
        peer.apply(s, Pass())  # P4 lies: "not me"
    claims = [c for c in peer.claim_log if c.kind == "not-held"]
    assert {c.seat for c in claims} == {P1, P2, P3, P4}
    with pytest.raises(IllegalMove) as err:
        _audit(peer, t.state)
    assert err.value.seat == P4


def test_incomplete_pope_showing_is_blamed() -> None:
    t = Table(_hands())
    peer = _peer(t, P1)
    peer.apply(P1, Pope(t.h(POPE), POPE, "cups"))
    peer.resolve_reveals() if peer.turn().kind is TurnKind.REVEAL else None
    assert peer.turn().kind is TurnKind.SIMULTANEOUS
    queen = t.h("cups-queen")
    peer.apply(P1, Show((), ()))
    peer.apply(P2, Show((), ()))
    peer.apply(P3, Show((), ()))  # P3 hides cups-9
    peer.apply(P4, Show((queen,), ("cups-queen",)))
    with pytest.raises(IllegalMove) as err:
        _audit(peer, t.state)
    assert err.value.seat == P3


def test_pope_lie_about_a_known_card_is_refused_at_once() -> None:
    t = Table(_hands())
    t.do(P1, Pope(t.h(POPE), POPE, "cups"))
    with pytest.raises(IllegalMove) as err:
        t.state.apply(P1, Show((), ()))
        t.state.apply(P2, Show((), ()))
        t.state.apply(P3, Show((), ()))
    assert err.value.seat == P3


def test_honest_claims_pass_the_audit() -> None:
    t = Table(_hands())
    peer = _peer(t, P2)
    peer.apply(P1, Call(t.h(STAR), STAR, "cups-king"))
    for s in peer.turn().seats:
        peer.apply(s, Pass())
    _audit(peer, t.state)
    assert len([c for c in peer.claim_log if c.kind == "not-held"]) == 4
    assert peer.claims == []  # every claim settled by the audit
