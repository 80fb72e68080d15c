"""The lobby at the terminal, end to end: `p2ptarot host --not-ready` with a bot process; the
person sees the roster, chats, types `ready`, and the game then starts (the moves typed ahead
wait for the first prompt). The game is a short whole one (Les paris divins): the lobby is under
test, and the whole sinople game at the terminal is tests/e2e/test_human_play.py's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


@pytest.mark.network
def test_a_terminal_host_that_is_not_ready_holds_the_table_until_ready(tmp_path: Path) -> None:
    proc = subprocess.run(
        CLI + ["host", "--game", "paris-divins", "--seats", "2", "--bots", "1", "--interface", "127.0.0.1",
               "--name", "Alice", "--not-ready", "--data-dir", str(tmp_path / "host"), "--timeout", "60"],
        input="say hello table\nready\n" + "1\n" * 3000, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "-- lobby: paris-divins, seats taken 1 of 2 --" in out
    assert "seat 1: Alice (you, host, not ready)" in out and "seat 2: (free)" in out
    assert "type `ready` when you are ready to start" in out
    assert "<Alice> hello table" in out
    ready = out.index("seat 1: Alice (you, host, ready)")
    assert out.index("seat 2: bot-1 (bot, ready)") > ready
    assert out.index("== Les paris divins") > ready  # the table opened once the host was ready
    assert "== Final standings ==" in out
    assert "game finished; transcript saved in" in out.strip().splitlines()[-1]
