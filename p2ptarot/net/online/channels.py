"""The two kinds of byte pipe an online link can ride on, behind one small shape.

A channel carries text frames (UTF-8 JSON objects) both ways, measures its round-trip time and
says which path it took: ``direct`` (a WebRTC data channel between the peers' own addresses,
possibly after NAT hole punching with STUN), ``turn`` (the data channel through a TURN relay)
or ``relay`` (frames chunked into encrypted NOSTR events, rate-limited).  Incoming frames go to
a bounded queue; ``None`` in the queue means the channel closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import struct
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..limits import TokenBucket
from ..nostr.sizing import split_to_fit
from .reassembly import Reassembler

logger = logging.getLogger(__name__)

_MORE, _LAST, _PING, _PONG = 0, 1, 2, 3
RTC_FRAGMENT = 60000  # under every implementation's SCTP message limit (64 KiB)
_HIGH_WATER = 1 << 20


class Channel:
    """Common part: the incoming queue, the closed flag, the RTT estimate."""

    path = "?"

    def __init__(self, max_queued: int) -> None:
        self.incoming: asyncio.Queue[str | None] = asyncio.Queue(max_queued)
        self.closed = False
        self.rtt: float | None = None
        self.overflowed = False
        self.heard = time.monotonic()  # last sign of life from the peer (a frame or a pong)

    def _push(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.incoming.put_nowait(text)
        except asyncio.QueueFull:  # a peer flooding faster than the table reads: cut it off
            self.overflowed = True
            self._mark_closed()

    def _mark_closed(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.incoming.put_nowait(None)
            if self.incoming.full():  # make room for the end marker
                with contextlib.suppress(asyncio.QueueEmpty):
                    self.incoming.get_nowait()
                self.incoming.put_nowait(None)

    def mark_closed(self) -> None:
        """Mark the channel closed now (the reader gets its end marker) without the close
        itself, which may block: the caller runs ``close()`` in the background."""
        self._mark_closed()

    def _rtt_sample(self, sample: float) -> None:
        self.heard = time.monotonic()
        self.rtt = sample if self.rtt is None else 0.8 * self.rtt + 0.2 * sample

    async def send(self, text: str) -> None:
        raise RuntimeError("abstract")

    async def drain(self) -> None:
        """Return once every frame sent so far has left this end (the caller bounds the wait:
        a leaving peer drains before it closes, so its last frames, `done` above all, arrive)."""

    async def close(self) -> None:
        self._mark_closed()


class RtcChannel(Channel):
    """A reliable, ordered WebRTC data channel; frames are cut into binary fragments."""

    def __init__(self, pc: Any, dc: Any, path: str, max_message: int, max_queued: int,
                 ping_interval: float) -> None:
        super().__init__(max_queued)
        self.pc, self.dc, self.path = pc, dc, path
        self._max = max_message
        self._parts: list[bytes] = []
        self._size = 0
        dc.on("message", self._message)
        dc.on("close", self._mark_closed)
        pc.on("connectionstatechange", self._state)
        self._pinger = asyncio.ensure_future(self._ping(ping_interval))
        self._acks: dict[bytes, asyncio.Future[None]] = {}

    def _state(self) -> None:
        if self.pc.connectionState in ("failed", "closed"):
            self._mark_closed()

    def _message(self, data: object) -> None:
        if not isinstance(data, bytes) or not data:
            self._mark_closed()  # a peer breaking the framing is cut off
            return
        kind, body = data[0], data[1:]
        self.heard = time.monotonic()
        if kind == _PING and len(body) == 8:
            with contextlib.suppress(Exception):
                self.dc.send(bytes([_PONG]) + body)
        elif kind == _PONG and len(body) == 8:
            ack = self._acks.pop(body, None)
            if ack is not None and not ack.done():
                ack.set_result(None)
            (sent,) = struct.unpack(">d", body)
            if 0 <= time.monotonic() - sent < 600:
                self._rtt_sample(time.monotonic() - sent)
        elif kind in (_MORE, _LAST):
            self._size += len(body)
            if self._size > self._max:
                self._mark_closed()
                return
            self._parts.append(body)
            if kind == _LAST:
                raw = b"".join(self._parts)
                self._parts, self._size = [], 0
                try:
                    self._push(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    self._mark_closed()
        else:
            self._mark_closed()

    async def _ping(self, interval: float) -> None:
        """Ping every ``interval``; a peer silent for 6 intervals is gone (the link closes and
        the table's healing dials again)."""
        with contextlib.suppress(Exception):
            while not self.closed:
                if time.monotonic() - self.heard > 6 * interval:
                    self._mark_closed()
                    break
                if self.dc.readyState == "open":
                    self.dc.send(bytes([_PING]) + struct.pack(">d", time.monotonic()))
                await asyncio.sleep(interval)

    async def send(self, text: str) -> None:
        if self.closed or self.dc.readyState != "open":
            raise ConnectionError("data channel closed")
        raw = text.encode("utf-8")
        chunks = [raw[i:i + RTC_FRAGMENT] for i in range(0, len(raw), RTC_FRAGMENT)] or [b""]
        for i, chunk in enumerate(chunks):
            while self.dc.bufferedAmount > _HIGH_WATER and not self.closed:
                await asyncio.sleep(0.01)  # the peer reads slowly: wait rather than buffer
            self.dc.send(bytes([_LAST if i == len(chunks) - 1 else _MORE]) + chunk)

    async def drain(self) -> None:
        """The channel is reliable and ordered, but closing the peer connection aborts the SCTP
        association and loses what is not acknowledged yet: a ping sent after everything else
        comes back as a pong only once the peer has read all of it."""
        if self.closed or self.dc.readyState != "open":
            return
        body = struct.pack(">d", time.monotonic())
        ack: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._acks[body] = ack
        try:
            self.dc.send(bytes([_PING]) + body)
            while not ack.done() and not self.closed:
                await asyncio.wait({ack}, timeout=0.05)
        except Exception as exc:  # the link died meanwhile: nothing more can leave
            logger.debug("drain ended: %s", exc)
        finally:
            self._acks.pop(body, None)

    async def close(self) -> None:
        self._pinger.cancel()
        self._mark_closed()
        with contextlib.suppress(Exception):
            await self.pc.close()


#: send(kind, seq, part, parts, body, on_refused): ``on_refused`` is called if a relay refuses
#: the event for its size (the packet is then cut again, smaller, and sent again)
RelaySend = Callable[[str, int, int, int, str, Callable[[], None] | None], Awaitable[None]]
#: packets a relay channel keeps after sending, to send again cut smaller after a size refusal
_KEPT_PACKETS = 128


class RelayChannel(Channel):
    """Frames carried in encrypted NOSTR events (see ``nostr.signal``).  Frames sent close
    together travel as one *packet* (a JSON array of frames, cut into parts of at most
    ``chunk`` characters), so a burst of small table messages costs one event, not one each;
    events are paced by a token bucket so a table never floods the relays; packets are
    reassembled in order on the other side.  ``budget()`` says how many escaped bytes of
    body one event may carry now (the smallest relay limit): parts are cut to it, and a packet
    a relay refused for its size is cut again to the new budget and sent again, whole."""

    path = "relay"
    LINGER = 0.01  # seconds a packet waits for more frames before it goes

    def __init__(self, send: RelaySend, budget: Callable[[], int], rate: float, burst: int,
                 gap: float,
                 max_message: int, max_queued: int, ping_interval: float) -> None:
        super().__init__(max_queued)
        self._send = send
        self._budget = budget
        self._kept: dict[int, str] = {}  # seq -> packet, the last _KEPT_PACKETS sent
        self._again: list[int] = []  # packets to cut again and resend
        self.resent = 0
        self._bucket = TokenBucket(rate, burst)
        self._seq = 0
        self._in = Reassembler(gap, max_chars=max_message * 2)
        self._max = max_message
        self._out: list[str] = []
        self._out_chars = 0
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        self._idle = asyncio.Event()  # nothing queued and no packet on its way out
        self._idle.set()
        self._bye: tuple[int, float] | None = None  # the peer's bye: (packets it sent, when)
        self._gap = gap
        self._flusher = asyncio.ensure_future(self._flush())
        self._pinger = asyncio.ensure_future(self._ping(ping_interval))
        self._ticker = asyncio.ensure_future(self._tick(gap))
        self.packets_sent = 0

    async def send(self, text: str) -> None:
        """Queue a frame (order kept); waits while more than two frames' worth are queued."""
        if self.closed:
            raise ConnectionError("relay channel closed")
        if len(text) > self._max:
            raise ValueError("frame too large")
        while self._out_chars > 2 * self._max and not self.closed:
            self._drained.clear()
            await self._drained.wait()
        self._out.append(text)
        self._out_chars += len(text)
        self._idle.clear()
        self._wake.set()

    def _take_packet(self) -> list[str]:
        frames, size = [self._out.pop(0)], 0
        size = len(frames[0])
        chunk = self._budget()
        while self._out and size + len(self._out[0]) <= chunk:
            size += len(self._out[0])
            frames.append(self._out.pop(0))
        self._out_chars -= size
        if self._out_chars <= 2 * self._max:
            self._drained.set()
        return frames

    async def _flush(self) -> None:
        while not self.closed:
            await self._wake.wait()
            await asyncio.sleep(self.LINGER)  # let the rest of a burst join this packet
            while (self._out or self._again) and not self.closed:
                if self._again:
                    seq = self._again.pop(0)
                    packet = self._kept.get(seq)
                    if packet is None:
                        continue
                    self.resent += 1
                else:
                    packet = json.dumps(self._take_packet(), ensure_ascii=False,
                                        separators=(",", ":"))
                    seq, self._seq = self._seq, self._seq + 1
                    self._kept[seq] = packet
                    self._kept.pop(seq - _KEPT_PACKETS, None)
                    self.packets_sent += 1
                await self._send_packet(seq, packet)
            self._wake.clear()
            if not self._out and not self._again:
                self._idle.set()

    async def _send_packet(self, seq: int, packet: str) -> None:
        parts = split_to_fit(packet, self._budget())
        refused = False

        def again() -> None:  # a relay refused a part for its size: the whole packet again
            nonlocal refused
            if not refused and not self.closed:
                refused = True
                self._again.append(seq)
                self._idle.clear()
                self._wake.set()
        try:
            for i, body in enumerate(parts):
                wait = self._bucket.take(1)
                if wait:
                    await asyncio.sleep(wait)
                await self._send("data", seq, i, len(parts), body, again)
        except ConnectionError as exc:  # no relay right now: the table's catch-up
            logger.info("relay packet lost: %s", exc)  # repairs what this loses

    def _deliver_packet(self, packet: str) -> None:
        try:
            frames = json.loads(packet)
        except (ValueError, RecursionError):
            frames = None
        if not isinstance(frames, list) or not all(isinstance(f, str) for f in frames):
            self._mark_closed()  # a peer breaking the framing is cut off
            return
        for frame in frames:
            self._push(frame)

    def feed(self, kind: str, seq: int, part: int, parts: int, body: str) -> None:
        """A relay-path signal for this link arrived."""
        now = time.monotonic()
        self.heard = now
        if kind == "data":
            for packet in self._in.feed(seq, part, parts, body, now):
                self._deliver_packet(packet)
            self._maybe_close(now)
        elif kind == "ping":
            asyncio.ensure_future(self._quietly("pong", seq))
        elif kind == "pong":
            sample = time.time() - seq / 1000
            if 0 <= sample < 600:
                self._rtt_sample(sample)
        elif kind == "bye":  # close once the packets it announces are in (or given up)
            self._bye = (seq, now)
            self._maybe_close(now)

    async def _quietly(self, kind: str, seq: int) -> None:
        """A signal nobody waits for (a pong): no relay right now is no error."""
        with contextlib.suppress(ConnectionError):
            await self._send(kind, seq, 0, 1, "", None)

    def _maybe_close(self, now: float) -> None:
        if self._bye is not None and (self._in.next >= self._bye[0]
                                      or now - self._bye[1] > self._gap):
            self._mark_closed()

    async def _tick(self, gap: float) -> None:
        while not self.closed:
            await asyncio.sleep(gap / 2 if self._bye is None else 0.1)
            now = time.monotonic()
            for packet in self._in.poll(now):
                self._deliver_packet(packet)
            self._maybe_close(now)

    async def _ping(self, interval: float) -> None:
        with contextlib.suppress(Exception):
            await asyncio.sleep(1.0)
            while not self.closed:
                if time.monotonic() - self.heard > 12 * interval:  # silent for a minute: gone
                    self._mark_closed()
                    break
                await self._send("ping", int(time.time() * 1000), 0, 1, "", None)
                await asyncio.sleep(interval * 3)  # relay events are dear: ping less often

    async def drain(self) -> None:
        """Every queued frame handed to the relays (paced by the token bucket as usual)."""
        waiter = asyncio.ensure_future(self._idle.wait())
        try:
            while not self.closed and not waiter.done():
                await asyncio.wait({waiter}, timeout=0.05)
        finally:
            waiter.cancel()

    async def close(self) -> None:
        self._pinger.cancel()
        self._ticker.cancel()
        self._flusher.cancel()
        if not self.closed:  # the bye counts the packets sent: the peer waits for them
            with contextlib.suppress(Exception):
                await self._send("bye", self._seq, 0, 1, "", None)
        self._mark_closed()
