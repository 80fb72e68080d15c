"""Abort records, specified (PROTOCOL §9.1): what makes one malformed — another protocol version,
body keys other than the schema's, a `blame` naming no seat, a body `step` other than its first
evidence's (or its own envelope's when it quotes none) — and what that yields: a live peer drops
it (never honoured, never a conviction, not even of its signer); a verifier calls a file holding
one inconsistent, naming no seat. A record whose `prev` is another history's is well formed (a
split view is when records matter most). Built on the reference game of
protocol/vectors/valid.jsonl, whose identities are derived as protocol/make_vectors.py does."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from p2ptarot.crypto.signing import Identity
from p2ptarot.table import canonical
from p2ptarot.table.bodies import AbortBody
from p2ptarot.table.effects import Aborted, Notice, Record
from p2ptarot.table.envelope import SIGN_LABEL, Envelope, parse
from p2ptarot.table.session import Session
from p2ptarot.transcript import Transcript, parse_transcript, verify_transcript

VALID = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "valid.jsonl"


@pytest.fixture(scope="module")
def game() -> Transcript:
    return parse_transcript(VALID.read_bytes())


def _ids() -> list[Identity]:
    return [Identity.from_seed(hashlib.sha256(b"p2ptarot/vector-identity/%d" % k).digest())
            for k in range(2)]


def _signed(by: int, fields: dict[str, Any]) -> bytes:
    """Any envelope fields, correctly signed by seat `by` (whatever they hold)."""
    unsigned = {k: v for k, v in fields.items() if k != "sig"}
    sig = _ids()[by].sign(SIGN_LABEL + canonical.encode(unsigned))
    return canonical.encode({**unsigned, "sig": canonical.b64(sig)})


def _record(at: Envelope, by: int, **change: Any) -> bytes:
    body = {**AbortBody.quoting(None, "stopped", at.step, []).model_dump(), **change.pop("body", {})}
    fields = {"v": at.v, "table": at.table, "step": at.step, "seat": by, "prev": at.prev,
              "kind": "abort", "body": body, **change}
    return _signed(by, fields)


def _at(game: Transcript, k: int = 40) -> tuple[int, Envelope]:
    envs = [parse(x) for x in game.messages]
    i = next(i for i, e in enumerate(envs) if e.step >= k)
    return i, envs[i]


MALFORMED = {
    "version": ({"v": 5}, "protocol version 5"),
    "extra body key": ({"body": {"note": "x"}}, "a malformed abort record from seat 1"),
    "blame out of range": ({"body": {"blame": 2}}, "blames seat 2 of a 2-seat table"),
    "step other than its own": ({"body": {"step": 3}}, "names step 3, not"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_record_makes_the_file_inconsistent_and_convicts_nobody(game, case) -> None:
    change, words = MALFORMED[case]
    i, at = _at(game)
    lines = [*game.messages[:i], _record(at, 1, **dict(change)), *game.messages[i:]]
    v = verify_transcript(Transcript(game.charter, lines))
    assert not v.valid and v.seat is None and v.kind == "inconsistent"
    assert f"line {i + 2}: " in v.reason and words in v.reason


def test_a_record_whose_step_differs_from_its_evidence_is_malformed(game) -> None:
    last = parse(game.messages[-1])
    quoted = canonical.b64(game.messages[-1])
    bad = _record(last, 0, body={"evidence": [quoted], "step": last.step - 1})
    v = verify_transcript(Transcript(game.charter, [*game.messages, bad]))
    assert not v.valid and v.seat is None and "the step of its first piece of evidence" in v.reason
    good = _record(last, 0, body={"evidence": [quoted], "step": last.step})
    v = verify_transcript(Transcript(game.charter, [*game.messages, good]))
    assert v.valid and [a["by"] for a in v.aborted_by_players] == [0]  # well formed, proves nothing


def test_a_record_on_another_history_is_well_formed(game) -> None:
    """`prev` is the signer's chain at its step; a split view's record carries another one and
    is honoured like any other: the file is a consistent log that the players stopped."""
    i, at = _at(game)
    other = canonical.b64(hashlib.sha256(b"another history").digest())
    v = verify_transcript(Transcript(game.charter, [*game.messages[:i],
                                                    _record(at, 1, prev=other)]))
    assert not v.valid and v.seat is None and v.kind == "incomplete"
    assert [a["by"] for a in v.aborted_by_players] == [1]


def test_records_may_stand_anywhere_after_the_header(game) -> None:
    """Where a writer logged them: its own after the step in progress, others' when received —
    in the middle of the log, or after the signed result."""
    i, at = _at(game)
    same_step = [x for x in game.messages[i:] if parse(x).step == at.step]
    assert any(parse(x).seat == 1 for x in same_step)  # its own message of its step follows
    middle = verify_transcript(Transcript(game.charter, [*game.messages[:i], _record(at, 1),
                                                         *same_step]))
    assert middle.kind == "incomplete" and "the players stopped the game" in middle.reason
    last = parse(game.messages[-1])
    after = verify_transcript(Transcript(game.charter, [*game.messages, _record(last, 0)]))
    assert after.valid and [a["by"] for a in after.aborted_by_players] == [0]


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_live_peer_drops_a_malformed_record_without_honouring_or_convicting(game, case) -> None:
    """Seat 0's own session, fed the reference game up to a step and then seat 1's malformed
    record for it: a notice, no conviction, no Record logged, and the game goes on."""
    change, words = MALFORMED[case]
    i, at = _at(game)
    observer = Session(game.charter, seat=None)
    observer.start()
    for line in game.messages[:i]:
        observer.receive(line)
    effects = observer.receive(_record(at, 1, **dict(change)))
    assert not any(isinstance(e, (Aborted, Record)) for e in effects)
    assert any(isinstance(e, Notice) and "dropped a malformed abort record" in e.text
               and words in e.text for e in effects)
    assert observer.aborted is None and observer.intake.ledger.records == []
    for line in game.messages[i:]:
        observer.receive(line)
    assert observer.outcome is not None
