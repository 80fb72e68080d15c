"""Answering catch-up requests (``SyncFrame``: ``{"ctl": "sync", "step": k}``) without amplification.

A request is a few bytes; its answer is every logged message from step ``k`` on, which can be the
whole game (hundreds of kilobytes). Unbounded, 100 requests (2.3 KB) drew 24 MB. So each peer gets
at most one answer per ``interval`` (further requests in between are ignored: the requester asks
again when it is still behind, see ``RESYNC_AFTER``), and an answer carries at most ``max_bytes``
(the requester's next request, from its new step, continues where this one stopped).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from p2ptarot.table.envelope import Envelope

#: seconds between two answered sync requests of one peer
SYNC_INTERVAL = 1.0
#: bytes of envelopes in one answer (at least one message is always sent)
SYNC_MAX_BYTES = 1024 * 1024
#: a peer that made no progress for this long asks its peers for what it misses
RESYNC_AFTER = 2.0


class SyncServer:
    """Rate-limited, size-bounded answers to catch-up requests, per peer key."""

    def __init__(self, interval: float = SYNC_INTERVAL, max_bytes: int = SYNC_MAX_BYTES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.max_bytes = max_bytes
        self._clock = clock
        self._last: dict[bytes, float] = {}
        self.ignored = 0

    def answer(self, peer: bytes, messages: Callable[[], Iterable[Envelope]]) -> list[bytes]:
        """The frames to send `peer` for its request (empty when it asked too soon)."""
        now = self._clock()
        last = self._last.get(peer)
        if last is not None and now - last < self.interval:
            self.ignored += 1
            return []
        self._last[peer] = now
        out: list[bytes] = []
        size = 0
        for env in messages():
            data = env.encoded()
            if out and size + len(data) > self.max_bytes:
                break
            out.append(data)
            size += len(data)
        return out
