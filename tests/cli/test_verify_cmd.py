"""`p2ptarot verify` on the conformance vectors: exit codes and what a person reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from p2ptarot.cli.main import main

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
EXPECTED = {e["file"]: e["expect"] for e in json.loads((VECTORS / "transcripts.json").read_text())}


def test_valid_transcript_exits_0_with_the_scores_by_name(capsys) -> None:
    assert main(["verify", str(VECTORS / "valid.jsonl")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("valid:")
    scores = re.search(r"scores p0 (\d+), p1 (\d+), winners (.+)$", out.splitlines()[0])
    assert scores, out  # each score beside its player's name, the winners named too
    best = "p0" if int(scores[1]) > int(scores[2]) else "p1"
    assert best in scores[3].split(", ") and "[" not in out.splitlines()[0]


@pytest.mark.parametrize("name", sorted(f for f in EXPECTED if f.startswith("invalid-")))
def test_invalid_transcript_names_the_seat_by_number_and_name(name: str, capsys) -> None:
    expect = EXPECTED[name]
    assert main(["verify", str(VECTORS / name)]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"INVALID at step {expect['step']}, ")
    if expect["seat"] is not None:
        # counted from 1 as people count, with the name (the vectors' seat i is named p<i>)
        assert f"seat {expect['seat'] + 1} (p{expect['seat']})" in first
    assert expect["reason_contains"] in first


def test_json_verdict_matches_the_vector(capsys) -> None:
    name = "invalid-illegal-move.jsonl"
    assert main(["verify", "--json", str(VECTORS / name)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert not verdict["valid"]
    assert verdict["violation"]["seat"] == EXPECTED[name]["seat"]


def test_a_file_that_is_not_a_transcript_exits_2(tmp_path: Path, capsys) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    assert main(["verify", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("p2ptarot verify: ") and "junk.jsonl" in err and "transcript" in err


def test_replay_tells_the_game_move_by_move(capsys) -> None:
    assert main(["replay", str(VECTORS / "valid.jsonl")]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "sinople — p0 (seat 1), p1 (seat 2)"  # names, seats counted from 1
    moves = [x for x in lines if x.startswith("  step ") and (" p0 " in x or " p1 " in x)]
    assert len(moves) > 50 and not any("=" in x for x in moves)  # sentences, not key=value
    assert "num-" not in out and "fig-" not in out  # card names, never raw ids
    assert "  -- trick 1 won by p" in out  # trick structure with winners
    rounds = [x for x in lines if x.startswith("  == round ") and " over: " in x]
    assert len(rounds) == 9 and all(", winner p" in r for r in rounds)
    assert "== Final standings ==" in out and "winner" in lines[-2] + lines[-1]


def test_replay_of_an_invalid_transcript_exits_1(capsys) -> None:
    assert main(["replay", str(VECTORS / "invalid-illegal-move.jsonl")]) == 1
    out = capsys.readouterr().out
    step = EXPECTED["invalid-illegal-move.jsonl"]["step"]
    assert f"transcript INVALID at step {step}, p0 (seat 1)" in out
    assert "Final standings" not in out


@pytest.mark.parametrize("name", sorted(f for f in EXPECTED if f.startswith("invalid-")))
def test_replay_never_exits_0_on_a_tampered_transcript(name: str, capsys) -> None:
    assert main(["replay", str(VECTORS / name)]) in (1, 2)


def test_a_conviction_quotes_the_evidence_it_rechecked(capsys) -> None:
    name = "invalid-abort-evidence-equivocation.jsonl"
    expect = EXPECTED[name]
    assert main(["verify", str(VECTORS / name)]) == 1
    lines = capsys.readouterr().out.splitlines()
    evidence = [x for x in lines if x.strip().startswith("evidence:")]
    assert len(evidence) == 2  # both signed versions of the step
    seat = f"seat {expect['seat'] + 1} (p{expect['seat']})"
    assert all(f"{seat}'s signed" in x and f"step {expect['step']}" in x for x in evidence)
    assert any("stopped the game at the table" in x and f"accusing {seat}" in x for x in lines)


def test_an_unproven_accusation_names_nobody(capsys) -> None:
    assert main(["verify", str(VECTORS / "invalid-abort-framing.jsonl")]) == 1
    out = capsys.readouterr().out
    assert "no seat: incomplete: the players stopped the game" in out.splitlines()[0]
    assert "seat 2 (p1) stopped the game" in out and "accusing seat 1 (p0)" in out  # what the
    # players said, listed apart from the verdict; their own words are quoted as they wrote them
    assert ": seat 0 cheated [" in out


def test_verify_and_replay_speak_french_with_lang_fr(capsys) -> None:
    from p2ptarot.i18n import set_language
    try:
        assert main(["verify", "--lang", "fr", str(VECTORS / "valid.jsonl")]) == 0
        out = capsys.readouterr().out
        assert out.startswith("valide : ") and "étapes" in out and "gagnants" in out
        assert main(["verify", "--lang", "fr", str(VECTORS / "invalid-illegal-move.jsonl")]) == 1
        assert capsys.readouterr().out.startswith("INVALIDE à l'étape ")
        assert main(["replay", "--lang", "fr", str(VECTORS / "valid.jsonl")]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == "sinople — p0 (place 1), p1 (place 2)"
        assert any(x.startswith("  étape ") for x in lines) and not any(x.startswith("  step ") for x in lines)
        assert "== Classement final ==" in lines or any("Classement" in x for x in lines)
    finally:
        set_language("en")
