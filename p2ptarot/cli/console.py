"""Lines typed at the terminal, read without ever holding the process open.

`input()` in a worker thread (asyncio.to_thread) keeps the interpreter alive until Enter is
pressed, so an aborted game waited for a key. A daemon thread reading stdin does not: the process
exits as soon as the game does. End of input (Ctrl-D, a closed pipe) arrives as None.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO


class Console:
    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stdin
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._closed = False
        self._pushed: list[str] = []  # lines given back with `unread`, read again first
        threading.Thread(target=self._read, name="p2ptarot-stdin", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                line = self._stream.readline()
            except (OSError, ValueError):
                line = ""
            try:
                self._loop.call_soon_threadsafe(self._lines.put_nowait, line.rstrip("\n") if line else None)
            except RuntimeError:  # the loop is closed: the game is over
                return
            if not line:
                return

    async def line(self) -> str | None:
        """The next line typed, or None once input is closed."""
        if self._pushed:
            return self._pushed.pop()
        if self._closed and self._lines.empty():
            return None
        line = await self._lines.get()
        if line is None:
            self._closed = True
        return line

    @property
    def closed_and_empty(self) -> bool:
        """Input ended and nothing typed ahead is left: the player pressed Ctrl-D."""
        if self._pushed:
            return False
        if not self._closed and self._lines.qsize() == 1:
            try:
                only = self._lines.get_nowait()
            except asyncio.QueueEmpty:
                return False
            if only is None:
                self._closed = True
            else:
                self._lines.put_nowait(only)
        return self._closed and self._lines.empty()

    @property
    def typed_ahead(self) -> bool:
        return bool(self._pushed) or not self._lines.empty()

    def unread(self, line: str) -> None:
        """Give a line back: the next `line()` returns it (a move typed ahead in the lobby waits
        for the game's first prompt)."""
        self._pushed.append(line)
