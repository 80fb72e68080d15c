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
import base64
import binascii
import struct
import time
import zlib
from collections.abc import Awaitable, Callable
from typing import Any

from ..handshake import CLOSE_BAD_FRAMES, CLOSE_FLOODED
from ..limits import TokenBucket
from ..linkset import CLOSE_MESSAGE_TOO_BIG, peer_text
from ..nostr.sizing import escaped_size, split_to_fit
from .reassembly import Reassembler

logger = logging.getLogger(__name__)

_MORE, _LAST, _PING, _PONG, _CLOSE, _CREDIT = 0, 1, 2, 3, 4, 5
RTC_FRAGMENT = 60000  # under every implementation's SCTP message limit (64 KiB)
_HIGH_WATER = 1 << 20
_MAX_REASON = 123  # bytes of a close reason, as on a websocket


class Channel:
    """Common part: the incoming queue, the send window, the closed flag, the RTT estimate.

    Flow control (the link core's one policy, pace and never cut an honest peer): neither
    carrier can stop the other side sending by not reading, as TCP does, so each side grants the
    other a *window* of frames: it sends at most ``window`` frames beyond the count its peer last
    said it consumed (a credit), and waits for the next credit when the window is full; a reader
    grants credit as it consumes.  A peer with more unread frames than the bound is flooding:
    the channel ends with ``CLOSE_FLOODED``, and the reason says so.  A sender that waited
    ``PROBE_AFTER`` seconds for credit *probes* (a carrier that may lose frames says how many it
    sent, so lost ones are credited too, and the reader answers with its count)."""

    path = "?"
    #: whether ``send`` waits for credit (a test of the flood bound turns it off)
    PACED = True
    #: seconds a sender waits for credit before it probes (None: a reliable carrier never does)
    PROBE_AFTER: float | None = None

    def __init__(self, max_queued: int) -> None:
        self.incoming: asyncio.Queue[str | None] = asyncio.Queue()
        self.window = max(4, max_queued // 2)
        self._bound = max(self.window + 8, max_queued)  # unread frames past this: flooding
        self.closed = False
        self.rtt: float | None = None
        self.heard = time.monotonic()  # last sign of life from the peer (a frame or a pong)
        #: why the channel ended: (code, reason, whether the peer broke the rules)
        self.end: tuple[int | None, str, bool] = (None, "link closed", False)
        self._consumed = 0  # frames the reader took
        self._credited = 0  # the consumed count last told to the peer
        self._sent = 0  # frames sent
        self._credit = 0  # the peer's consumed count, as it last told us
        self._room = asyncio.Event()
        self._farewell_said = False

    def _push(self, text: str) -> None:
        if self.closed:
            return
        if self.incoming.qsize() >= self._bound:  # past its window (slack: credits in flight)
            self._mark_closed(CLOSE_FLOODED, "flooded: sent past its window", True)
            return
        self.incoming.put_nowait(text)

    def _mark_closed(self, code: int | None = None, reason: str = "link closed",
                     fault: bool = False) -> None:
        if not self.closed:
            self.closed = True
            if code is not None:
                self.end = (code, reason, fault)
            self.incoming.put_nowait(None)
            self._room.set()

    def mark_closed(self) -> None:
        """Mark the channel closed now (the reader gets its end marker) without the close
        itself, which may block: the caller runs ``close()`` in the background."""
        self._mark_closed()

    def _rtt_sample(self, sample: float) -> None:
        self.heard = time.monotonic()
        self.rtt = sample if self.rtt is None else 0.8 * self.rtt + 0.2 * sample

    async def receive(self) -> str | None:
        """The next frame, None once closed; consuming it may grant the peer more credit."""
        text = await self.incoming.get()
        if text is not None:
            self._consumed += 1
            self._maybe_credit()
        return text

    def _maybe_credit(self) -> None:
        """Grant credit once a quarter window more was read (or counted lost) since the last."""
        if self._consumed - self._credited >= max(1, self.window // 4):
            self._credit_now()

    async def _take_window(self) -> None:
        """Wait for room in the send window (the peer reads slowly: pace, do not buffer)."""
        while self.PACED and self._sent - self._credit >= self.window and not self.closed:
            self._room.clear()
            try:  # (asyncio.timeout: 3.11's wait_for can drop a cancellation)
                async with asyncio.timeout(self.PROBE_AFTER):
                    await self._room.wait()
            except TimeoutError:
                self._probe()
        if self.closed:
            raise ConnectionError("channel closed")
        self._sent += 1

    def _credited_to(self, count: int) -> None:
        if self._credit < count <= self._sent:
            self._credit = count
            self._room.set()

    def _send_credit(self, count: int) -> None:
        """Tell the peer it may send up to ``count + window`` frames in all."""

    def _probe(self) -> None:
        """The window stayed full ``PROBE_AFTER`` seconds: ask the reader for its count."""

    def _count_lost(self, lost: int) -> None:
        """``lost`` frames the peer sent will never arrive: they count as read (credited)."""
        self._consumed += lost
        self._maybe_credit()

    def _credit_now(self) -> None:
        """Tell the peer the count read so far (the answer to a probe)."""
        self._credited = self._consumed
        self._send_credit(self._consumed)

    def farewell(self, code: int, reason: str) -> None:
        """Tell the peer why the link closes (once, best effort), after what was queued."""

    async def send(self, text: str) -> None:
        raise RuntimeError("abstract")

    def ping(self) -> None:
        """Send a keepalive; its answer refreshes ``heard`` and the RTT."""

    async def drain(self) -> None:
        """Return once every frame sent so far has left this end (the caller bounds the wait:
        a leaving peer drains before it closes, so its last frames, `done` above all, arrive)."""

    async def close(self) -> None:
        self._mark_closed()


class RtcChannel(Channel):
    """A reliable, ordered WebRTC data channel; frames are cut into binary fragments."""

    def __init__(self, pc: Any, dc: Any, path: str, max_message: int, max_queued: int) -> None:
        super().__init__(max_queued)
        self.pc, self.dc, self.path = pc, dc, path
        self._max = max_message
        self._parts: list[bytes] = []
        self._size = 0
        dc.on("message", self._message)
        dc.on("close", self._mark_closed)
        pc.on("connectionstatechange", self._state)
        self._acks: dict[bytes, asyncio.Future[None]] = {}

    def _state(self) -> None:
        if self.pc.connectionState in ("failed", "closed"):
            self._mark_closed()

    def _message(self, data: object) -> None:
        if not isinstance(data, bytes) or not data:
            self._broken()
            return
        kind, body = data[0], data[1:]
        self.heard = time.monotonic()
        if kind == _CREDIT and len(body) == 4:
            self._credited_to(struct.unpack(">I", body)[0])
        elif kind == _CLOSE and len(body) >= 2:
            (code,) = struct.unpack(">H", body[:2])
            reason = peer_text(body[2:2 + _MAX_REASON].decode("utf-8", "replace"))
            self._mark_closed(code, reason or "closed by peer")
        elif kind == _PING and len(body) == 8:
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
                self._mark_closed(CLOSE_MESSAGE_TOO_BIG, "message too big", True)
                return
            self._parts.append(body)
            if kind == _LAST:
                raw = b"".join(self._parts)
                self._parts, self._size = [], 0
                try:
                    self._push(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    self._broken()
        else:
            self._broken()

    def _broken(self) -> None:
        """A peer breaking the framing is cut off."""
        self._mark_closed(CLOSE_BAD_FRAMES, "broken data channel framing", True)

    def _quiet_send(self, data: bytes) -> None:
        with contextlib.suppress(Exception):
            if self.dc.readyState == "open":
                self.dc.send(data)

    def ping(self) -> None:
        self._quiet_send(bytes([_PING]) + struct.pack(">d", time.monotonic()))

    def _send_credit(self, count: int) -> None:
        self._quiet_send(bytes([_CREDIT]) + struct.pack(">I", count & 0xFFFFFFFF))

    def farewell(self, code: int, reason: str) -> None:
        if not self._farewell_said:
            self._farewell_said = True
            self._quiet_send(bytes([_CLOSE]) + struct.pack(">H", code)
                             + reason.encode("utf-8")[:_MAX_REASON])

    async def send(self, text: str) -> None:
        await self._take_window()
        if self.dc.readyState != "open":
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
        self._mark_closed()
        with contextlib.suppress(Exception):
            await self.pc.close()


#: send(kind, seq, part, parts, body, on_refused): ``on_refused`` is called if a relay refuses
#: the event for its size (the packet is then cut again, smaller, and sent again)
RelaySend = Callable[[str, int, int, int, str, Callable[[], None] | None], Awaitable[None]]
#: packets a relay channel keeps after sending, to send again cut smaller after a size refusal
_KEPT_PACKETS = 128


#: a packet sent compressed: this marker, then base85 (``base64.b85encode``: no character
#: JSON escapes) of the raw deflate stream of the packet's UTF-8 JSON
_ZIPPED = "z"


def pack(packet: str) -> str:
    """A packet as it travels: compressed when that makes it shorter once JSON-escaped in a
    data signal (proofs in base64 compress little, the JSON around them well), else as is."""
    raw = packet.encode("utf-8")
    if len(raw) < 256:
        return packet
    squeezed = zlib.compressobj(6, zlib.DEFLATED, -15)
    zipped = _ZIPPED + base64.b85encode(squeezed.compress(raw) + squeezed.flush()).decode("ascii")
    return zipped if len(zipped) < escaped_size(packet) else packet


def unpack(text: str, limit: int) -> str | None:
    """The packet ``pack`` made of ``text``; None if it is broken or would inflate past
    ``limit`` bytes (a deflate bomb)."""
    if not text.startswith(_ZIPPED):
        return text
    try:
        data = base64.b85decode(text[len(_ZIPPED):])
        inflater = zlib.decompressobj(-15)
        raw = inflater.decompress(data, limit)
        if inflater.unconsumed_tail or not inflater.eof or inflater.unused_data:
            return None
        return raw.decode("utf-8")
    except (ValueError, binascii.Error, zlib.error, UnicodeDecodeError):
        return None


class RelayChannel(Channel):
    """Frames carried in encrypted NOSTR events (see ``nostr.signal``).  Frames sent close
    together travel as one *packet* (a JSON array of frames, compressed when that pays:
    ``pack``; cut into parts of at most ``chunk`` characters), so a burst of small table
    messages costs one event, not one each; events are paced by a token bucket so a table
    never floods the relays (its rate, ``rate()``, is what the relays take now: the pool
    stripes a link's events across them); packets are reassembled in order on the other
    side.  ``budget()`` says how many escaped bytes of
    body one event may carry now (the smallest relay limit): parts are cut to it, and a packet
    a relay refused for its size is cut again to the new budget and sent again, whole."""

    path = "relay"
    LINGER = 0.01  # seconds a packet waits for more frames before it goes

    def __init__(self, send: RelaySend, budget: Callable[[], int],
                 rate: float | Callable[[], float], burst: int,
                 gap: float, max_message: int, max_queued: int) -> None:
        super().__init__(max_queued)
        self._send = send
        self._budget = budget
        self._kept: dict[int, str] = {}  # seq -> packet, the last _KEPT_PACKETS sent
        self._again: list[int] = []  # packets to cut again and resend
        self.resent = 0
        self._rate = rate if callable(rate) else (lambda: rate)
        self._bucket = TokenBucket(self._rate(), burst)
        self._seq = 0
        self._in = Reassembler(gap, max_chars=max_message * 2)
        self._max = max_message
        self._out: list[str] = []  # frames, and link control elements already encoded
        self._out_chars = 0
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        self._idle = asyncio.Event()  # nothing queued and no packet on its way out
        self._idle.set()
        self._bye: tuple[int, float] | None = None  # the peer's bye: (packets it sent, when)
        self._gap = gap
        self.PROBE_AFTER = gap  # a lost packet or credit is given up after the gap
        self._packed = 0  # frames put into packets (each packet says how many went before it)
        self._arrived = 0  # the peer's frames delivered here or known lost
        self._probe_due = False
        self._flusher = asyncio.ensure_future(self._flush())
        self._ticker = asyncio.ensure_future(self._tick(gap))
        self.packets_sent = 0

    async def send(self, text: str) -> None:
        """Queue a frame (order kept); waits while more than two frames' worth are queued."""
        if self.closed:
            raise ConnectionError("relay channel closed")
        if len(text) > self._max:
            raise ValueError("frame too large")
        await self._take_window()
        while self._out_chars > 2 * self._max and not self.closed:
            self._drained.clear()
            await self._drained.wait()
        self._queue(json.dumps(text, ensure_ascii=False))

    def _queue(self, element: str) -> None:
        """Queue one packet element (a JSON string: a frame; a JSON array: link control)."""
        self._out.append(element)
        self._out_chars += len(element)
        self._idle.clear()
        self._wake.set()

    def _send_credit(self, count: int) -> None:
        if not self.closed:
            self._queue(json.dumps(["credit", count]))

    def farewell(self, code: int, reason: str) -> None:
        if not self._farewell_said and not self._flusher.done():
            self._farewell_said = True
            self._queue(json.dumps(["close", code, reason[:_MAX_REASON]], ensure_ascii=False))

    def ping(self) -> None:
        if not self.closed:
            asyncio.ensure_future(self._quietly("ping", int(time.time() * 1000)))

    def _probe(self) -> None:
        """A packet of no frame: the peer learns how many were sent (and lost) and answers."""
        self._probe_due = True
        self._idle.clear()
        self._wake.set()

    def _next_packet(self) -> str:
        """The next packet: ``["sent", n]`` (the frames of this link in packets before it),
        then the queued elements that fit (none: a probe)."""
        elements = self._take_packet() if self._out else []
        self._probe_due = False
        marker = f'["sent",{self._packed}]'
        self._packed += sum(e.startswith('"') for e in elements)
        return "[" + ",".join([marker, *elements]) + "]"

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
            while (self._out or self._again or self._probe_due) and not self.closed:
                if self._again:
                    seq = self._again.pop(0)
                    packet = self._kept.get(seq)
                    if packet is None:
                        continue
                    self.resent += 1
                else:
                    packet = pack(self._next_packet())
                    seq, self._seq = self._seq, self._seq + 1
                    self._kept[seq] = packet
                    self._kept.pop(seq - _KEPT_PACKETS, None)
                    self.packets_sent += 1
                await self._send_packet(seq, packet)
            self._wake.clear()
            if not self._out and not self._again and not self._probe_due:
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
                self._bucket.rate = max(self._rate(), 0.5)
                wait = self._bucket.take(1)
                if wait:
                    await asyncio.sleep(wait)
                await self._send("data", seq, i, len(parts), body, again)
        except ConnectionError as exc:  # no relay right now: the table's catch-up
            logger.info("relay packet lost: %s", exc)  # repairs what this loses

    def _deliver_packet(self, packet: str) -> None:
        text = unpack(packet, 2 * self._max + 1024)
        try:
            elements = json.loads(text) if text is not None else None
        except (ValueError, RecursionError):
            elements = None
        if not isinstance(elements, list):
            elements = [None]
        for element in elements:
            if isinstance(element, str):
                self._arrived += 1
                self._push(element)
            elif _is_control(element, "sent", int):
                self._sent_before(element[1], probe=len(elements) == 1)
            elif _is_control(element, "credit", int):
                self._credited_to(element[1])
            elif _is_control(element, "close", int, str) and 0 <= element[1] < 5000:
                self._mark_closed(element[1], peer_text(element[2]) or "closed by peer")
            else:  # a peer breaking the framing is cut off
                self._mark_closed(CLOSE_BAD_FRAMES, "broken relay packet", True)
            if self.closed:
                return

    def _sent_before(self, count: int, probe: bool) -> None:
        """A packet's ``["sent", count]``: frames the peer sent before it that never arrived
        (a packet given up, or lost on its way) count as read; a probe is answered with the
        count read (its last credit may be the thing lost)."""
        if count < self._arrived:
            self._mark_closed(CLOSE_BAD_FRAMES, "broken relay packet", True)
            return
        if count > self._arrived:
            lost, self._arrived = count - self._arrived, count
            self._count_lost(lost)
        if probe:
            self._credit_now()

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

    async def drain(self) -> None:
        """Every queued frame handed to the relays (paced by the token bucket as usual)."""
        waiter = asyncio.ensure_future(self._idle.wait())
        try:
            while not self.closed and not waiter.done():
                await asyncio.wait({waiter}, timeout=0.05)
        finally:
            waiter.cancel()

    async def close(self) -> None:
        self._ticker.cancel()
        self._flusher.cancel()
        if not self.closed:  # the bye counts the packets sent: the peer waits for them
            with contextlib.suppress(Exception):
                await self._send("bye", self._seq, 0, 1, "", None)
        self._mark_closed()


def _is_control(element: object, name: str, *types: type) -> bool:
    """True when ``element`` is the link control array ``[name, <types>...]``."""
    return (isinstance(element, list) and len(element) == len(types) + 1
            and element[0] == name
            and all(type(v) is t for v, t in zip(element[1:], types, strict=True)))
