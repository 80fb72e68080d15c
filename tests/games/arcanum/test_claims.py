"""§9–§10 hidden information: kinds public by default; under wheelHidesKind a lie about a
Wheel-passed card is caught at once by an omniscient state and at the opening by the others."""

from __future__ import annotations

import random

import pytest

from p2ptarot.engine import IllegalMove, Move
from p2ptarot.games.arcanum.moves import Choose, Give, Hide, PlayMajor

from .support import Table, replay_partial, scenario

HANDS = [["swords-1", "swords-2", "cups-9", "wands-10", "major-10"],
         ["coins-1", "coins-2", "coins-3", "coins-4", "major-5"],
         ["cups-1", "cups-2", "cups-3", "cups-4", "major-6"]]


def _wheel(variant: str | None) -> tuple[Table, int]:
    t = scenario(HANDS, variant=variant, figures={"fig-swords-knave": 3})
    t.do(0, PlayMajor(t.hand(0)["major-10"], "major-10"))
    major5 = t.hand(1)["major-5"]
    t.g.apply(0, Give((t.hand(0)["swords-1"], t.hand(0)["swords-2"])))
    t.g.apply(1, Give((t.hand(1)["coins-1"], major5)))
    t.g.apply(2, Give((t.hand(2)["cups-1"], t.hand(2)["cups-2"])))
    t.settle()
    assert major5 in t.g.z.hands[2]
    return t, major5


def _avoiding(t: Table, handle: int, until) -> None:
    """Random legal play that never touches `handle`, until `until(state)` holds."""
    rng = random.Random(7)
    while not until(t.g):
        ctx = t.g.ctx()
        assert ctx is not None
        seat = next(s for s in t.g.turn().seats if s not in ctx.answers)
        moves = [m for m in t.g.legal_moves(seat) if handle not in _handles(m)]
        t.g.apply(seat, rng.choice(moves))
        t.settle()


def _handles(m: Move) -> set[int]:
    out: set[int] = set()
    for name in ("handle", "handles", "give", "take"):
        v = getattr(m, name, None)
        if isinstance(v, int):
            out.add(v)
        elif isinstance(v, tuple):
            out.update(v)
    return out


def test_default_kinds_stay_public_after_a_wheel() -> None:
    t, major5 = _wheel(None)
    assert t.g.kind[major5] == "major"
    assert t.g.public_has_minor(2) is True
    part = replay_partial(t.g, 0, audit=False)
    with pytest.raises(IllegalMove):
        part.check(0, PlayMajor(major5, "major-5"))  # not seat 0's card anyway


def test_hidden_wheel_lie_is_caught_at_once_by_the_omniscient_state_and_later_by_others() -> None:
    t, major5 = _wheel("HIDDEN-WHEEL")
    assert t.g.kind[major5] is None
    _avoiding(t, major5, lambda g: g.turn_no == 2 and g.phase == "hide")
    lie = Hide((major5,))
    with pytest.raises(IllegalMove) as caught:
        t.g.check(2, lie)
    assert caught.value.seat == 2
    observer = replay_partial(t.g, 0, audit=False)
    observer.check(2, lie)  # seat 0 cannot tell: the move passes and becomes a claim
    observer.apply(2, lie)
    for seat in (0, 1):  # the others' blind hides complete the round
        if seat in t.g.turn().seats:
            observer.apply(seat, t.g.legal_moves(seat)[-1])
    assert observer.phase == "play"
    assert [(c.seat, c.kind) for c in observer.claims][-1] == (2, "minor")
    with pytest.raises(IllegalMove) as audit:
        observer.learn(major5, "major-5")  # the opening (scoring, Sun, World or the audit)
    assert audit.value.seat == 2


def test_hidden_wheel_honest_hide_of_a_passed_minor_passes_the_audit() -> None:
    t, major5 = _wheel("HIDDEN-WHEEL")
    coins1 = next(h for h in t.g.z.hands[2] if t.g.cards[h] == "coins-1")
    assert t.g.kind[coins1] is None
    _avoiding(t, coins1, lambda g: g.turn_no == 2 and g.phase == "hide")
    t.g.apply(2, Hide((coins1,)))
    _avoiding(t, coins1, lambda g: g.phase != "hide")
    observer = replay_partial(t.g, 0, audit=True)  # learning every value decides every claim
    assert any(c.kind == "minor" and c.seat == 2 for c in observer.claim_log)
    assert not observer.claims  # every claim decided (true) by the audit


def _drop_public_minors(seat: int):
    """A direct edit: `seat`'s minors of public kind leave its hand for the discard pile."""
    def edit(g) -> None:
        for h in [h for h in g.z.hands[seat] if g.kind[h] == "minor"]:
            g.z.hands[seat].remove(h)
            g.z.discard["minor"].append(h)
    return edit


def test_hidden_wheel_false_no_minor_claim_is_caught_when_the_card_opens() -> None:
    t, major5 = _wheel("HIDDEN-WHEEL")
    coins1 = next(h for h in t.g.z.hands[2] if t.g.cards[h] == "coins-1")
    _avoiding(t, coins1, lambda g: g.active == 1)
    at = len(t.g._log)
    edit = _drop_public_minors(2)
    edit(t.g)
    _avoiding(t, coins1, lambda g: g.active == 2)
    assert t.decision() == "forced-draw"  # the public cannot tell whether seat 2 holds a minor
    assert t.g.legal_moves(2) == [Choose("keep")]
    with pytest.raises(IllegalMove):
        t.g.check(2, Choose("draw"))  # the omniscient state knows coins-1 is a minor
    observer = replay_partial(t.g, 0, audit=False, edits={at: edit})
    observer.apply(2, Choose("draw"))
    claims = [c for c in observer.claims if c.kind == "not-minor" and c.seat == 2]
    assert {dict(c.detail)["handle"] for c in claims} == {coins1, major5}
    observer.learn(major5, "major-5")  # true for the Hierophant: settled
    with pytest.raises(IllegalMove) as caught:
        observer.learn(coins1, "coins-1")
    assert caught.value.seat == 2 and caught.value.claim is not None


def test_hidden_wheel_temperance_face_down_swap_claims_a_minor() -> None:
    """§10 claim 2: the card entering the hidden area is a minor or the Fool; the Fool is opened
    (R25), so a face-down one claims a minor — a face-down Fool is refused like any major."""
    t = scenario(HANDS, variant="HIDDEN-WHEEL", figures={"fig-swords-knave": 3})
    g = t.g
    h = t.hand(1)["coins-1"]
    g.kind[h] = None  # as after a Wheel
    g.on_swapped_in(1, h)
    assert [c.kind for c in g.claim_log] == ["minor"] and not g.claims  # true, settled
    g.kind[t.hand(1)["major-5"]] = None
    with pytest.raises(IllegalMove):
        g.on_swapped_in(1, t.hand(1)["major-5"])
