"""`verify` and `replay` on the stand-in conformance vectors: the moves a seat's stand-in bot
chose are marked (they are the seat's own claim), and the verdict is the plain game's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2ptarot.cli.main import main

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


@pytest.mark.parametrize("name", ["valid-stand-in.jsonl", "valid-stand-in-blind.jsonl"])
def test_verify_and_replay_mark_the_stand_in_moves(name: str, capsys) -> None:
    assert main(["verify", str(VECTORS / name)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("valid: ")
    assert "stand-in: 4 moves of seat 2 (p1) were played by its bot" in out
    assert main(["verify", "--json", str(VECTORS / name)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["valid"] and [(s["seat"], s["moves"]) for s in verdict["stand_in"]] == [(1, 4)]
    assert main(["replay", str(VECTORS / name)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum("p1 [bot]" in ln for ln in lines) == 4
    assert any(" p1 " in ln and "[bot]" not in ln for ln in lines)  # seat 2 took its seat back
    assert not any("p0 [bot]" in ln for ln in lines)


def test_a_game_without_stand_in_says_nothing_of_it(capsys) -> None:
    assert main(["verify", "--json", str(VECTORS / "valid.jsonl")]) == 0
    assert json.loads(capsys.readouterr().out)["stand_in"] == []
    assert main(["verify", str(VECTORS / "valid.jsonl")]) == 0
    assert "stand-in" not in capsys.readouterr().out
