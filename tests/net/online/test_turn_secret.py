"""The TURN password is never on a command line: `ps` (any local user) reads every process's
argv, so the host takes it from a file or the environment and hands it to its bot processes in
their environment (readable by its owner only).  A real host with a bot process, on 127.0.0.1
with a real relay; every process's /proc/PID/cmdline is read while they run."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from online_servers import start_relay

pytestmark = pytest.mark.network
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
SECRET = "turn-secret-4a7f2c9e"


def _cmdlines() -> dict[int, str]:
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                out[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ") \
                    .decode("utf-8", "replace")
            except OSError:
                continue
    return out


def test_no_process_shows_the_turn_password(tmp_path: Path) -> None:
    relay = start_relay(tmp_path / "relay")
    secret_file = tmp_path / "turn.pass"
    secret_file.touch(mode=0o600)
    secret_file.write_text(SECRET + "\n")
    data = tmp_path / "host"
    host = subprocess.Popen(CLI + ["host", "--online", "--relay", relay.url, "--relay-only",
                                   "--turn", "turn:127.0.0.1:3478", "--turn-user", "p2ptarot",
                                   "--turn-pass-file", str(secret_file),
                                   "--game", "paris-divins", "--seats", "3", "--bots", "1",
                                   "--data-dir", str(data), "--name", "Alice", "--bot", "random",
                                   "--quiet", "--lobby-timeout", "300"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    bots: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while not bots and time.monotonic() < deadline and host.poll() is None:
            lines = _cmdlines()
            bots = [pid for pid, line in lines.items()
                    if str(data / "bot-1") in line and " join " in line]
            time.sleep(0.5)
        assert bots, "the host never started its bot process"
        time.sleep(2)  # the bot reads its settings and goes online
        lines = _cmdlines()
        assert bots[0] in lines and "--turn-user p2ptarot" in lines[bots[0]]
        assert [pid for pid, line in lines.items() if SECRET in line] == []
        # the bot got the password all the same: from its environment, which only we can read
        environ = Path(f"/proc/{bots[0]}/environ").read_bytes()
        assert f"P2PTAROT_TURN_PASS={SECRET}".encode() in environ.split(b"\0")
        assert os.stat(f"/proc/{bots[0]}/environ").st_mode & 0o077 == 0
    finally:
        host.send_signal(signal.SIGTERM)
        try:
            host.wait(20)
        except subprocess.TimeoutExpired:
            host.kill()
            host.wait()
        for pid in bots:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        relay.stop()
