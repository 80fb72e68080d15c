"""When a stalled game asks again (PROTOCOL §8), as a policy over the caller's clock.

A step that made no progress for ``RESYNC_AFTER`` seconds, and took no new message in that
time, asks every peer for catch-up (and shows its digest): a peer still working through the
messages it received is not missing them (under load a step can take longer than that to
process, and asking then only drew copies of what was queued unread, issue 32); past the local timeout it asks *deeply* (a few steps back, and pushes its recent
messages to the seats it waits for), again every local timeout; past the table's limit (the
charter's, the same at every seat) it asks deeply once more, and ``ABANDON_GRACE`` seconds later
abandons the table, convicting nobody.  Time the peer itself was not running (suspended, SIGSTOP:
a gap between two ticks longer than ``GAP``) is not counted against the seats it waits for.

Sans-I/O: ``tick`` takes the step and the time (monotonic and wall), and says what to do.

A game over, ``LingerTimers`` says how long its seat stays for the others' ``done`` (PROTOCOL §10).
"""

from __future__ import annotations

import time
from enum import Enum

from .catchup import RESYNC_AFTER

#: seconds between the last catch-up request and abandoning the table
ABANDON_GRACE = 3.0
#: a loop turn longer than this means the peer itself was not running
GAP = 5.0


class Due(Enum):
    """What a tick asks of the game pump."""

    NOTHING = "nothing"
    RESYNC = "resync"  # ask every peer from the current step, show the digest
    DEEP = "deep"  # ask from a few steps back, push recent messages to the awaited seats
    ABANDON = "abandon"  # the table's limit passed and the last request went unanswered


class StallTimers:
    """The catch-up clocks of one game (see the module docstring)."""

    def __init__(self, step: int, local_timeout: float, table_limit: float, now: float,
                 wall: float) -> None:
        self.step, self.since, self.wall, self._tick = step, now, wall, now
        self.table_limit = table_limit
        self.deep_every = max(RESYNC_AFTER, min(local_timeout, table_limit))
        self.last_sync = self.last_deep = now
        self.asked: float | None = None  # when the catch-up before abandoning was requested
        self.taken: int | None = None  # the session's count of stored messages at the last tick

    def tick(self, step: int, now: float, wall: float, taken: int | None = None) -> Due:
        """The session is at ``step`` at ``now``, having stored ``taken`` messages so far: what
        is due. A new message postpones the next catch-up request, never the deep requests nor
        the abandon (messages of later steps can keep arriving while a seat stays silent)."""
        if taken is not None and taken != self.taken:
            if self.taken is not None:
                self.last_sync = max(self.last_sync, now)
            self.taken = taken
        if self._moved(step, now, wall):
            self.asked, self.last_deep = None, now
            return Due.NOTHING
        waited = now - self.since
        if waited > self.table_limit and self.asked is None:
            # the last chance to hear from the awaited seats (a deep request: the next is due a
            # local timeout later, not on the next tick as before)
            self.asked = self.last_sync = self.last_deep = now
            return Due.DEEP
        if self.asked is not None and now - self.asked > ABANDON_GRACE:
            return Due.ABANDON
        if waited > self.deep_every and now - self.last_deep > self.deep_every:
            self.last_deep = self.last_sync = now
            return Due.DEEP
        if now - max(self.since, self.last_sync) > RESYNC_AFTER:
            self.last_sync = now  # stalled: ask again (an answer may have been cut or lost)
            return Due.RESYNC
        return Due.NOTHING

    def since_text(self) -> str:
        """When the stalled step began, for the abandon record."""
        return time.strftime("%H:%M UTC", time.gmtime(self.wall))

    def _moved(self, step: int, now: float, wall: float) -> bool:
        gap, self._tick = now - self._tick, now
        if gap > GAP:
            self.since += gap - 1.0
        if step != self.step:
            self.step, self.since, self.wall = step, now, wall
            return True
        return False


class LingerTimers:
    """How long a game's seat stays once the game is over (PROTOCOL §10, the end): a finished
    table waits for every seat's `done` up to the table's limit while an awaited seat has no link,
    else twice the heartbeat (at least ``linger``) from the last link that came up: a dead link
    looks up until the heartbeat drops it, and a healed seat catches up first; an abandoned table
    waits ``linger`` for the seats linked now. A long wait is told to the player once, past
    ``max(linger, 2 * heartbeat)``."""

    def __init__(self, finished: bool, linger: float, heartbeat: float, table_limit: float,
                 now: float) -> None:
        self.finished, self.linger = finished, linger
        self.quiet = max(linger, 2 * heartbeat)  # the wait for a linked seat's `done`
        self.table_limit = table_limit
        self.start = self.linked_at = now
        self.told = False

    def linked(self, now: float) -> None:
        """A link came up (its seat catches up before it says `done`)."""
        self.linked_at = now

    def left(self, now: float, unlinked: bool) -> float:
        """Seconds still to wait; ``unlinked``: some awaited seat has no link now."""
        if not self.finished:
            end = self.start + self.linger
        elif unlinked:
            end = self.start + self.table_limit
        else:
            end = min(self.start + self.table_limit, self.linked_at + self.quiet)
        return end - now

    def tell(self, now: float, left: float) -> bool:
        """Whether to tell the player now whom a finished seat's long wait is for (once)."""
        if self.told or not self.finished or left <= 0 or now - self.start <= self.quiet:
            return False
        self.told = True
        return True
