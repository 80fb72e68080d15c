"""`verify` refuses what no honest writer produces: a badly signed line of any kind (abort
records included), a verbatim duplicated line, and an abort record followed by its signer's
moves (PROTOCOL §9). Each case is built on the reference game of protocol/vectors/valid.jsonl,
whose identities are derived as protocol/make_vectors.py derives them."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from p2ptarot.crypto.signing import Identity
from p2ptarot.table import canonical
from p2ptarot.table.bodies import AbortBody
from p2ptarot.table.envelope import Envelope, parse, seal
from p2ptarot.transcript import Transcript, parse_transcript, verify_transcript

VALID = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "valid.jsonl"


@pytest.fixture(scope="module")
def game() -> Transcript:
    return parse_transcript(VALID.read_bytes())


def _ids() -> list[Identity]:
    return [Identity.from_seed(hashlib.sha256(b"p2ptarot/vector-identity/%d" % k).digest())
            for k in range(2)]


def _abort(at: Envelope, by: int, reason: str = "stopped") -> bytes:
    body = AbortBody.quoting(None, reason, at.step, []).model_dump()
    return seal(_ids()[by], canonical.unb64(at.table), at.step, by, canonical.unb64(at.prev),
                "abort", body).encoded()


def _garbled(line: bytes) -> bytes:
    env = parse(line)
    sig = bytearray(canonical.unb64(env.sig))
    sig[5] ^= 0x40
    return canonical.encode({**env.model_dump(mode="json"), "sig": canonical.b64(bytes(sig))})


def _verdict(game: Transcript, lines: list[bytes]):
    return verify_transcript(Transcript(game.charter, lines))


def test_the_reference_game_is_valid_and_a_signed_abort_after_it_changes_nothing(game) -> None:
    assert _verdict(game, game.messages).valid
    last = parse(game.messages[-1])
    v = _verdict(game, [*game.messages, _abort(last, 1)])
    assert v.valid and [a["by"] for a in v.aborted_by_players] == [1]


def test_an_appended_abort_line_with_a_garbage_signature_is_refused(game) -> None:
    last = parse(game.messages[-1])
    v = _verdict(game, [*game.messages, _garbled(_abort(last, 1))])
    assert not v.valid and v.seat is None and "not correctly signed" in v.reason
    assert v.aborted_by_players == []


def test_a_badly_signed_abort_line_inside_the_file_breaks_it(game) -> None:
    last = parse(game.messages[-1])
    v = _verdict(game, [*game.messages, _garbled(_abort(last, 1)), _abort(last, 0)])
    assert not v.valid and v.seat is None and "bad signature" in v.reason
    assert "no seat is implicated" in v.reason


def test_an_abort_record_of_another_table_is_refused(game) -> None:
    last = parse(game.messages[-1])
    other = seal(_ids()[1], bytes(32), last.step, 1, canonical.unb64(last.prev), "abort",
                 AbortBody.quoting(None, "x", last.step, []).model_dump()).encoded()
    v = _verdict(game, [*game.messages, other, _abort(last, 0)])
    assert not v.valid and v.seat is None and "another table" in v.reason


@pytest.mark.parametrize("where", [0, 5, -1])
def test_a_verbatim_duplicated_line_is_refused(game, where: int) -> None:
    lines = list(game.messages)
    i = where % len(lines)
    lines.insert(i + 1, lines[i])
    v = _verdict(game, lines)
    assert not v.valid and v.seat is None
    assert f"line {i + 3} repeats line {i + 2} verbatim" in v.reason


def test_an_abort_record_followed_by_its_signers_moves_is_refused(game) -> None:
    envs = [parse(x) for x in game.messages]
    k = next(i for i, e in enumerate(envs) if e.kind == "move" and e.seat == 1 and e.step > 10)
    lines = [*game.messages[:k], _abort(envs[k], 1), *game.messages[k:]]
    v = _verdict(game, lines)
    assert not v.valid and v.seat is None
    assert f"seat 1 signed an abort record at step {envs[k].step}" in v.reason
    # the same record with the signer's message of its own step only: that much is honest
    # (its step message may be logged after its record), the next step of seat 1 is not
    nxt = next(i for i in range(k + 1, len(envs)) if envs[i].seat == 1)
    assert envs[nxt].step > envs[k].step
    assert f"line {nxt + 3}" in v.reason
