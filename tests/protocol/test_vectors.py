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
