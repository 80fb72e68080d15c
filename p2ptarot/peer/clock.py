"""The peer layer's clocks, injected: the lobby and the game pump read the time only through a
`Clock` (their `PeerConfig`'s), so a test or a benchmark can drive them with its own."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Clock:
    """``monotonic`` measures waits and deadlines; ``wall`` dates what a player or a record is
    shown (when a stalled step began, a deadline on a page)."""

    monotonic: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
