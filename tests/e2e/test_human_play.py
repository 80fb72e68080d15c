"""A human at the terminal, end to end: `p2ptarot host` without --bot over 127.0.0.1, a bot
process in the other seat, stdin always answering "1". The human sees rendered screens."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


@pytest.mark.network
def test_human_plays_sinople_through_the_rendered_screen(tmp_path: Path) -> None:
    proc = subprocess.run(
        CLI + ["host", "--game", "sinople", "--seats", "2", "--bots", "1", "--interface", "127.0.0.1",
               "--data-dir", str(tmp_path / "host"), "--timeout", "60"],
        input="1\n" * 3000, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert result["result"] == "finished" and len(result["scores"]) == 2
    assert out.count("== sinople tarot — round") >= 9 * 15  # one screen per human move, 9 rounds
    assert "Your hand (15): " in out and "Figure: " in out and "  1. Play " in out
    assert '"hand_sizes"' not in out and "play card=" not in out  # not the raw JSON dump


@pytest.mark.network
def test_closed_stdin_leaves_the_table_without_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.run(
        CLI + ["host", "--game", "sinople", "--seats", "2", "--bots", "1", "--interface", "127.0.0.1",
               "--data-dir", str(tmp_path / "host"), "--timeout", "5"],  # the bot gives up fast
        input="h\nv\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert "standard input closed" in proc.stderr and "Traceback" not in proc.stderr
    assert "type a move's number" in proc.stdout and '"game": "sinople"' in proc.stdout
