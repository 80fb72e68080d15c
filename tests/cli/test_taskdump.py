"""`kill -USR1` on a running peer prints where each of its tasks waits, and the peer goes on
(p2ptarot/cli/taskdump.py): a real `p2ptarot host` process, a real signal."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from p2ptarot.cli.taskdump import await_chain, dump_tasks

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _catches_usr1(pid: int) -> bool:
    """Whether the process has a handler for SIGUSR1 (before it does, the signal would kill it)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGUSR1 - 1) & 1)
    return False


def test_a_host_waiting_in_its_lobby_says_so_and_goes_on(tmp_path: Path) -> None:
    err = tmp_path / "host.err"
    proc = subprocess.Popen(CLI + ["host", "--game", "sinople", "--seats", "3", "--bot", "random",
                                   "--quiet", "--interface", "127.0.0.1", "--port", "0",
                                   "--timeout", "120", "--data-dir", str(tmp_path / "a")],
                            stdout=subprocess.DEVNULL, stderr=open(err, "w"))
    try:
        deadline = time.monotonic() + 60
        while not _catches_usr1(proc.pid):
            assert proc.poll() is None and time.monotonic() < deadline, err.read_text()
            time.sleep(0.05)
        text = ""
        while "in host_lobby" not in text:  # until the lobby runs (the first dump may come earlier)
            assert time.monotonic() < deadline, text
            os.kill(proc.pid, signal.SIGUSR1)
            time.sleep(0.5)
            text = err.read_text()
        assert "task(s) at" in text and "p2ptarot/peer/lobby.py" in text, text
        assert proc.poll() is None  # the dump does not stop the peer
    finally:
        proc.kill()
        proc.wait()


async def test_the_chain_runs_from_the_task_down_to_the_awaited_future() -> None:
    gate = asyncio.Event()

    async def inner() -> None:
        await gate.wait()

    async def outer() -> None:
        await inner()

    task = asyncio.create_task(outer(), name="outer-task")
    await asyncio.sleep(0)
    chain = await_chain(task.get_coro())
    assert [line.rsplit(" in ", 1)[-1] for line in chain[:3]] == ["outer", "inner", "wait"]
    out = io.StringIO()
    assert dump_tasks(out) >= 2  # this test's own task and outer-task
    assert "--- outer-task" in out.getvalue() and "in inner" in out.getvalue()
    gate.set()
    await task


def test_no_loop_running_is_said_not_raised() -> None:
    out = io.StringIO()
    assert dump_tasks(out) == 0 and "no event loop" in out.getvalue()
