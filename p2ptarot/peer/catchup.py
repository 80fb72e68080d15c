"""Catch-up (``{"ctl": "sync", "step": k}``): answering without amplification, and asking again
at once while a peer is still behind.

A request is a few bytes; its answer is every logged message from step ``k`` on, which can be the
whole game (hundreds of kilobytes). Unbounded, 100 requests (2.3 KB) drew 24 MB. So an answer
carries the messages of steps ``k`` to ``k + window`` only (the requester drops a message more
than `MAX_STEPS_AHEAD` steps beyond its own step unread: sending it is waste), at most
``max_bytes`` of them, and each peer gets at most one answer per ``interval``: further requests
in between are ignored, save one. An answer cut short (by the window or the bytes) grants its
requester a *continuation*: its next request from the first step not sent, or further, is
answered at once. Such an answer starts where the last one stopped, so a continuation re-sends
nothing but the part of the step a byte cut split; the requester asks for it the moment it has
taken the window (`CatchUp`), instead of waiting `RESYNC_AFTER` for its stall timer (issue 36:
a peer that lost its unsynced transcript tail in a crash is hundreds of steps behind).

An answer sends only what the requester lacks (issue 32): a request names, per step, the seats
whose messages it stores and their hash (`SyncFrame.have`), and the answer leaves out those it
holds in the same version; a different version is sent, so an equivocation still meets the
other version at the requester.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from collections.abc import Sequence

from p2ptarot.table.control import SyncFrame
from p2ptarot.table.digest import HaveEntry, held_by_asker
from p2ptarot.table.envelope import Envelope
from p2ptarot.table.intake import MAX_STEPS_AHEAD

#: seconds between two answered sync requests of one peer (continuations aside)
SYNC_INTERVAL = 1.0
#: bytes of envelopes in one answer (at least one message is always sent)
SYNC_MAX_BYTES = 1024 * 1024
#: a peer that made no progress for this long asks its peers for what it misses
RESYNC_AFTER = 2.0


class SyncServer:
    """Rate-limited, window- and size-bounded answers to catch-up requests, per peer key."""

    def __init__(self, interval: float = SYNC_INTERVAL, max_bytes: int = SYNC_MAX_BYTES,
                 clock: Callable[[], float] = time.monotonic,
                 window: int = MAX_STEPS_AHEAD) -> None:
        self.interval = interval
        self.max_bytes = max_bytes
        self.window = window
        self._clock = clock
        self._last: dict[bytes, float] = {}
        self._more: dict[bytes, int] = {}  # peer -> the step its continuation may start from
        self.ignored = 0
        self.continued = 0

    def answer(self, peer: bytes, messages: Callable[[], Iterable[Envelope]],
               step: int = 0, have: Sequence[HaveEntry] | None = None) -> list[bytes]:
        """The frames to send `peer` for its request from `step` (`messages`: this peer's
        messages from `step` on, step messages in step order, then abort records), leaving out
        those its `have` shows it holds; empty when it asked too soon."""
        more = self._more.pop(peer, None)
        if more is not None and step >= more:
            self.continued += 1
        else:
            if more is not None:
                self._more[peer] = more  # a request from further back keeps the grant
            now = self._clock()
            last = self._last.get(peer)
            if last is not None and now - last < self.interval:
                self.ignored += 1
                return []
            self._last[peer] = now
        end = step + self.window
        out: list[bytes] = []
        size = 0
        envs = list(messages())
        held = _asker_holds(have, envs) if have else set()
        for env in envs:
            if env.kind != "abort" and (env.step, env.seat) in held:
                continue  # the requester stores this very message
            if env.kind != "abort" and env.step > end:
                self._more[peer] = end + 1  # the rest is for the continuation
                continue
            data = env.encoded()
            if out and size + len(data) > self.max_bytes:
                if env.kind != "abort":
                    self._more[peer] = env.step  # this step is not whole at the requester
                break
            out.append(data)
            size += len(data)
        return out


def _asker_holds(have: Sequence[HaveEntry], envs: list[Envelope]) -> set[tuple[int, int]]:
    """(step, seat) of the step messages in `envs` the requester's `have` shows it holds."""
    mine: dict[int, dict[int, Envelope]] = {}
    for env in envs:
        if env.kind != "abort":
            mine.setdefault(env.step, {})[env.seat] = env
    return held_by_asker(have, mine)


class CatchUp:
    """The requesting side: remembers the step it last asked from, and says when to ask again
    at once: when the session has moved past the whole window an answer could carry, more may
    be waiting (in normal play this costs one small request per `window` steps)."""

    def __init__(self, window: int = MAX_STEPS_AHEAD,
                 have: Callable[[int], list[HaveEntry]] | None = None) -> None:
        """`have`: what this peer stores from a step on (`Session.have`), named in each request
        so that answers leave it out."""
        self.window = window
        self.asked_from: int | None = None
        self._have = have

    def ask(self, step: int) -> SyncFrame:
        """The request frame from `step` (noted)."""
        self.asked_from = step
        have = self._have(step) if self._have is not None else None
        return SyncFrame(step=step, have=have or None)

    def again(self, step: int) -> SyncFrame | None:
        """The continuation request to send now that the session is at `step`, or None."""
        if self.asked_from is not None and step > self.asked_from + self.window:
            return self.ask(step)
        return None
