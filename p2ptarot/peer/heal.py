"""Links that heal: every seat without a link is dialled again, with backoff, for as long as the
table lives (PROTOCOL §8, network trouble).

Either side dials: the lower seat at once, the higher one after a short pause (at the start of a
table both would otherwise dial each other at the same moment; the mesh keeps one of two
duplicate links anyway). The other side's link comes back through the listener, where a seated
key is always admitted again. A dial that fails waits longer each time (doubling, capped, with
jitter so that peers that lost each other do not retry in lockstep); a link that comes up resets
it. What the links missed meanwhile is caught up by the game pump on `LinkUp`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence

from p2ptarot.net.errors import MeshError
from p2ptarot.net.link import Links

logger = logging.getLogger(__name__)

#: first retry delay, cap of the doubling delay (seconds), and the pause of the higher seat
FIRST_RETRY = 0.25
MAX_RETRY = 5.0
HIGHER_SEAT_PAUSE = 1.0


def retry_delay(failures: int, rng: random.Random) -> float:
    """Seconds to wait after `failures` failed dials in a row: doubling from `FIRST_RETRY` up to
    `MAX_RETRY`, jittered (50-100%) so that peers that lost each other do not retry in lockstep
    (the healer's, and a joiner re-dialling its host in the lobby)."""
    base = min(MAX_RETRY, FIRST_RETRY * 2.0 ** max(0, failures - 1))
    return base * (0.5 + rng.random() / 2)


class Healer:
    """Keeps dialling the seats of a table that have no open link, until `close`."""

    def __init__(self, links: Links, keys: Sequence[bytes], addresses: Sequence[str], seat: int,
                 rng: random.Random | None = None, pause: float = HIGHER_SEAT_PAUSE) -> None:
        """`pause`: how long the first dial of a higher seat waits for that seat to dial first
        (0 for a resumed seat: the others are not starting with it, they are retrying with a
        backoff of up to `MAX_RETRY`, so waiting for them only delays the catch-up)."""
        self.links, self.keys, self.addresses, self.seat = links, list(keys), list(addresses), seat
        self.pause = pause
        self._rng = rng or random.Random()
        self._lost = {i: asyncio.Event() for i in range(len(keys)) if i != seat}
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False
        self.dials = 0  # attempts made (for tests and logs)

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._keep(i)) for i in self._lost]

    def lost(self, peer: bytes) -> None:
        """A link went down: dial that seat again now (a no-op for a key with no seat)."""
        for i, key in enumerate(self.keys):
            if key == peer and i in self._lost:
                self._lost[i].set()

    async def close(self) -> None:
        """Stop dialling. The flag, not only the cancellation, ends each dialler: a cancellation
        can be lost (3.11's `wait_for` returns the awaited result instead when both land in one
        loop turn), and a dialler that outlived it would keep `close()`, and the peer, waiting."""
        self._closed = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    def delay(self, failures: int) -> float:
        """Seconds to wait after `failures` failed dials in a row (jittered, 50-100%)."""
        return retry_delay(failures, self._rng)

    async def _keep(self, i: int) -> None:
        key, address, lost = self.keys[i], self.addresses[i], self._lost[i]
        if i > self.seat and self.pause > 0:
            await asyncio.sleep(self.pause)  # it dials us first, usually
        failures = 0
        while not self._closed:
            if key in self.links.peers():
                failures = 0
                lost.clear()
                # woken by `lost`, or every few seconds in case a LinkDown was not seen
                await _woken(lost, MAX_RETRY)
                continue
            self.dials += 1
            try:
                await self.links.connect(address, expected_key=key)
                failures = 0
                continue
            except MeshError as exc:
                failures += 1
                logger.info("seat %d unreachable (%s); retrying", i, exc)
            lost.clear()
            await _woken(lost, self.delay(failures))


async def _woken(event: asyncio.Event, timeout: float) -> None:
    """Wait until `event` is set or `timeout` s passed (`asyncio.timeout`: unlike 3.11's
    `wait_for`, it never turns a cancellation into a normal return)."""
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    except TimeoutError:
        pass
