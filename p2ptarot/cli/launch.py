"""Starting local peer processes that share one import of the peer stack (issue 36).

A fresh interpreter per peer pays 0.7-0.9 s of CPU importing the peer stack (pydantic, aiohttp,
zeroconf, the game's package) before it does anything; on a 2-core machine running four peers
that is about a sixth of a whole game's CPU. :func:`preload` imports the stack once in the
launching process and :func:`fork_peer` forks each peer from it: every peer is still its own OS
process, with its own keys (drawn after the fork, from the OS), sockets, data directory and
output, running the same `p2ptarot host|join ...` command line it would have run in a fresh
interpreter; it only skips the imports.

Forking is safe only from a process that runs a single thread and no event loop (a thread's
locks would be copied mid-use): :func:`can_fork` says whether that holds here, and callers keep
`subprocess.Popen` of a fresh interpreter otherwise (no `os.fork` on Windows).
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import IO

#: `stdout=PIPE`: the peer's standard output comes back through :attr:`ForkedPeer.stdout`
PIPE = subprocess.PIPE

_pipes: list[IO[str]] = []  # this process's ends of earlier peers' pipes: no later child keeps them


def can_fork() -> bool:
    """Whether peers may be forked from this process: POSIX, and no thread but this one (the
    caller has started no event loop: asyncio.run leaves none behind, but a running one would
    be a thread's state copied mid-use)."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    try:
        import asyncio  # noqa: PLC0415 - only to ask whether a loop runs here
        asyncio.get_running_loop()
    except RuntimeError:
        return True
    return False


def preload(game: str) -> None:
    """Import what a peer of `game` imports before and during its table (the command line's
    modules, discovery, the game's rules and bots, the transcript format), then move it all
    out of the collector's reach (`gc.freeze`): each forked peer starts with it loaded, and its
    pages stay shared until written."""
    was = gc.isenabled()
    gc.disable()  # thousands of objects allocated, none of them garbage (see p2ptarot/_startup.py)
    try:
        import p2ptarot.cli.peer  # noqa: F401, PLC0415
        import p2ptarot.net.discovery  # noqa: F401, PLC0415 - zeroconf, loaded by every LAN peer
        import p2ptarot.transcript.format  # noqa: F401, PLC0415 - the store reads and writes it
        from p2ptarot.engine import registry  # noqa: PLC0415
        from p2ptarot.table import effects  # noqa: F401, PLC0415 - the store's, loaded at its first write
        from p2ptarot.table.bodies import build_validators  # noqa: PLC0415

        build_validators()
        try:
            registry.info(game)
            registry.layer_module(game, "bots")
        except Exception:  # noqa: BLE001 - an unknown game is the peer's to report, in its words
            pass
    finally:
        gc.freeze()
        if was:
            gc.enable()


class ForkedPeer:
    """A peer forked by :func:`fork_peer`: the part of `subprocess.Popen` its callers use."""

    def __init__(self, pid: int, stdout: IO[str] | None, args: list[str]) -> None:
        self.pid, self.stdout, self.args = pid, stdout, args
        self.returncode: int | None = None

    def _reaped(self, status: int) -> int:
        self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self._reaped(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is not None:
            return self.returncode
        if timeout is None:
            return self._reaped(os.waitpid(self.pid, 0)[1])
        deadline = time.monotonic() + timeout
        while (code := self.poll()) is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(0.05)
        return code

    def communicate(self, timeout: float | None = None) -> tuple[str, None]:
        """Everything the peer writes to its standard output until it exits, and its exit."""
        out = self.stdout.read() if self.stdout is not None else ""
        self.wait(timeout)
        return out, None

    def kill(self) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def fork_peer(argv: Sequence[str], *, stdout: int | None = None, stderr: int | None = None,
              new_session: bool = False,
              run: Callable[[list[str]], int]) -> ForkedPeer:
    """Fork a peer running `p2ptarot <argv>` (after :func:`preload`, with :func:`can_fork`
    true). `stdout`: PIPE (read it from the result's `stdout`), a file descriptor, or None to
    share this process's; `stderr`: a file descriptor or None; `new_session`: as
    `subprocess.Popen`'s `start_new_session` (the peer leaves this terminal's signals, and the
    scheduler's autogroup weighs it as a session of its own). `run`: the command line's entry
    (`p2ptarot.cli.main.main`, handed down by the command that starts peers, so that this module
    does not build on the command line that loads it; a benchmark hands an instrumented wrapper);
    the child exits with its result and never returns here."""

    args = list(argv)
    for stream in (sys.stdout, sys.stderr):  # nothing buffered here may be written twice
        if stream is not None:
            stream.flush()
    read_end = write_end = -1
    if stdout == PIPE:
        read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the peer
        rc = 1
        try:
            if new_session:
                os.setsid()
            for pipe in _pipes:
                if not pipe.closed:
                    os.close(pipe.fileno())
            if stdout == PIPE:
                os.close(read_end)
                os.dup2(write_end, 1)
                os.close(write_end)
            elif stdout is not None:
                os.dup2(stdout, 1)
            if stderr is not None:
                os.dup2(stderr, 2)
            rc = int(run(args))
        except SystemExit as exc:  # as the interpreter ends on it: a text is printed, then 1
            if exc.code is not None and not isinstance(exc.code, int):
                print(exc.code, file=sys.stderr)
            rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # noqa: BLE001 - reported as a fresh interpreter would, then exit
            traceback.print_exc()
        finally:
            try:  # what the interpreter does at exit: wait for its other threads, run the
                threading._shutdown()  # type: ignore[attr-defined]  # exit handlers (logging's
                atexit._run_exitfuncs()  # flush), flush the standard streams
                for stream in (sys.stdout, sys.stderr):
                    if stream is not None:
                        stream.flush()
            finally:
                os._exit(rc)
    out = None
    if stdout == PIPE:
        os.close(write_end)
        out = os.fdopen(read_end, "r", encoding=getattr(sys.stdout, "encoding", None) or "utf-8",
                        errors="replace")
        _pipes[:] = [p for p in _pipes if not p.closed] + [out]
    return ForkedPeer(pid, out, args)
