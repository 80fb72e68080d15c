"""The conformance vectors in protocol/vectors/ against the reference verifier."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2ptarot.table import canonical
from p2ptarot.peer.store import read_transcript
from p2ptarot.transcript import verify_transcript

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
INDEX = json.loads((VECTORS / "transcripts.json").read_text())
CANONICAL = json.loads((VECTORS / "canonical.json").read_text())


def test_index_covers_every_vector_file() -> None:
    assert {e["file"] for e in INDEX} == {p.name for p in VECTORS.glob("*.jsonl")}
    assert sum(1 for e in INDEX if not e["expect"]["valid"]) >= 8


@pytest.mark.parametrize("entry", INDEX, ids=[e["file"] for e in INDEX])
def test_transcript_vector_verdict(entry: dict) -> None:
    verdict = verify_transcript(read_transcript(VECTORS / entry["file"]))
    expect = entry["expect"]
    assert verdict.valid is expect["valid"], verdict.reason
    if expect["valid"]:
        assert verdict.steps == expect["steps"]
        assert verdict.outcome == expect["outcome"]
        assert verdict.findings == expect.get("findings", [])
    else:
        assert (verdict.step, verdict.seat) == (expect["step"], expect["seat"]), verdict.reason
        assert expect["reason_contains"] in (verdict.reason or "")


@pytest.mark.parametrize("hexed", CANONICAL["valid"])
def test_canonical_valid(hexed: str) -> None:
    data = bytes.fromhex(hexed)
    assert canonical.encode(canonical.decode(data)) == data


@pytest.mark.parametrize("case", CANONICAL["invalid"], ids=[c["why"] for c in CANONICAL["invalid"]])
def test_canonical_invalid(case: dict) -> None:
    with pytest.raises(canonical.CanonicalError):
        canonical.decode(bytes.fromhex(case["hex"]))


def _lines(name: str) -> list[dict]:
    return [json.loads(x) for x in (VECTORS / name).read_bytes().splitlines()[1:]]


def test_the_void_round_vector_voids_the_liars_round_and_plays_on() -> None:
    """Eleusis R35/T9: the caught dealer's round scores nothing and counts as dealt, the game
    goes on with the next dealer, and the fault stays in the transcript as a finding."""
    entry = next(e for e in INDEX if e["file"] == "valid-void-round.jsonl")
    rounds = entry["expect"]["outcome"]["detail"]["rounds"]
    assert len(rounds) == 2 and rounds[0]["void"]["seat"] == 0 and rounds[0]["scores"] == []
    assert rounds[1]["dealer"] == 1 and rounds[1]["void"] is None and rounds[1]["scores"]
    (finding,) = entry["expect"]["findings"]
    judged = [r for r in _lines("valid-void-round.jsonl") if r["kind"] == "move"
              and r["seat"] == 0 and r["body"]["move"]["kind"] == "judge"]
    assert finding["seat"] == 0 and finding["step"] == judged[0]["step"]
    assert judged[0]["body"]["move"] == {"kind": "judge", "verdict": "wrong"}


def test_the_audit_vector_opens_cards_by_shares_and_publishes_no_key() -> None:
    """PROTOCOL §6 step 7: after the last move, the final audit is `mental.shares` messages
    (decryption shares with DLEQ proofs) of cards claims cover; no message carries a key
    other than the epoch's public `mental.key` ones."""
    records = _lines("valid-audit.jsonl")
    last_move = max(r["step"] for r in records if r["kind"].startswith("move"))
    audit = [r for r in records if r["kind"] == "mental.shares" and r["step"] > last_move]
    assert audit and sum(len(r["body"]["items"]) for r in audit) >= 2
    assert all(set(i) == {"handle", "version", "share", "proof"}
               for r in audit for i in r["body"]["items"])
    assert not [r for r in records if "reveal-key" in r["kind"]]
    passes = [r for r in records if r["kind"] == "move" and r["body"]["move"]["kind"] == "pass"]
    assert passes  # the claims the audit decides
