"""A one-line spinner on a terminal: shows that a wait (browsing the LAN) is alive.

It draws only when the stream is a terminal; a pipe or a log file gets nothing from it (the
command prints one line saying what it waits for instead).
"""

from __future__ import annotations

import sys
from typing import TextIO

FRAMES = "|/-\\"


class Spinner:
    def __init__(self, what: str, stream: TextIO | None = None) -> None:
        self.what = what
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self._frame = 0

    def __call__(self, elapsed: float, found: int) -> None:
        """Redraw: the frame, what we wait for, the seconds so far and what was found."""
        if not self.live:
            return
        mark = FRAMES[self._frame % len(FRAMES)]
        self._frame += 1
        seen = f"{found} table{'s' if found != 1 else ''} so far"
        self.stream.write(f"\r{mark} {self.what} {elapsed:4.1f} s, {seen}  ")
        self.stream.flush()

    def done(self) -> None:
        """Erase the spinner's line (the results are printed after it)."""
        if self.live and self._frame:
            self.stream.write("\r\033[K")
            self.stream.flush()
