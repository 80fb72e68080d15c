"""`p2ptarot verify`'s verdict table (PROTOCOL §9.2): each kind of fault, its exit code, the step
it names and the JSON printed — always one JSON object with `--json`, whatever the exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2ptarot.cli.main import main

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
EXPECTED = {e["file"]: e["expect"] for e in json.loads((VECTORS / "transcripts.json").read_text())}
KEYS = {"verdict", "valid", "steps", "outcome", "violation", "findings", "aborted_by_players",
        "stand_in"}


def _json(path: Path, capsys) -> tuple[int, dict]:
    code = main(["verify", "--json", str(path)])
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object, one line
    return code, json.loads(out)


@pytest.mark.parametrize("name,kind", [("valid.jsonl", "valid"),
                                       ("invalid-illegal-move.jsonl", "convicted"),
                                       ("invalid-truncated.jsonl", "incomplete"),
                                       ("invalid-duplicated-line.jsonl", "inconsistent")])
def test_each_verdict_class_of_the_vectors(name: str, kind: str, capsys) -> None:
    code, verdict = _json(VECTORS / name, capsys)
    assert set(verdict) == KEYS and verdict["verdict"] == kind
    assert code == (0 if kind == "valid" else 1)
    expect = EXPECTED[name]
    if kind == "valid":
        assert verdict["violation"] is None and verdict["outcome"] == expect["outcome"]
        return
    assert verdict["violation"]["step"] == expect["step"]
    assert verdict["violation"]["seat"] == expect["seat"]
    assert (verdict["violation"]["seat"] is None) == (kind != "convicted")


def test_a_charter_with_a_bad_signature_is_invalid_at_step_0(tmp_path: Path, capsys) -> None:
    lines = (VECTORS / "valid.jsonl").read_bytes().split(b"\n")
    head = json.loads(lines[0])
    sig = head["charter"]["signatures"][1]
    head["charter"]["signatures"][1] = ("B" if sig[0] != "B" else "C") + sig[1:]
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join([json.dumps(head, sort_keys=True, separators=(",", ":"),
                                            ensure_ascii=False).encode(), *lines[1:]]))
    code, verdict = _json(path, capsys)
    assert code == 1 and verdict["verdict"] == "inconsistent"
    assert verdict["violation"]["step"] == 0 and verdict["violation"]["seat"] is None
    assert "bad signature of seat 1" in verdict["violation"]["reason"]


@pytest.mark.parametrize("data", [b"not json\n", b"", b"\n".join(
    (VECTORS / "valid.jsonl").read_bytes().split(b"\n")).replace(b"\n", b"\r\n")])
def test_not_a_transcript_exits_2_and_still_prints_json(data: bytes, tmp_path: Path,
                                                         capsys) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    code, verdict = _json(path, capsys)
    assert code == 2 and set(verdict) == KEYS
    assert verdict["verdict"] == "not-a-transcript" and verdict["valid"] is False
    assert verdict["violation"]["step"] is None and verdict["violation"]["seat"] is None
    assert verdict["violation"]["reason"]


def test_without_json_exit_2_prints_nothing_on_stdout(tmp_path: Path, capsys) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"not json\n")
    assert main(["verify", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "line 1" in captured.err
