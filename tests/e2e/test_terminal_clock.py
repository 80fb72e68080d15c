"""The terminal's clock as a player sees it (a real `host` process on a pseudo-terminal, a real
bot process, real mental poker on 127.0.0.1): the time rule is told before the game, the
prompt's countdown is redrawn in place as the seconds pass (not a frozen "4:59 left"), the
60 s warning comes, and a connected player who only thinks keeps the seat."""

from __future__ import annotations

import os
import re
import select
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
REDRAW = re.compile(r"\x1b7\x1b\[1A\r[^\x1b]*\((\d+):(\d\d) left\)")


def _read_until(fd: int, out: bytearray, pattern: re.Pattern[bytes] | bytes, limit: float = 120
                ) -> None:
    """Read the terminal until `pattern` shows (a bound on a hang, not a timed assertion)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        text = bytes(out)
        if (pattern.search(text) if isinstance(pattern, re.Pattern) else pattern in text):
            return
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    raise AssertionError(f"never saw {pattern!r}; the terminal said:\n{bytes(out)[-3000:]!r}")


def test_the_countdown_is_live_and_the_warning_comes(tmp_path: Path) -> None:
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: a host at a terminal, one local bot; 62 s a move, a stand-in table
        os.execv(sys.executable, CLI + [
            "host", "--game", "sinople", "--seats", "2", "--bots", "1", "--name", "Alice",
            "--interface", "127.0.0.1", "--data-dir", str(tmp_path / "alice"),
            "--move-timeout", "62", "--stand-in-after", "30", "--lobby-timeout", "120"])
    out = bytearray()
    try:
        _read_until(fd, out, b"time: a move may take up to 1 min 2 s; you are warned 1 min")
        _read_until(fd, out, b"your move [1-")
        _read_until(fd, out, re.compile(REDRAW.pattern.encode()))
        _read_until(fd, out, b"** 1 min left for your move: then a bot plays this one move for "
                             b"you (you keep your seat) **")
        # more redraws after the warning: the countdown kept moving, downwards
        _read_until(fd, out, re.compile(rb"\x1b7\x1b\[1A\r[^\x1b]*\(0:5[0-7] left\)"))
        shown = [int(m) * 60 + int(s) for m, s in REDRAW.findall(bytes(out).decode(errors="replace"))]
        assert len(set(shown)) >= 3, shown  # the seconds moved: not a frozen countdown
        assert shown == sorted(shown, reverse=True), shown
        text = bytes(out).decode(errors="replace")
        assert "a bot plays your seat" not in text  # thinking is never punished
        os.write(fd, b"1\n")  # she plays: the game goes on with her at her seat
        _read_until(fd, out, b"Alice (you): ")
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
