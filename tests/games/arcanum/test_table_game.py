"""Networked in-memory Arcanum games: real mental poker, signed log, sans-I/O sessions wired by a
queue (tests/table/harness.py). Both decks are stacked (the first shuffler applies the stacking
permutation) so the scene is fixed: seat 0 opens with the Wheel, seat 1 passes a major to seat 2.

* honest play: the verifier accepts a log with the Wheel's re-encrypted passes (seat agreement
  and the verifier on a random game: tests/table/test_every_game.py), and the Wheel's cards were
  shown to their receivers by proven re-encryption;
* under wheelHidesKind, seat 2 (blind to the major it received, so its own engine signs the lie)
  hides that major as a minor: to every peer, the giver included (it does not act on private
  knowledge), the lie is a claim until the card opens to everyone; then every peer and the
  verifier convict seat 2;
* with a colluding giver (blind as well), the lie stands until the scoring opens the card: then
  the third seat and the offline verifier convict seat 2 at the step of its signed hide.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Any, Iterator
from unittest import mock

import pytest

import p2ptarot.mental.epoch as mental_epoch
from p2ptarot.games.arcanum.rules import MAJOR_CARDS, MINOR_CARDS
from p2ptarot.games.arcanum.moves import Give, Hide, PlayMajor
from p2ptarot.table.envelope import parse
from tests.table import harness

SEATS = 3
HANDS = [["swords-1", "swords-2", "swords-3", "swords-4"],
         ["coins-1", "coins-2", "coins-3", "coins-4"],
         ["cups-1", "cups-2", "cups-3", "cups-4"]]
MAJORS = ["major-10", "major-5", "major-6"]  # seat 0 the Wheel, seat 1 the Hierophant
PASSED = "major-5"


def _harness():
    """The in-memory table harness of tests/table."""
    return harness


@contextmanager
def _stacked_decks(hands: list[list[str]] = HANDS, majors: list[str] = MAJORS) -> Iterator[None]:
    """The minor deck deals `hands`, the major deck `majors` (then canonical order, then seeded)."""
    minors = [c for h in hands for c in h]
    minor_stack = minors + [c for c in MINOR_CARDS if c not in minors]
    major_stack = majors + [c for c in MAJOR_CARDS if c not in majors]
    wanted = {1: [list(MINOR_CARDS).index(c) for c in minor_stack],
              SEATS + 1: [list(MAJOR_CARDS).index(c) for c in major_stack]}
    calls = {"n": 0}

    def permutation(rng: Any, size: int) -> list[int]:
        calls["n"] += 1
        if calls["n"] in wanted:
            return list(wanted[calls["n"]])
        if calls["n"] <= 2 * SEATS:
            return list(range(size))
        perm = list(range(size))
        random.Random(calls["n"]).shuffle(perm)
        return perm

    with mock.patch.object(mental_epoch, "random_permutation", permutation):
        yield


def _handle_of(t: Any, card: str) -> int:
    """The handle dealt `card` (the first major dealt to seat 1, whoever was told its value)."""
    game = t.sessions[0].game
    known = next((h for h, c in enumerate(game.cards) if c == card), None)
    return known if known is not None else t.passed[0]


def _scripts(t: Any, lie: bool) -> dict[int, Any]:
    done: set[str] = set()
    t.passed = []

    def seat0(legal: list) -> Any:
        wheel = next((m for m in legal if isinstance(m, PlayMajor) and m.card == "major-10"), None)
        if wheel is not None and "wheel" not in done:
            done.add("wheel")
            return wheel
        return None

    def seat1(legal: list) -> Any:
        if legal and isinstance(legal[0], Give):
            game = t.sessions[1].game
            h = next(h for h in game.z.hands[1] if game.kind[h] == "major" or game.cards[h] == PASSED)
            t.passed.append(h)
            return next(m for m in legal if h in m.handles)
        return None

    def seat2(legal: list) -> Any:
        game = t.sessions[2].game
        if lie and legal and isinstance(legal[0], Hide) and game.turn_no == 2 and game.phase == "hide":
            return Hide((_handle_of(t, PASSED),))
        return None

    return {0: seat0, 1: seat1, 2: seat2}


def _until_public(harness: Any) -> type:
    """A blind seat that stops pretending once a card is opened to everyone (a liar's engine
    would otherwise be unable to score, and the in-memory table runs every seat in one process)."""
    from p2ptarot.engine import PUBLIC
    from p2ptarot.table.session import Session

    class UntilPublic(harness.BlindSession):
        def _sync_known(self) -> None:
            learn = self.game.learn

            def filtered(h: int, c: str) -> None:
                opening = any(r.handle == h and r.to == PUBLIC for r in self.game.turn().reveals)
                if c not in self.blind or opening or PUBLIC in self.game.seen[h]:
                    learn(h, c)

            self.game.learn = filtered  # type: ignore[method-assign]
            try:
                Session._sync_known(self)
            finally:
                del self.game.learn

    return UntilPublic


def _table(lie: bool, blind: dict[int, set[str]] | None = None) -> Any:
    harness = _harness()
    options = {"first_seat": 0, "wheelHidesKind": True} if lie else {"first_seat": 0}
    t = harness.Table("arcanum", SEATS, seed=7, bot="random", options=options, blind=blind)
    cls = _until_public(harness)
    for k, cards in (blind or {}).items():
        t.sessions[k] = cls(t.signed, k, t.ids[k], t.seeds[k], blind=frozenset(cards))
    t.scripts = _scripts(t, lie)
    with _stacked_decks():
        t.run()
    return t


@pytest.fixture(scope="module")
def honest():
    return _table(lie=False)


@pytest.fixture(scope="module")
def liar():
    return _table(lie=True, blind={2: {PASSED}})


@pytest.fixture(scope="module")
def colluders():
    """The giver is in the plot (blind too): only the card's opening can convict the liar."""
    return _table(lie=True, blind={1: {PASSED}, 2: {PASSED}})


def _moves(t: Any) -> list[tuple[int, dict]]:
    return [(e.seat, e.body["move"]) for e in map(parse, t.records[0])
            if e.kind in ("move", "move.open")]  # blind (SIMULTANEOUS) moves open in move.open


def test_the_wheel_passes_cards_by_proven_reencryption(honest) -> None:
    moves = _moves(honest)
    assert any(s == 0 and m.get("card") == "major-10" for s, m in moves)
    gives = [(s, m) for s, m in moves if m["kind"] == "give"]
    assert len(gives) == SEATS
    received = {h: (s + 1) % SEATS for s, m in gives for h in m["handles"]}
    opened = [(s, m) for s, m in moves if m.get("handle") in received and s == received[m["handle"]]
              or m["kind"] == "discard" and any(received.get(h) == s for h in m["handles"])]
    assert opened, "a receiver later opened a passed card (its last share, after the re-encryption)"
    assert any(e.kind == "mental.reencrypt" for e in map(parse, honest.records[0]))
    # seat 2 received the Hierophant, shown to it (and its giver) only
    h = _handle_of(honest, PASSED)
    assert honest.sessions[2].game.cards[h] == PASSED
    assert 2 in honest.sessions[0].game.seen[h] or -1 in honest.sessions[0].game.seen[h]


def test_the_verifier_accepts_the_log(honest) -> None:
    from p2ptarot.transcript import Transcript, verify_transcript

    assert all(a is None for a in honest.aborted), honest.aborted
    verdict = verify_transcript(Transcript(honest.signed, honest.records[0]))
    assert verdict.valid, verdict.reason
    assert len(verdict.outcome["detail"]["scorings"]) >= 2  # 3 players: after turns 4 and 8
    assert verdict.outcome == honest.finished[0].outcome.to_json()


def test_a_major_hidden_as_a_minor_is_convicted_by_every_peer_and_the_verifier(liar) -> None:
    """The giver knows the card, but does not act on that private knowledge (issue 24 item 5):
    the lie is a claim to every peer until the card opens to everyone (the scoring, or the audit
    that opens it for this claim); then the giver, the third seat and the offline verifier all
    convict seat 2 at the step of its signed hide, with that hide as the evidence."""
    from p2ptarot.transcript import Transcript, verify_transcript

    hides = [m for s, m in _moves(liar) if s == 2 and m["kind"] == "hide"]
    h = liar.passed[0]
    assert [h] in [m["handles"] for m in hides], "seat 2 signed the lie"
    lie = [e for e in map(parse, liar.records[0]) if e.kind in ("move", "move.open")
           and e.seat == 2 and e.body["move"] == {"kind": "hide", "handles": [h]}]
    for k in (0, 1):  # the third seat and the giver alike
        aborted = liar.aborted[k]
        assert aborted is not None and aborted.blame == 2, aborted
        assert aborted.step == lie[0].step
        assert [e.body["move"] for e in aborted.evidence] == [{"kind": "hide", "handles": [h]}]
    assert all(f is None for f in liar.finished)
    assert any(c.kind == "minor" and c.seat == 2 for c in liar.sessions[0].game.claim_log)
    for k in (0, 1):
        verdict = verify_transcript(Transcript(liar.signed, liar.records[k]))
        assert not verdict.valid and verdict.seat == 2 and verdict.step == lie[0].step, verdict


def test_with_a_colluding_giver_the_lie_is_caught_when_the_card_opens(colluders) -> None:
    t = colluders
    h = t.passed[0]
    lie = [e for e in map(parse, t.records[0]) if e.kind in ("move", "move.open") and e.seat == 2
           and e.body["move"] == {"kind": "hide", "handles": [h]}]
    assert len(lie) == 1
    honest = t.aborted[0]
    assert honest is not None and honest.blame == 2, honest
    assert honest.step == lie[0].step  # the abort names the step of the signed lie...
    assert t.sessions[0].step > honest.step + 5  # ...found later, when the scoring opened it
    assert "major-5" in honest.reason
    from p2ptarot.transcript import Transcript, verify_transcript

    verdict = verify_transcript(Transcript(t.signed, t.records[0]))
    assert not verdict.valid and verdict.seat == 2 and verdict.step == lie[0].step
