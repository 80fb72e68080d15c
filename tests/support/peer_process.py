"""One `p2ptarot` command-line process whose merged output is read line by line, in a thread,
for tests that wait for what a peer prints and then read its `--json` summary."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading

from tests.support.peer_output import summary

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


class PeerProcess:
    """`p2ptarot ARGS`, stdout and stderr merged; `wait` bounds every read and the exit (a safety
    net against a hang, never asserted on)."""

    def __init__(self, args: list[str], stdin: int | None = None, wait: float = 600.0,
                 env: dict[str, str] | None = None) -> None:
        self.wait = wait
        self.proc = subprocess.Popen(CLI + args, stdin=stdin, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True,
                                     env=None if env is None else {**os.environ, **env})
        self.lines: queue.Queue[str] = queue.Queue()
        self.out: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.out.append(line)
            self.lines.put(line)
        self.lines.put("")

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first line from now on matching `pattern` (AssertionError if the output ends)."""
        while True:
            line = self.lines.get(timeout=self.wait)
            assert line, f"output ended before {pattern!r}:\n{''.join(self.out)[-3000:]}"
            found = re.search(pattern, line)
            if found:
                return found

    def result(self) -> dict:
        """The process's `--json` summary, once it exited."""
        self.proc.wait(timeout=self.wait)
        return summary("".join(self.out))
