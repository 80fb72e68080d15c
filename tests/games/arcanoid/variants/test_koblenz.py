"""KOBLENZ (rules §8.3, §9.2 items 3–5): K1–K6 and rulings A83–A85."""

from __future__ import annotations

import pytest

from p2ptarot.cards.arcanoid_tables import EMPEROR, EMPRESS, FOOL, MAGICIAN, POPE, TOWER, WORLD
from p2ptarot.engine import PUBLIC, IllegalMove, Pass, TurnKind, create
from p2ptarot.games.arcanoid.moves import Fool, Pope, Show, Tower
from p2ptarot.games.arcanoid.secret import FoolOutcome, SecretEngage

from .support import abdicate_to_the_end, P1, P2, P3, P4, idle, pass_windows, refused, vtable


def secret(t, seat: int, field: str, *cards: str) -> None:
    t.do(seat, SecretEngage(field, tuple(t.h(c) for c in cards)))


def test_k1_k5_one_secret_engagement_per_round() -> None:
    t = vtable("KOBLENZ", {P1: ["cups-2", "cups-3", "coins-4"]})
    secret(t, P1, "cups", "cups-2", "cups-3")
    pass_windows(t)
    idle(t), idle(t), idle(t)
    assert "one secret" in refused(t, P1, SecretEngage("coins", (t.h("coins-4"),)))
    assert not [m for m in t.state.legal_moves(P1) if isinstance(m, SecretEngage)]


def test_k2_face_down_count_public_values_hidden_from_peers() -> None:
    t = vtable("KOBLENZ", {P1: ["cups-2", "cups-3"]})
    st = t.state
    secret(t, P1, "cups", "cups-2", "cups-3")
    rec = st.parts[P1].records["cups"]
    assert rec.secret and len(rec.handles) == 2
    assert all(PUBLIC not in st.seen[h] for h in rec.handles)
    other = st.view(P2)["participants"][P1]["records"]["cups"]
    assert other["count"] == 2 and other["cards"] == [] and other["secret"]
    mine = st.view(P1)["participants"][P1]["records"]["cups"]
    assert sorted(mine["cards"]) == ["cups-2", "cups-3"]
    claims = [c for c in st.claim_log if c.kind == "secret-legal"]
    assert claims and dict(claims[0].detail)["handles"] == rec.handles


def test_k2_a83_content_is_a_nassau_engagement_on_one_field() -> None:
    t = vtable("KOBLENZ", {P1: ["cups-2", "coins-3", MAGICIAN, EMPRESS, EMPEROR, WORLD]})
    assert refused(t, P1, SecretEngage("cups", (t.h("cups-2"), t.h("coins-3"))))  # off suit
    assert refused(t, P1, SecretEngage("cups", (t.h(WORLD),)))  # never the World
    assert "at least one" in refused(t, P1, SecretEngage("cups", ()))
    legal = t.state.legal_moves(P1)
    # a transmuting Magician inside, and the imperial couple on this one field
    assert SecretEngage("cups", (t.h("cups-2"), t.h("coins-3"), t.h(MAGICIAN))) in legal
    assert SecretEngage("cups", (t.h(EMPRESS), t.h(EMPEROR))) in legal
    secret(t, P1, "cups", "cups-2", "coins-3", MAGICIAN)


def test_k3_revealed_and_scored_at_the_round_end() -> None:
    t = vtable("KOBLENZ", {P1: ["cups-9", "cups-10", POPE]}, n=2, rounds=1)
    st = t.state
    secret(t, P1, "cups", "cups-9", "cups-10")
    pass_windows(t)
    handles = st.parts[P1].records["cups"].handles
    idle(t)
    t.do(P1, Pope(t.h(POPE), POPE, "cups"))  # K3: the Pope never reaches a secret engagement
    assert st.ctx().name == "pope"
    for seat in (P1, P2):
        shown = [h for h in st.parts[seat].hand if (st.cards[h] or "").startswith("cups")]
        t.do(seat, Show(tuple(shown), tuple(st.cards[h] for h in shown)))
    assert all(PUBLIC not in st.seen[h] for h in handles)
    abdicate_to_the_end(t)
    assert all(PUBLIC in st.seen[h] for h in handles)
    rec = st.round_records[0]["cups"][P1]
    assert sorted(rec["cards"]) == ["cups-10", "cups-9"]
    assert st.round_winners[0]["cups"] == P1


def _attempt(cards: list[str], outcome: str):
    t = vtable("KOBLENZ", {P1: cards, P2: [FOOL]})
    st = t.state
    secret(t, P1, "cups", *cards[:2])
    assert st.ctx().name == "fool"  # K4: the window always opens
    t.do(P2, Fool(t.h(FOOL), FOOL, P2))
    pass_windows(t)
    assert st.ctx().name == "fool-outcome" and st.turn().seats == (P2,)
    return t, st


def test_k4_a84_fool_steals_a_stealable_secret_engagement() -> None:
    t, st = _attempt(["cups-2", "cups-3"], "stolen")
    handles = st.parts[P1].records["cups"].handles
    assert all(P2 in st.seen[h] and PUBLIC not in st.seen[h] for h in handles)  # private look
    assert st.legal_moves(P2) == [FoolOutcome("stolen")]
    assert "stealable" in refused(t, P2, FoolOutcome("lost"))
    t.do(P2, FoolOutcome("stolen"))
    rec = st.parts[P2].records["cups"]
    assert rec.secret and rec.handles == handles and "cups" not in st.parts[P1].records
    assert P1 in st.secret_used and P2 not in st.secret_used  # A84


def test_k4_a85_fool_lost_on_a_protected_secret_engagement() -> None:
    t, st = _attempt(["cups-1", "cups-3"], "lost")  # an ace protects it (NASSAU rules)
    assert "not stealable" in refused(t, P2, FoolOutcome("stolen"))
    t.do(P2, FoolOutcome("lost"))
    assert "cups" in st.parts[P1].records and "cups" not in st.parts[P2].records
    assert t.h(FOOL) in st.discard


def test_k4_false_outcome_is_a_claim_blamed_on_the_thief() -> None:
    """A peer that cannot see the cards records the outcome as a claim; the reveal decides it."""
    t, st = _attempt(["cups-1", "cups-3"], "lost")
    peer = create("arcanoid", 4, "KOBLENZ", options=st.options, viewer=P3, omniscient=False)
    shadow = create("arcanoid", 4, "KOBLENZ", options=st.options)
    for entry in st._log:
        if entry[0] == "m":
            peer.apply(entry[1], entry[2]); shadow.apply(entry[1], entry[2])
        elif entry[0] == "c":
            peer.resolve_chance({} if isinstance(entry[1], dict) else entry[1])
            shadow.resolve_chance(entry[1])
        elif entry[0] == "r":
            vals = {r.handle: st.cards[r.handle] for r in shadow.turn().reveals
                    if r.to in (PUBLIC, P3)}
            peer.resolve_reveals(vals); shadow.resolve_reveals()
    peer.apply(P2, FoolOutcome("stolen"))  # the lie passes where the cards are unknown
    claim = peer.claim_log[-1]
    assert claim.kind == "fool-outcome" and claim.seat == P2
    h = dict(claim.detail)["handles"]
    peer.audited(h[0], st.cards[h[0]])  # the audit opens them to everyone
    with pytest.raises(IllegalMove) as exc:
        peer.audited(h[1], st.cards[h[1]])
    assert exc.value.seat == P2 and exc.value.claim == claim.id


def _peer(st, viewer: int):
    """`viewer`'s partial state, fed only what it is shown (as over the network)."""
    peer = create("arcanoid", 4, "KOBLENZ", options=st.options, viewer=viewer, omniscient=False)
    shadow = create("arcanoid", 4, "KOBLENZ", options=st.options)
    for entry in st._log:
        if entry[0] == "m":
            peer.apply(entry[1], entry[2]); shadow.apply(entry[1], entry[2])
        elif entry[0] == "c":
            peer.resolve_chance({} if isinstance(entry[1], dict) else entry[1])
            shadow.resolve_chance(entry[1])
        elif entry[0] == "r":
            vals = {r.handle: st.cards[r.handle] for r in shadow.turn().reveals
                    if r.to in (PUBLIC, viewer)}
            peer.resolve_reveals(vals); shadow.resolve_reveals()
    return peer


def test_k4_a_false_outcome_is_never_judged_from_the_engagers_private_knowledge() -> None:
    """Issue 24 item 5: the engager knows its own face-down cards, so its state could refute the
    thief's false "stolen" alone — one peer convicting while every other abandons. It does not:
    the claim waits, like everywhere else, until the cards open to everyone (the end-of-round
    reveal, or the audit that opens them for the claim); then the engager, a third seat and an
    outsider convict the thief together, on the same claim."""
    t, st = _attempt(["cups-1", "cups-3"], "lost")
    engager, third, outsider = _peer(st, P1), _peer(st, P3), _peer(st, None)
    h = st.parts[P1].records["cups"].handles
    assert all(engager.cards[x] is not None for x in h)  # it knows them, privately
    lie = FoolOutcome("stolen")
    for peer in (engager, third, outsider):
        peer.check(P2, lie)  # nobody refuses it from private knowledge
        peer.apply(P2, lie)
        claim = peer.claim_log[-1]
        assert claim.kind == "fool-outcome" and claim.seat == P2 and claim in peer.claims
        assert set(h) <= peer.audit_opens()  # the audit will open exactly what it needs
    ids = set()
    for peer in (engager, third, outsider):
        peer.audited(h[0], st.cards[h[0]])
        with pytest.raises(IllegalMove) as exc:
            peer.audited(h[1], st.cards[h[1]])
        assert exc.value.seat == P2
        ids.add(exc.value.claim)
    assert len(ids) == 1


def test_k6_tower_discards_it_unrevealed() -> None:
    t = vtable("KOBLENZ", {P1: ["cups-2", "cups-3"], P2: [TOWER]})
    st = t.state
    secret(t, P1, "cups", "cups-2", "cups-3")
    pass_windows(t)
    handles = st.parts[P1].records["cups"].handles
    t.do(P2, Tower(t.h(TOWER), TOWER, P1, "cups"))
    assert "cups" not in st.parts[P1].records
    assert all(h in st.discard and PUBLIC not in st.seen[h] for h in handles)
    assert P1 in st.secret_used  # K5


def test_k2_illegal_secret_engagement_is_refused_where_known_and_claimed_elsewhere() -> None:
    t = vtable("KOBLENZ", {P1: ["cups-2", "coins-3"]})
    st = t.state
    move = SecretEngage("cups", (t.h("cups-2"), t.h("coins-3")))
    assert "secret engagement on cups" in refused(t, P1, move)
    peer = create("arcanoid", 4, "KOBLENZ", options=st.options, viewer=P2, omniscient=False)
    peer.resolve_chance({})
    while peer.turn().kind is TurnKind.REVEAL:
        peer.resolve_reveals({r.handle: st.cards[r.handle] for r in peer.turn().reveals
                              if r.to == P2})
    peer.apply(P1, move)  # accepted where the cards are unknown: a numbered claim
    claim = next(c for c in peer.claim_log if c.kind == "secret-legal")
    assert claim.seat == P1 and claim in peer.claims
    peer.audited(move.handles[0], "cups-2")  # opened to everyone (reveal or audit)
    with pytest.raises(IllegalMove) as exc:
        peer.audited(move.handles[1], "coins-3")
    assert exc.value.seat == P1 and exc.value.claim == claim.id


def test_a83_a_chariot_engagement_may_be_made_secret() -> None:
    from p2ptarot.cards.arcanoid_tables import CHARIOT
    from p2ptarot.games.arcanoid.moves import ChariotLoad

    t = vtable("KOBLENZ", {P1: [CHARIOT, "cups-2", "cups-3", "coins-4"]})
    st = t.state
    t.do(P1, ChariotLoad(t.h(CHARIOT), CHARIOT, (t.h("cups-2"),), ("cups-2",)))
    idle(t), idle(t), idle(t)
    assert "no active Chariot" not in refused(t, P1, SecretEngage("cups", (t.h("coins-4"),), True))
    t.do(P1, SecretEngage("cups", (t.h("cups-3"),), True))
    rec = st.parts[P1].records["cups"]
    assert rec.secret and rec.handles == (t.h("cups-2"), t.h("cups-3"))
    assert st.parts[P1].chariot < 0 and t.h(CHARIOT) in st.discard
    assert PUBLIC not in st.seen[t.h("cups-3")]  # only the reserve card was public
    assert st.view(P2)["participants"][P1]["records"]["cups"]["cards"] == ["cups-2"]
