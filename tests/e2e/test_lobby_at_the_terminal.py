"""The lobby at the terminal, end to end: `p2ptarot host --not-ready` with a bot process; the
person sees the roster, chats, types `ready`, and the game then starts (the moves typed ahead
wait for the first prompt)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


@pytest.mark.network
def test_a_terminal_host_that_is_not_ready_holds_the_table_until_ready(tmp_path: Path) -> None:
    proc = subprocess.run(
        CLI + ["host", "--game", "sinople", "--seats", "2", "--bots", "1", "--interface", "127.0.0.1",
               "--name", "Alice", "--not-ready", "--data-dir", str(tmp_path / "host"), "--timeout", "60"],
        input="say hello table\nready\n" + "1\n" * 3000, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "-- lobby: sinople, 1 of 2 seats taken --" in out
    assert "seat 1: Alice (you, host, not ready)" in out and "seat 2: (free)" in out
    assert "type `ready` when you are ready to start" in out
    assert "<Alice> hello table" in out
    ready = out.index("seat 1: Alice (you, host, ready)")
    assert out.index("seat 2: bot-1 (bot, ready)") > ready
    assert out.index("== Sinople") > ready  # the table opened once the host was ready
    assert "== Final standings ==" in out
    assert "game finished; transcript saved in" in out.strip().splitlines()[-1]
