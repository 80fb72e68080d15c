"""`p2ptarot simulate` / `games` / `--version`: output shape, determinism, argument errors."""

from __future__ import annotations

import json

import pytest

from p2ptarot.cli.main import main


def run_json(capsys, *argv: str) -> dict:
    assert main(["simulate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_output_and_same_seed_same_outcomes(capsys) -> None:
    a = run_json(capsys, "--game", "sinople", "--players", "3", "--games", "4", "--seed", "11",
                 "--bots", "random,heuristic,random")
    assert a["games"] == 4 and a["seed"] == 11 and len(a["results"]) == 4
    assert sum(a["wins"]) >= 4 and a["games_per_second"] > 0
    assert all(len(r["scores"]) == 3 for r in a["results"])
    b = run_json(capsys, "--game", "sinople", "--players", "3", "--games", "4", "--seed", "11",
                 "--bots", "random,heuristic,random")
    assert a["results"] == b["results"] and a["wins"] == b["wins"]
    c = run_json(capsys, "--players", "3", "--games", "4", "--seed", "12")
    assert c["results"] != a["results"]


def test_text_output(capsys) -> None:
    assert main(["simulate", "--players", "2", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1: winners P") and out[1].startswith("game 2:")
    assert "games/s" in out[-1]


@pytest.mark.parametrize("argv,message", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--players", "6"], "2 to 5 players, not 6"),
    (["--bots", "random,random"], "2 bots for 4 players"),
    (["--bots", "oracle"], "unknown bot 'oracle'"),
    (["--games", "0"], "at least 1"),
])
def test_bad_arguments_exit_2(capsys, argv: list[str], message: str) -> None:
    assert main(["simulate", *argv]) == 2
    assert message in capsys.readouterr().err


def test_games_lists_sinople(capsys) -> None:
    assert main(["games", "--json"]) == 0
    catalogue = {g["name"]: g for g in json.loads(capsys.readouterr().out)["games"]}
    assert catalogue["sinople"]["players"] == [2, 5]
    assert main(["games"]) == 0
    assert "sinople" in capsys.readouterr().out


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert "p2ptarot 0.1.0" in capsys.readouterr().out


def test_an_unknown_command_is_a_usage_error(capsys) -> None:
    """(A bare `p2ptarot` opens the lobby: tests/cli/test_bare_command.py.)"""
    with pytest.raises(SystemExit) as exit_:
        main(["frobnicate"])
    assert exit_.value.code == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err
