"""One copy of an envelope per link: a per-link record of the envelopes already sent on it, so
that no answer (a catch-up answer, a digest's resend, a deep catch-up's push) sends one again
while the first copy is still on its way (issue 32: under load, the re-sync answered with
messages the asker held, or had queued unread, and 223 envelopes went twice over one link).

`OncePerLink` wraps the peer's `Links`: every envelope it hands a link (a broadcast or a send)
is recorded under that peer's key, and a `send` of an envelope recorded for that peer less than
`REPEAT_HOLD` seconds ago is left out. Only answers use `send`: an own new message goes out by
`broadcast`, which is recorded but never held back, and control frames pass untouched.

Why it never costs a message: a LAN websocket or a WebRTC data channel delivers what it took,
in order, or the link goes down; a `LinkUp` or `LinkDown` of a peer forgets its record, so a
healed, replaced or resumed peer's link starts empty and its catch-up brings everything it
lacks. A relay-borne link (PROTOCOL §12) can lose a packet without going down: there a repeat
is held back `REPEAT_HOLD` seconds at most, and the other seats answer meanwhile. A receiver
also drops a message more than `MAX_STEPS_AHEAD` steps beyond its step unread: the record keeps
only what the peer's last known step lets it take (its requests and digests name its step, its
own messages were signed at its step, and any message it sends is at most that many steps
beyond its step).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Mapping

from p2ptarot.net.events import LinkDown, LinkUp, PeerKey, Received
from p2ptarot.net.link import LinkEvent, Links
from p2ptarot.table.intake import MAX_STEPS_AHEAD

#: seconds a copy of an envelope sent on a link holds back another copy on it
REPEAT_HOLD = 10.0
#: envelopes remembered per link (the oldest go first)
MAX_RECORDED = 4096
#: an envelope's canonical encoding starts so (sorted keys, `body` first); no control frame does
_ENVELOPE = b'{"body":'
_STEP = b',"step":'


class SentLog:
    """Per peer key: the envelopes sent to it lately, by hash, and the last step it named."""

    def __init__(self, hold: float = REPEAT_HOLD, cap: int = MAX_RECORDED,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.hold, self.cap, self._clock = hold, cap, clock
        self._sent: dict[PeerKey, dict[bytes, float]] = {}
        self._step: dict[PeerKey, int] = {}
        self.held_back = 0  # repeats left out (for tests and logs)

    def forget(self, peer: PeerKey) -> None:
        """A link of `peer` came up or went down: nothing is known to be on its way."""
        self._sent.pop(peer, None)
        self._step.pop(peer, None)

    def at_step(self, peer: PeerKey, step: int) -> None:
        """`peer` named `step` as its own (a catch-up request, a digest): it takes messages up
        to `MAX_STEPS_AHEAD` beyond it."""
        self._step[peer] = max(step, self._step.get(peer, 0))

    def record(self, peers: Iterable[PeerKey], data: bytes) -> None:
        """`data` was handed to the links of `peers` (recorded when it is an envelope)."""
        if not data.startswith(_ENVELOPE):
            return
        step = _step_of(data)
        key, now = hashlib.sha256(data).digest(), self._clock()
        for peer in peers:
            if step is None or step > self._step.get(peer, 0) + MAX_STEPS_AHEAD:
                continue  # it may drop this unread: a later answer must be free to send it
            sent = self._sent.setdefault(peer, {})
            sent.pop(key, None)
            sent[key] = now
            self._trim(sent, now)

    def repeat(self, peer: PeerKey, data: bytes) -> bool:
        """True when `data` is an envelope sent to `peer` less than `hold` seconds ago."""
        if not data.startswith(_ENVELOPE):
            return False
        sent = self._sent.get(peer)
        if not sent:
            return False
        at = sent.get(hashlib.sha256(data).digest())
        if at is None or self._clock() - at >= self.hold:
            return False
        self.held_back += 1
        return True

    def _trim(self, sent: dict[bytes, float], now: float) -> None:
        """Drop the expired and the oldest past `cap` (insertion order is sending order)."""
        while sent:
            oldest = next(iter(sent))
            if len(sent) <= self.cap and now - sent[oldest] < self.hold:
                break
            del sent[oldest]


def _step_of(data: bytes) -> int | None:
    """The step of an envelope's canonical bytes (its top-level `step` is the last one: the
    body comes first), or None when it cannot be read."""
    at = data.rfind(_STEP)
    if at < 0:
        return None
    end = at + len(_STEP)
    digits = end
    while digits < len(data) and 48 <= data[digits] <= 57 and digits - end < 9:
        digits += 1
    return int(data[end:digits]) if digits > end else None


class OncePerLink:
    """`Links` that hold back an answer's copy of an envelope the link carried lately (see the
    module doc); everything else is the wrapped links'."""

    def __init__(self, links: Links, log: SentLog | None = None,
                 seats: Mapping[PeerKey, int] | None = None) -> None:
        """`seats`: the table's seat of each peer key (its own messages tell its step)."""
        self._links = links
        self.log = log if log is not None else SentLog()
        self.public_key = links.public_key
        self._seats = dict(seats or {})

    @property
    def address(self) -> str:
        return self._links.address

    async def connect(self, address: str, expected_key: PeerKey | None = None) -> PeerKey:
        return await self._links.connect(address, expected_key)

    async def send(self, peer: PeerKey, data: bytes) -> None:
        if self.log.repeat(peer, data):
            return
        await self._links.send(peer, data)
        self.log.record((peer,), data)

    async def broadcast(self, data: bytes) -> list[PeerKey]:
        peers = await self._links.broadcast(data)
        self.log.record(peers, data)
        return peers

    async def next_event(self) -> LinkEvent:
        ev = await self._links.next_event()
        if isinstance(ev, (LinkUp, LinkDown)):
            self.log.forget(ev.peer)
        elif isinstance(ev, Received) and isinstance(ev.value, dict):
            self._learn_step(ev.peer, ev.value)
        return ev

    def _learn_step(self, peer: PeerKey, value: dict[str, object]) -> None:
        """What a frame of `peer` (parsed, unverified: it can only make the record smaller or
        let a peer lie about itself) says of its step."""
        step = value.get("step")
        if type(step) is not int or not 0 <= step <= 10_000_000:
            return
        kind = value.get("ctl")
        if kind in ("sync", "digest"):
            self.log.at_step(peer, step)
        elif kind is None:  # an envelope: its own, or one it stores (within its window)
            own = peer in self._seats and value.get("seat") == self._seats[peer]
            self.log.at_step(peer, step if own else max(0, step - MAX_STEPS_AHEAD))

    def peers(self) -> list[PeerKey]:
        return self._links.peers()

    def paths(self) -> dict[PeerKey, tuple[str, float | None]]:
        return self._links.paths()

    def admit_only(self, keys: Iterable[PeerKey] | None) -> None:
        self._links.admit_only(keys)

    async def disconnect(self, peer: PeerKey, reason: str = "disconnected") -> None:
        await self._links.disconnect(peer, reason)

    async def close(self) -> None:
        await self._links.close()
