"""What a running peer waits on, on demand: `kill -USR1 PID` prints the stack of every asyncio
task of the process's running loop to its standard error, and it goes on playing.

A peer that seems stuck is usually idle in its event loop, where a thread dump (py-spy,
faulthandler) shows only the selector; the tasks' own stacks say which await never returned.
POSIX only (Windows has no SIGUSR1): elsewhere nothing is installed.
"""

from __future__ import annotations

import signal
import sys
import time
from types import FrameType
from typing import Any, TextIO

#: the signal that asks for the dump
SIGNAL = getattr(signal, "SIGUSR1", None)


def dump_tasks(out: TextIO) -> int:
    """Write every task of the running loop (if any) with its stack; the number of tasks."""
    asyncio: Any = sys.modules.get("asyncio")  # not imported here: offline commands never load it
    # the handler runs between bytecodes of the main thread, inside its loop if one runs (or in
    # the middle of an import: asyncio may be half loaded)
    running = getattr(asyncio, "_get_running_loop", None)
    loop = running() if running is not None else None
    if loop is None:
        print("p2ptarot: no event loop is running", file=out, flush=True)
        return 0
    for _ in range(3):  # the task set may change under us
        try:
            tasks = list(asyncio.all_tasks(loop))
            break
        except RuntimeError:
            continue
    else:
        return 0
    print(f"p2ptarot: {len(tasks)} task(s) at {time.strftime('%H:%M:%S')}", file=out)
    for task in tasks:
        print(f"--- {task.get_name()}", file=out)
        for line in await_chain(task.get_coro()):
            print("    " + line, file=out)
    out.flush()
    return len(tasks)


def await_chain(coro: object, limit: int = 40) -> list[str]:
    """Where a suspended coroutine waits, outermost first: each coroutine or generator it
    awaits (a task's own stack stops at its outermost frame), down to the awaited future."""
    lines: list[str] = []
    while coro is not None and len(lines) < limit:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None) \
            or getattr(coro, "ag_frame", None)
        if frame is None:
            lines.append(repr(coro)[:200])
            break
        code = frame.f_code
        lines.append(f"{code.co_filename}:{frame.f_lineno} in {code.co_name}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None) \
            or getattr(coro, "ag_await", None)
    return lines


def install() -> bool:
    """Dump the tasks on SIGUSR1 from now on (main thread only); whether it was installed."""
    if SIGNAL is None:
        return False

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        try:
            dump_tasks(sys.stderr)
        except Exception as exc:  # a diagnostic never stops the peer it diagnoses
            print(f"p2ptarot: no task dump: {exc!r}", file=sys.stderr, flush=True)

    try:
        signal.signal(SIGNAL, on_signal)
    except ValueError:  # not the main thread (an embedding caller): leave its signals alone
        return False
    return True
