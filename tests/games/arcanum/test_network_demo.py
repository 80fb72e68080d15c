"""Arcanum end to end: three OS processes, websockets and zeroconf on 127.0.0.1, mental poker over
two decks, then the offline verifier (`p2ptarot demo`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from p2ptarot.peer.store import read_transcript
from p2ptarot.transcript import verify_transcript

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def test_arcanum_demo_over_the_network(tmp_path: Path) -> None:
    out = tmp_path / "arcanum.jsonl"
    proc = subprocess.run(CLI + ["demo", "--game", "arcanum", "--players", "3", "--interface",
                                 "127.0.0.1", "--json", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["completed"] and summary["verified"] and summary["all_peers_agree"]
    verdict = verify_transcript(read_transcript(out))
    assert verdict.valid and verdict.outcome["scores"] == summary["scores"]
    assert len(verdict.outcome["detail"]["scorings"]) >= 2  # 3 players: scorings after turns 4, 8
