"""Variants on the command line: `games` lists each with its status; `host`, `simulate` and
`demo` refuse an unknown or unbuilt variant before anything runs (nothing is advertised)."""

from __future__ import annotations

import json

import pytest

from p2ptarot.cli.main import main
from p2ptarot.engine import games


def test_games_lists_every_variant_with_its_status(capsys) -> None:
    assert main(["games", "--json"]) == 0
    catalogue = {g["name"]: g for g in json.loads(capsys.readouterr().out)["games"]}
    for gi in games():
        listed = catalogue[gi.name]["variants"]
        assert [v["name"] for v in listed] == list(gi.variant_names)
        assert all(v["status"] in ("playable", "planned") for v in listed)
    arcanoid = {v["name"]: v for v in catalogue["arcanoid"]["variants"]}
    assert arcanoid["DRESDEN"]["status"] == "playable" and arcanoid["NASSAU"]["parent"] == "DRESDEN"
    assert main(["games"]) == 0
    text = capsys.readouterr().out
    assert "DRESDEN    playable (default)" in text and "KOBLENZ    playable" in text
    assert "MALTA+GAZA playable" in text


@pytest.mark.parametrize("variant, message", [("FOO", "no variant 'FOO'"),
                                               ("MALTA+KOBLENZ", "no variant 'MALTA+KOBLENZ'")])
def test_host_refuses_a_variant_before_advertising(tmp_path, capsys, variant, message) -> None:
    code = main(["host", "--game", "arcanoid", "--variant", variant, "--seats", "2",
                 "--interface", "127.0.0.1", "--data-dir", str(tmp_path / "host"), "--bot", "random"])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "host").exists()  # refused before the peer even made its identity


def test_simulate_and_demo_refuse_an_unknown_variant(capsys) -> None:
    assert main(["simulate", "--game", "sinople", "--players", "3", "--variant", "DRESDEN"]) == 2
    assert "sinople has no variants" in capsys.readouterr().err
    assert main(["demo", "--game", "arcanoid", "--players", "2", "--variant", "GAZA+BONN",
                 "--interface", "127.0.0.1"]) == 2
    assert "no variant 'GAZA+BONN'" in capsys.readouterr().err


def test_simulate_plays_any_gaza_combination(capsys) -> None:
    """Combinations not listed (`MALTA+GAZA+GAZA`) go through the registry all the same."""
    assert main(["simulate", "--game", "arcanoid", "--players", "2", "--games", "1",
                 "--variant", "MALTA+GAZA+GAZA", "--json"]) == 0
    assert '"variant": "MALTA+GAZA+GAZA"' in capsys.readouterr().out
