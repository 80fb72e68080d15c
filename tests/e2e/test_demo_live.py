"""`p2ptarot demo` (what `make demo` runs) shows the game while it is played, not a silent wait,
and keeps its exit status: 0 only when the game completed and the transcript verified."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.net.txt import TableInfo

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def test_tables_are_advertised_with_this_builds_protocol_version() -> None:
    info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=2, fingerprint="AAAA")
    assert info.version == PROTOCOL_VERSION  # else no joiner ever finds the table


def test_demo_prints_the_table_as_it_is_played() -> None:
    proc = subprocess.run(CLI + ["demo", "--game", "sinople", "--players", "2", "--interface", "127.0.0.1"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    live = [ln for ln in lines if ln.startswith("  |   peer-")]
    assert len(live) > 100  # every move, with the player's name and a sentence
    assert any(": Play " in ln for ln in live) and not any("num-" in ln for ln in live)
    over = lines.index(next(ln for ln in lines if ln.startswith("demo: game over")))
    # the result names the players (seat order), never 0-based seat numbers
    assert re.search(r"demo: game over in [\d.]+ s: peer-\d \d+, peer-\d \d+; (won by peer-\d|no winner)",
                     lines[over]), lines[over]
    assert any("== Round 9 over ==" in ln for ln in lines[:over])
    assert any("== Final standings ==" in ln for ln in lines[:over])
    assert "VERIFIED" in lines[-1]
