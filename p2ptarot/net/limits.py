"""Resource limits of the mesh endpoint: what a stranger (or a flooding peer) can cost us.

- ``ConnectionGuard``: every accepted TCP connection is *pending* until its hello handshake
  succeeds. Pending connections are few (a newcomer over the limit closes the oldest pending one,
  so silent half-open upgrades cannot lock honest joiners out: an honest handshake lasts one round
  trip and is never the oldest for long) and short-lived (closed at their deadline whatever stage
  they reached: TCP only, slow HTTP headers, or a silent websocket). It wraps aiohttp's protocol
  factory, below the HTTP layer, so even a client that never finishes its request line is counted.
- ``TokenBucket``: per-link rate limit on frames and bytes; the reader pauses when it runs dry, so
  TCP pushes back on the flooder instead of us queueing its frames.
- ``ResourceErrorFilter``: running out of file descriptors makes asyncio log a traceback on every
  failed ``accept``; this handler turns them into one log line per interval.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, cast

logger = logging.getLogger(__name__)

_RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class _GuardedProtocol(asyncio.Protocol):
    """Delegates every callback to aiohttp's handler, telling the guard when it starts and ends."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol) -> None:
        self._guard = guard
        self._inner = inner

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a stream server's connection is a Transport (asyncio.Protocol's signature says BaseTransport)
        self._guard._opened(self._inner, cast(asyncio.Transport, transport))
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._guard._closed(self._inner)
        self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()


class ConnectionGuard:
    """Counts and times out incoming connections until the mesh calls ``authenticated``."""

    def __init__(self, limit: int, timeout: float,
                 on_drop: Callable[[str, str], None] | None = None) -> None:
        self.limit = limit
        self.timeout = timeout
        self._on_drop = on_drop
        self._pending: OrderedDict[object, tuple[asyncio.Transport, asyncio.TimerHandle]] = (
            OrderedDict())
        self.dropped = 0

    def factory(self, make: Callable[[], Any]) -> Callable[[], asyncio.Protocol]:
        """Wrap aiohttp's protocol factory (``runner.server``)."""
        return lambda: _GuardedProtocol(self, make())

    @property
    def pending(self) -> int:
        return len(self._pending)

    def authenticated(self, handler: object) -> None:
        """The connection behind ``handler`` (``request.protocol``) passed the handshake."""
        entry = self._pending.pop(handler, None)
        if entry is not None:
            entry[1].cancel()

    def close_all(self) -> None:
        for handler in list(self._pending):
            self._drop(handler, "shutdown")

    def _opened(self, handler: object, transport: asyncio.Transport) -> None:
        while len(self._pending) >= self.limit:
            oldest = next(iter(self._pending))
            self._drop(oldest, "too many pending connections (oldest closed)")
        timer = asyncio.get_running_loop().call_later(self.timeout, self._drop, handler,
                                                      "handshake timed out")
        self._pending[handler] = (transport, timer)

    def _closed(self, handler: object) -> None:
        entry = self._pending.pop(handler, None)
        if entry is not None:
            entry[1].cancel()

    def _drop(self, handler: object, reason: str) -> None:
        entry = self._pending.pop(handler, None)
        if entry is None:
            return
        transport, timer = entry
        timer.cancel()
        peer = transport.get_extra_info("peername")
        self.dropped += 1
        transport.abort()  # frees the descriptor now; no lingering close handshake
        if self._on_drop is not None and reason != "shutdown":
            self._on_drop(str(peer[0]) if isinstance(peer, tuple) else "?", reason)


class TokenBucket:
    """``rate`` units per second, at most ``burst`` saved up; ``take`` says how long to pause."""

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self._level = burst
        self._stamp = time.monotonic() if now is None else now

    def take(self, cost: float, now: float | None = None) -> float:
        """Spend ``cost`` (the level may go negative); seconds to wait until it is paid back.
        ``now``: the caller's clock (the link core's), else ``time.monotonic()``."""
        now = time.monotonic() if now is None else now
        self._level = min(self.burst, self._level + (now - self._stamp) * self.rate)
        self._stamp = now
        self._level -= cost
        return 0.0 if self._level >= 0 else -self._level / self.rate


class ResourceErrorFilter:
    """Loop exception handler: out-of-descriptor errors become one line per ``interval``."""

    def __init__(self, previous: Callable[..., Any] | None, interval: float = 30.0) -> None:
        self._previous = previous
        self.interval = interval
        self._last = -interval
        self.suppressed = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in _RESOURCE_ERRNOS:
            now = time.monotonic()
            if now - self._last >= self.interval:
                self._last = now
                logger.warning("out of system resources (%s): refusing connections until load "
                               "drops%s", exc.strerror or exc,
                               f"; {self.suppressed} similar errors not logged" if self.suppressed
                               else "")
                self.suppressed = 0
            else:
                self.suppressed += 1
            return
        if self._previous is not None:
            self._previous(loop, context)
        else:
            loop.default_exception_handler(context)
