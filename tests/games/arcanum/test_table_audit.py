"""A lie only the end-of-game audit can expose (§10 claim 3, wheelHidesKind), over real mental
poker: seat 2 says "I hold no minor" for a forced draw while holding a minor passed by a colluding
seat 1 (both engines blind to it) — or by an honest seat 1 that knows it. Hands are never opened by
the rules, so the honest seats and the offline verifier convict seat 2 when the audit opens the
cards the claim covers (and only those), naming the lie's step."""

from __future__ import annotations

from typing import Any

import pytest

from p2ptarot.games.arcanum.moves import Choose, Discard, Give, Hide, PlayMajor, PlayMinor
from p2ptarot.table.envelope import parse

from .test_table_game import _harness, _stacked_decks, _until_public

HANDS = [["swords-1", "swords-2", "swords-10", "swords-4"],
         ["coins-1", "coins-2", "coins-3", "coins-4"],
         ["cups-1", "cups-2", "cups-3", "cups-4"]]
MAJORS = ["major-10", "major-5", "major-6"]
COINS1, MAJOR5 = 4, 57  # minor handles 0–55 dealt 4 per seat from seat 0; majors from 56
SECRET = {"coins-1"}


def _known(t: Any, seat: int, card: str) -> int | None:
    game = t.sessions[seat].game
    return next((h for h in game.z.hands[seat] if game.cards[h] == card), None)


def _scripts(t: Any) -> dict[int, Any]:
    done: set[str] = set()

    def first(tag: str, move: Any) -> Any:
        if move is None or tag in done:
            return None
        done.add(tag)
        return move

    def seat0(legal: list) -> Any:
        game = t.sessions[0].game
        if game.turn_no != 1 or not legal:
            return None
        if isinstance(legal[0], Hide) and game.phase == "hide":
            return first("hide0", Hide((_known(t, 0, "swords-4"),)))
        if any(isinstance(m, PlayMajor) and m.card == "major-10" for m in legal):
            return first("wheel", next(m for m in legal if isinstance(m, PlayMajor) and m.card == "major-10"))
        if isinstance(legal[0], Give):
            return first("give0", Give((_known(t, 0, "swords-1"), _known(t, 0, "swords-2"))))
        castle = [m for m in legal if isinstance(m, PlayMinor) and m.card == "swords-10" and m.dest == 10]
        return first("castle", castle[0] if castle else None)

    def seat1(legal: list) -> Any:
        if legal and isinstance(legal[0], Give):
            return first("give1", Give((COINS1, MAJOR5)))
        return None

    def seat2(legal: list) -> Any:
        game = t.sessions[2].game
        if not legal or game.turn_no != 1:
            return None
        cups = [h for h in game.z.hands[2] if (game.cards[h] or "").startswith("cups")]
        name = game.ctx().name if game.ctx() else ""
        if name == "wheel":
            return first("give2", Give(tuple(cups[:2])))
        if name == "castle":
            return first("castle2", Discard((cups[0],), (game.cards[cups[0]],)))
        if name == "harbour":
            return Choose("pass")
        if name == "forced-draw":
            return first("lie", Choose("draw"))
        return None

    return {0: seat0, 1: seat1, 2: seat2}


def _play(blind_seats: tuple[int, ...]) -> Any:
    harness = _harness()
    t = harness.Table("arcanum", 3, seed=11, bot="random",
                      options={"first_seat": 0, "wheelHidesKind": True})
    cls = _until_public(harness)
    for k in blind_seats:
        t.sessions[k] = cls(t.signed, k, t.ids[k], t.seeds[k], blind=frozenset(SECRET))
    t.scripts = _scripts(t)
    with _stacked_decks(HANDS, MAJORS):
        t.run()
    return t


@pytest.fixture(scope="module")
def audited():
    """Seat 1, the giver, colludes (blind to the card it passed as well)."""
    return _play((1, 2))


@pytest.fixture(scope="module")
def honest_giver():
    """Seat 1, the giver, is honest: it knows the minor it passed (issue 24 item 5: it used to
    convict alone, from private knowledge, while every other peer abandoned with no blame)."""
    return _play((2,))


def test_with_an_honest_giver_every_peer_and_the_verifier_convict_the_liar(honest_giver) -> None:
    """The giver does not act on its private knowledge: the "no minor" claim is deferred to the
    audit, which opens the cards it covers; then the giver, the third seat and the verifier
    convict seat 2 together, at the lie's step, with the same evidence."""
    t = honest_giver
    lies = [e for e in map(parse, t.records[0]) if e.kind == "move" and e.seat == 2
            and e.body["move"] == {"kind": "choose", "option": "draw"}]
    assert lies, "seat 2 declared a forced draw"
    for k in (0, 1):
        aborted = t.aborted[k]
        assert aborted is not None and aborted.blame == 2, aborted
        assert aborted.step == lies[0].step and "coins-1" in aborted.reason
        assert [e.body["move"] for e in aborted.evidence] == [{"kind": "choose", "option": "draw"}]
        game = t.sessions[k].game
        assert game.turn_no == game.rules.turns(3)  # proven at the very end, by the audit
        from p2ptarot.transcript import Transcript, verify_transcript

        verdict = verify_transcript(Transcript(t.signed, t.records[k]))
        assert not verdict.valid and verdict.seat == 2 and verdict.step == lies[0].step


def test_the_no_minor_lie_is_convicted_at_the_audit(audited) -> None:
    t = audited
    lies = [e for e in map(parse, t.records[0]) if e.kind == "move" and e.seat == 2
            and e.body["move"] == {"kind": "choose", "option": "draw"}]
    assert lies, "seat 2 declared a forced draw"
    honest = t.aborted[0]
    assert honest is not None and honest.blame == 2, honest
    assert honest.step == lies[0].step and "coins-1" in honest.reason
    session = t.sessions[0]
    assert session.game.turn_no == session.game.rules.turns(3)  # found at the very end
    claims = [c for c in session.game.claim_log if c.kind == "not-minor" and c.seat == 2]
    assert {dict(c.detail)["handle"] for c in claims} == {COINS1, MAJOR5}
    assert session.step > honest.step + 50  # told in turn 1, proven at the audit
    from p2ptarot.transcript import Transcript, verify_transcript

    verdict = verify_transcript(Transcript(t.signed, t.records[0]))
    assert not verdict.valid and verdict.seat == 2 and verdict.step == lies[0].step
