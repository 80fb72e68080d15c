"""Engine secrets (`Commit`/`Open`) and blind SIMULTANEOUS turns carried by the table.

A toy game (secret_game.py) has every piece: seat 0 commits a word, makes a claim only the word
can decide, every seat votes blind, seat 0 opens the word. Cheating seats are played by forging
their signed messages (a test holds every identity, as a cheater holds its own)."""

from __future__ import annotations

from collections import deque

import pytest
from helpers import resign, verify
from secret_game import SecretVote, Vote, secret_vote  # noqa: F401  (fixture)
from table_harness import Table

from p2ptarot.engine import Commit, Open
from p2ptarot.table import canonical, rounds
from p2ptarot.table.effects import Aborted
from p2ptarot.table.envelope import Envelope, parse
from p2ptarot.table.session import Session

SEATS = 3


def _table(game: str, scripts: dict | None = None) -> Table:
    return Table(game, SEATS, seed=41, scripts=scripts or {})


def _envs(t: Table, k: int = 0) -> list[Envelope]:
    return [parse(x) for x in t.records[k]]


def _move_of(env: Envelope) -> dict:
    return env.body["move"]


def test_a_committed_secret_travels_hidden_and_opens_for_everyone(secret_vote: str) -> None:
    t = _table(secret_vote)
    t.run()
    outcomes = [f.outcome.to_json() for f in t.finished if f is not None]
    assert len(outcomes) == SEATS and all(o == outcomes[0] for o in outcomes)
    word = outcomes[0]["detail"]["word"]
    envs = _envs(t)
    commit = next(e for e in envs if e.kind == "move" and _move_of(e)["kind"] == "commit")
    assert _move_of(commit) == {"kind": "commit", "name": "word", "value": ""}
    assert set(commit.body["secret"]) == {"digest", "sealed"}
    before_open = [e for e in envs if e.step < commit.step + 4]
    assert all(word.encode() not in e.encoded() for e in before_open if e.kind != "result")
    opening = next(e for e in envs if e.kind == "move" and _move_of(e)["kind"] == "open")
    assert _move_of(opening) == {"kind": "open", "name": "word", "value": word}
    assert set(opening.body["secret"]) == {"salt"}
    # the blind votes: a commit round, then an open round, each signed by every seat
    commits = [e for e in envs if e.kind == "move.commit"]
    openings = [e for e in envs if e.kind == "move.open"]
    assert len(commits) == len(openings) == SEATS
    assert len({e.step for e in commits}) == 1 and openings[0].step == commits[0].step + 1
    assert all(set(e.body) == {"digest", "sealed"} for e in commits)
    assert [_move_of(e)["kind"] for e in openings] == ["vote"] * SEATS
    verdict = verify(t, t.records[0])
    assert verdict.valid and verdict.outcome == outcomes[0]


def test_other_seats_learn_the_secret_only_at_the_opening(secret_vote: str) -> None:
    seen: list[tuple[int, str | None, str]] = []
    t = _table(secret_vote)

    def observe(k: int, s: Session) -> None:
        if "word" in s.game.secrets:
            seen.append((k, s.game.secrets["word"].value, s.spec.kind if s.spec else ""))
    t.observe = observe
    t.run()
    word = t.finished[0].outcome.detail["word"]
    assert any(k == 0 and v == word for k, v, _ in seen)  # the owner knows it from its commit
    for k in (1, 2):
        mine = [(v, kind) for j, v, kind in seen if j == k]
        assert mine[0][0] is None and mine[-1][0] == word
        assert all(v is None for v, kind in mine if kind.startswith("move."))  # hidden during the votes


def _forge(t: Table, seat: int, pick, change) -> list:
    """Make `seat` sign `change(env)` instead of the first own envelope `pick` selects."""
    forged: list = []

    def tamper(k: int, env: Envelope, data: bytes) -> bytes:
        if k == seat and not forged and pick(env):
            new = change(env)
            forged.append(parse(new))
            return new
        return data
    t.tamper = tamper
    return forged


def _assert_blamed(t: Table, seat: int, words: str, honest=(1, 2)) -> Aborted:
    for k in honest:
        abort = t.aborted[k]
        assert t.finished[k] is None and abort is not None and abort.blame == seat, abort
        assert words in abort.reason, abort.reason
    return t.aborted[honest[0]]


def test_an_opening_that_does_not_match_is_blamed_at_once_live_and_in_verify(secret_vote: str) -> None:
    t = _table(secret_vote)
    forged = _forge(t, 0, lambda e: e.kind == "move" and _move_of(e)["kind"] == "open",
                    lambda e: resign(t.ids[0], e, body={**e.body, "move": {
                        "kind": "open", "name": "word",
                        "value": "oak" if _move_of(e)["value"] != "oak" else "apple"}}))
    t.run()
    assert forged
    abort = _assert_blamed(t, 0, "does not match its commitment")
    assert abort.step == forged[0].step  # at once: the step of the opening
    assert abort.evidence[0] == forged[0] and _move_of(abort.evidence[1])["kind"] == "commit"
    for k in (1, 2):
        assert t.sessions[k].game.secrets["word"].value is None  # the engine never saw it
    verdict = verify(t, t.records[1])
    assert (verdict.valid, verdict.seat, verdict.step) == (False, 0, forged[0].step)


def test_a_commit_showing_its_value_on_the_wire_is_a_violation(secret_vote: str) -> None:
    t = _table(secret_vote)
    forged = _forge(t, 0, lambda e: e.kind == "move" and _move_of(e)["kind"] == "commit",
                    lambda e: resign(t.ids[0], e, body={**e.body, "move": {
                        "kind": "commit", "name": "word", "value": "tarot"}}))
    t.run()
    assert forged
    _assert_blamed(t, 0, "in the clear")
    verdict = verify(t, t.records[1])
    assert (verdict.valid, verdict.seat) == (False, 0)


@pytest.mark.parametrize("secret", [None, {"salt": "A" * 43}])
def test_a_commit_without_its_commitment_is_a_violation(secret_vote: str, secret) -> None:
    t = _table(secret_vote)

    def change(e: Envelope) -> bytes:
        body = {k: v for k, v in e.body.items() if k != "secret"}
        if secret is not None:
            body["secret"] = secret
        return resign(t.ids[0], e, body=body)
    forged = _forge(t, 0, lambda e: e.kind == "move" and _move_of(e)["kind"] == "commit", change)
    t.run()
    assert forged
    _assert_blamed(t, 0, "without its commitment")


def test_a_secret_never_opened_abandons_the_table_blaming_nobody(secret_vote: str) -> None:
    """A withheld opening is silence: unprovable (a lost message looks the same), so the table is
    abandoned naming the seat it waited on, and nobody is convicted (PROTOCOL §8)."""
    t = _table(secret_vote)
    for k, s in enumerate(t.sessions):
        t.handle(k, s.start())
    queue: deque = t.queue
    while queue:
        j, item = queue.popleft()
        if j == -1 and isinstance(item, Open):
            continue  # seat 0 never opens its word
        if j < 0:
            t.handle(-1 - j, t.sessions[-1 - j].act(item))
        else:
            t.handle(j, t.sessions[j].receive(item))
    assert t.sessions[1].pending_seats() == (0,)
    assert t.sessions[1].game.secrets["word"].value is None
    aborted = [e for e in t.sessions[1].abandon() if isinstance(e, Aborted)]
    assert aborted and aborted[0].blame is None and "waiting on seat 0" in aborted[0].reason


def test_a_claim_disproved_by_the_opened_secret_blames_the_claimant(secret_vote: str) -> None:
    """Seat 0's engine is told not to decide claims (as a cheater's would not): it commits a
    word and states the opposite of the truth about it; at the opening every peer's engine
    decides the claim and blames seat 0 with its own signed hint."""
    def lie(legal: list):
        first = legal[0]
        if isinstance(first, Commit):
            return Commit("word", "apple")
        if type(first).__name__ == "Hint":
            return type(first)(False)  # "apple" starts with a vowel
        return None
    t = _table(secret_vote, scripts={0: lie})
    game = t.sessions[0].game
    assert isinstance(game, SecretVote)
    game.decide_claims = False
    t.run()
    abort = _assert_blamed(t, 0, "contradicts the hint")
    hint = abort.evidence[0]
    assert hint.seat == 0 and _move_of(hint) == {"kind": "hint", "vowel": False}
    assert abort.step == hint.step  # the step of the lie, though found at the opening
    opening = next(e for e in _envs(t, 1) if e.kind == "move" and _move_of(e)["kind"] == "open")
    assert opening.step > hint.step
    verdict = verify(t, t.records[1])
    assert (verdict.valid, verdict.seat, verdict.step) == (False, 0, hint.step)


def test_a_seat_cannot_change_its_blind_move_after_seeing_the_commitments(secret_vote: str) -> None:
    """Seat 2 opens another vote than the one it committed to (a re-signed opening with a fresh
    commitment-free body): every peer blames it at once, citing its opening and its commitment."""
    t = _table(secret_vote)

    def change(e: Envelope) -> bytes:
        other = "b" if _move_of(e)["choice"] == "a" else "a"
        return resign(t.ids[2], e, body={**e.body, "move": {"kind": "vote", "choice": other}})
    forged = _forge(t, 2, lambda e: e.kind == "move.open", change)
    t.run()
    assert forged
    abort = _assert_blamed(t, 2, "does not match the commitment", honest=(0, 1))
    assert abort.step == forged[0].step
    assert abort.evidence[0] == forged[0] and abort.evidence[1].kind == "move.commit"
    verdict = verify(t, t.records[0])
    assert (verdict.valid, verdict.seat, verdict.step) == (False, 2, forged[0].step)


def test_a_blind_move_that_fails_check_blames_its_seat(secret_vote: str) -> None:
    """Seat 1's engine checks nothing (a cheater's would not): it commits to an illegal vote and
    opens it consistently; every peer's engine refuses the opened move and blames seat 1."""
    t = _table(secret_vote, scripts={1: lambda legal: Vote("c") if isinstance(legal[0], Vote)
                                     else None})
    t.sessions[1].game.check = lambda seat, move: None  # type: ignore[method-assign]
    t.run()
    abort = _assert_blamed(t, 1, "no such choice", honest=(0, 2))
    assert abort.evidence[0].kind == "move.open" and abort.evidence[0].seat == 1
    assert _move_of(abort.evidence[0]) == {"kind": "vote", "choice": "c"}
    verdict = verify(t, t.records[0])
    assert (verdict.valid, verdict.seat, verdict.step) == (False, 1, abort.evidence[0].step)


def _run_restarting(t: Table, seat: int, when) -> bool:
    """Run `t`; the first time `when(session)` holds for `seat`, replace its session by a fresh
    one (same identity and seed) that loads everything it logged and sent, as after a crash."""
    sent: list[bytes] = []
    for k, s in enumerate(t.sessions):
        t.handle(k, s.start())
    queue: deque = t.queue
    restarted = False
    while queue:
        j, item = queue.popleft()
        k = -1 - j if j < 0 else j
        s = t.sessions[k]
        effects = s.act(item) if j < 0 else s.receive(item)
        if k == seat:
            sent.extend(e.envelope.encoded() for e in effects if type(e).__name__ == "Send")
        t.handle(k, effects)
        if not restarted and k == seat and when(t.sessions[seat]):
            restarted = True
            lost = [x for x in queue if x[0] == -1 - seat]  # choices the crashed process held
            for x in lost:
                queue.remove(x)
            fresh = Session(t.signed, seat, t.ids[seat], t.seeds[seat])
            effects = fresh.load(list(t.records[seat]) + sent)
            t.sessions[seat] = fresh
            t.records[seat] = []
            t.handle(seat, effects)
    return restarted


def _assert_valid_game(t: Table) -> None:
    outcomes = [f.outcome.to_json() for f in t.finished if f is not None]
    assert len(outcomes) == SEATS and all(o == outcomes[0] for o in outcomes)
    verdict = verify(t, t.records[0])
    assert verdict.valid and verdict.outcome == outcomes[0]


def test_a_restarted_seat_opens_the_blind_move_it_committed(secret_vote: str) -> None:
    """Seat 1 stops right after signing its commitment; a new session with the same seed loads
    what was said and opens exactly the committed vote, read back from its own sealed message."""
    t = _table(secret_vote)
    assert _run_restarting(t, 1, lambda s: s.spec is not None and s.spec.kind == "move.open")
    _assert_valid_game(t)


def test_a_restarted_owner_still_knows_and_opens_its_secret(secret_vote: str) -> None:
    """Seat 0 stops after committing its word (during the blind votes); restarted, its engine
    re-learns the word from its own sealed commitment and the opening matches."""
    t = _table(secret_vote)
    assert _run_restarting(t, 0, lambda s: s.spec is not None and s.spec.kind == "move.commit")
    assert t.sessions[0].game.secrets["word"].value in ("apple", "tarot", "oak")
    _assert_valid_game(t)


def test_sealed_values_hide_their_length_and_open_only_for_their_seat() -> None:
    table = bytes(32)
    mine = rounds.SeatSecrets(bytes([1]) * 32, table)
    other = rounds.SeatSecrets(bytes([2]) * 32, table)
    yes, no = mine.seal("l1", b'{"choice":"yes"}'), mine.seal("l2", b'{"choice":"no"}')
    assert len(yes) == len(no)
    assert mine.unseal("l1", yes) == b'{"choice":"yes"}'
    for wrong in (lambda: other.unseal("l1", yes), lambda: mine.unseal("l2", yes)):
        with pytest.raises(ValueError):
            wrong()
    with pytest.raises(ValueError):
        mine.seal("l3", bytes(rounds.MAX_SEALED_PLAINTEXT))
    assert mine.salt("a") != mine.salt("b") and mine.salt("a") != other.salt("a")


@pytest.fixture
def honest_log(secret_vote: str) -> Table:
    t = _table(secret_vote)
    t.run()
    assert all(f is not None for f in t.finished)
    return t


def _resized(sealed: str, delta: int) -> str:
    """The same sealed value, `delta` bytes longer (or shorter): no honest seat seals that size."""
    raw = canonical.unb64(sealed)
    assert len(raw) in rounds.SEALED_SIZES
    return canonical.b64(raw[:delta] if delta < 0 else raw + bytes(delta))


def _bad_tail(text: str) -> str:
    """A 32-byte value's base64url with non-zero trailing bits ("B" carries one): not canonical."""
    return text[:-1] + "B"


@pytest.mark.parametrize("kind,change,words", [
    ("move.commit", lambda b: {**b, "extra": 1}, "malformed"),
    ("move.commit", lambda b: {**b, "digest": _bad_tail(b["digest"])}, "malformed"),
    ("move.commit", lambda b: {k: v for k, v in b.items() if k != "sealed"}, "malformed"),
    # a sealed value of any size but an honest one (2^k + 16 bytes) is malformed
    ("move.commit", lambda b: {**b, "sealed": _resized(b["sealed"], -1)}, "malformed"),
    ("move.commit", lambda b: {**b, "sealed": _resized(b["sealed"], 48)}, "malformed"),
    ("move", lambda b: {**b, "secret": {**b["secret"], "sealed": _resized(b["secret"]["sealed"],
                                                                         1000)}}
     if b["move"]["kind"] == "commit" else None, "malformed"),
    ("move.open", lambda b: {**b, "salt": _bad_tail(b["salt"])}, ""),
    ("move.open", lambda b: {k: v for k, v in b.items() if k != "salt"}, "malformed"),
    ("move.open", lambda b: {**b, "secret": None}, ""),
    ("move.open", lambda b: {**b, "secret": {"salt": b["salt"]}}, ""),
    ("move", lambda b: {**b, "secret": {"salt": "A" * 43}} if b["move"]["kind"] == "hint" else None,
     "carries a secret"),
    ("move", lambda b: {**b, "secret": None} if b["move"]["kind"] == "open" else None, ""),
])
def test_malformed_commit_and_open_bodies_blame_their_signer(honest_log: Table, kind: str, change,
                                                             words: str) -> None:
    """Re-signed by their seat, malformed bodies of the commit/open machinery convict that seat
    (in the verifier, which runs every check a live peer runs) and never crash it."""
    lines = list(honest_log.records[0])
    envs = [parse(x) for x in lines]
    i = next(k for k, e in enumerate(envs) if e.kind == kind and change(e.body) is not None)
    lines[i] = resign(honest_log.ids[envs[i].seat], envs[i], body=change(envs[i].body))
    verdict = verify(honest_log, lines)
    assert (verdict.valid, verdict.seat, verdict.step) == (False, envs[i].seat, envs[i].step), verdict
    assert words in verdict.reason
