"""A process that played a game exits without the interpreter's collections over its objects
(issue 36: they cost up to a second per peer after the game had ended)."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from p2ptarot.peer import game


def test_the_collector_is_frozen_at_exit_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    registered: list[object] = []
    monkeypatch.setattr(game.atexit, "register", registered.append)
    monkeypatch.setattr(game._exit_without_collecting, "registered", False, raising=False)
    game._exit_without_collecting()
    game._exit_without_collecting()  # a second game in the same process (the web front)
    assert registered == [gc.freeze]


def test_a_process_that_registered_it_still_runs_earlier_exit_handlers_and_exits_cleanly(
        tmp_path: Path) -> None:
    """Handlers registered before (a library's clean-up) run after the freeze: nothing is
    skipped but the collections."""
    marker = tmp_path / "cleaned"
    code = ("import atexit, pathlib, sys\n"
            f"atexit.register(lambda: pathlib.Path({str(marker)!r}).write_text('ok'))\n"
            "from p2ptarot.peer import game\n"
            "game._exit_without_collecting()\n"
            "junk = [[] for _ in range(1000)]\n"  # cycles left at exit: not collected, no harm
            "for a, b in zip(junk, junk[1:]): a.append(b); b.append(a)\n"
            "print('done')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "done\n"
    assert marker.read_text() == "ok"
