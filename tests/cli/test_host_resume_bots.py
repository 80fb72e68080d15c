"""A host that stops mid-game and resumes gets its table back whole (issue 33, item 2): its
`--bots` are their own peers and outlive it (they run in their own session, so the host's Ctrl-C
is not theirs), wait for it, and the resumed game finishes and verifies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from interrupts import as_from_a_terminal  # tests/support

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _bots_of(data: Path) -> list[int]:
    """The pids of the bot processes playing from `data` (their --data-dir is inside it)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--bot" in cmd and any(a.startswith(str(data / "bot-").encode()) for a in cmd):
            pids.append(int(entry.name))
    return pids


@pytest.mark.network
def test_sigint_the_host_mid_game_then_resume_finishes_and_verifies(tmp_path: Path) -> None:
    data = tmp_path / "host"
    host = subprocess.Popen(
        CLI + ["host", "--game", "sinople", "--seats", "3", "--bots", "2", "--name", "Ann",
               "--interface", "127.0.0.1", "--data-dir", str(data), "--timeout", "60"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=as_from_a_terminal)
    assert host.stdin is not None and host.stdout is not None
    try:
        prompts = 0
        for line in host.stdout:  # play three moves, then Ctrl-C at the fourth prompt
            if "your move [" in line:
                prompts += 1
                if prompts == 4:
                    break
                host.stdin.write("1\n")
                host.stdin.flush()
        assert prompts == 4
        bots = _bots_of(data)
        assert len(bots) == 2
        host.send_signal(signal.SIGINT)
        _, err = host.communicate(timeout=120)  # a bound on a hang, not a timed assertion
        assert host.returncode == 130, err
        assert f"join --resume --data-dir {data}" in err
        assert sorted(_bots_of(data)) == sorted(bots)  # the bots kept their seats

        resumed = subprocess.run(
            CLI + ["join", "--resume", "--data-dir", str(data), "--interface", "127.0.0.1",
                   "--timeout", "60"],
            input="1\n" * 3000, capture_output=True, text=True, timeout=600)
        assert resumed.returncode == 0, resumed.stderr[-3000:] + resumed.stdout[-3000:]
        out = resumed.stdout
        assert "Ann (seat 1, you)" in out and "== Final standings ==" in out
        last = out.strip().splitlines()[-1]
        assert "game finished; transcript saved in" in last
        transcript = last.split("transcript saved in", 1)[1].strip()
        checked = subprocess.run(CLI + ["verify", transcript], capture_output=True, text=True,
                                 timeout=300)
        assert checked.returncode == 0, checked.stdout + checked.stderr
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
        for pid in _bots_of(data):  # never left behind by a failing run
            os.kill(pid, signal.SIGTERM)
