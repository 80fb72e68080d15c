"""A pool of NOSTR relay connections over aiohttp websockets (NIP-01 client side) that obeys
what each relay says.

It keeps one websocket per relay URL, re-dials a lost one with backoff, re-sends the live
subscriptions on every (re)connection, publishes each event to every usable relay, and hands
every verified event once (deduplicated by id across relays) to one queue.  Relays are
untrusted: every event is parsed and its signature checked (``event.parse_event``); frames of
any other shape are ignored.

Relays have limits, and say so (``relay_policy`` decides what each answer means):

- before the first connection, each relay's NIP-11 document is read: its ``limitation`` gives the
  content cap (``sizing.content_cap``); ``auth_required`` drops the relay unless the user gave
  a key for it (``auth_keys``);
- NIP-42: a relay's ``["AUTH", challenge]`` is answered with a kind-22242 event signed by the
  key the user gave for that relay (on connecting, the pool waits ``AUTH_WAIT`` s for the
  challenge before sending anything on it); with no key the challenge is left unanswered, and
  a refusal ``auth-required:`` or ``restricted:`` drops the relay as below;
- a relay that publishes no size limit gets one probe event (``cap_probe``) on a connection
  of its own at start, so its cap is known before a table needs it (``_probe_cap``);
- ``content_cap()`` is the smallest cap of the relays still in use: the relay path sizes its
  events to it;
- ``OK false`` by prefix: ``duplicate:`` is success; ``rate-limited:`` pauses the relay (backoff
  1 s doubling to 4 s, its send rate halved), then the event goes again on a fresh connection;
  ``blocked:``, ``auth-required:``, ``restricted:``, ``pow:`` drop the relay; any other refusal
  of an event larger than ``MIN_CONTENT`` is taken as a size refusal: the relay's cap becomes
  the largest power of two under that event's content (at once ``COMMON_CAP`` on the first
  refusal of a relay that published no limit; the other relays that published none are taken
  to have the same cap) and the publisher's ``on_refused`` hook is called (it re-cuts and
  resends); a refusal of a small event drops the relay (it will not carry our kinds);
- ``CLOSED`` by prefix: the same drops; otherwise the subscription is sent again after backoff;
- ``NOTICE``: ``rate-limited`` pauses the relay; other text is told once per relay.

Each relay's events leave through its own queue, paced by its own token bucket (AIMD, see
``SEND_RATE``), so a slow or throttling relay never holds the others back.  An event published
with ``stripe=True`` (the relay path's data) goes to *one* relay, the one that would send it
soonest: each relay has its own rate limit, so a link carried by two relays moves twice as many
events; when that relay is lost, dropped or rate-limits the event, it moves to another (the
receiver restores the order and ignores duplicates).  What a player should know (a refusal, a drop,
a shrink) goes to ``on_notice`` as a ``RelayNotice``; the front end words it.  When no relay is
left to carry anything (every one dropped, or none reachable ``give_up`` seconds after start),
``failed`` is set and ``failure`` lists why, relay by relay.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp

from ..limits import TokenBucket
from .event import Event, EventError, make_event, parse_event
from .keys import NostrKey
from .sizing import DEFAULT_CONTENT, MIN_CONTENT, content_cap
from p2ptarot.i18n.message import tr

logger = logging.getLogger(__name__)

MAX_FRAME = 256 * 1024
_SEEN_IDS = 8192
_OUT_QUEUE = 2048
_INFLIGHT = 512
#: events per second (and burst) a relay is sent at first: the pace then follows what the
#: relay says (AIMD: each accepted event adds ``RATE_STEP / rate``, about ``RATE_STEP`` events/s
#: per second of steady sending, up to ``MAX_RATE``; a ``rate-limited:`` refusal halves it)
SEND_RATE = 20.0
SEND_BURST = 10
MIN_RATE = 2.0
MAX_RATE = 50.0
RATE_STEP = 2.0
#: the longest pause after a rate limit: under the relay path's gap (8 s), after which a
#: receiver gives a missing packet up
MAX_BACKOFF = 4.0
#: events sent to a relay and not yet answered, at most
WINDOW = 8
#: seconds a send may wait on a relay that stopped reading before the connection is replaced
SEND_TIMEOUT = 5.0
#: seconds after a disconnection whose events a re-subscription asks again
RECONNECT_OVERLAP = 60
_DROP_PREFIXES = ("blocked", "auth-required", "restricted", "pow")
#: the cap a relay that published no limit is taken to have after its first size refusal:
#: nostr-relay's default (4096 characters of content), so learning it costs one refusal, not
#: a halving per refusal from ``DEFAULT_CONTENT``
COMMON_CAP = 4096
#: NIP-42's event kind, and the seconds a relay we hold a key for is given to send its
#: challenge before anything else goes on a new connection
AUTH_KIND = 22242
AUTH_WAIT = 3.0
#: seconds the cap probe waits for the relay's answer (nostr-relay answers a size refusal 2 s
#: late)
PROBE_WAIT = 10.0


@dataclass(frozen=True, slots=True)
class Delivered:
    """An event a relay sent for one of our subscriptions."""

    sub: str
    event: Event
    relay: str


@dataclass(frozen=True, slots=True)
class RelayNotice:
    """Something a relay did that the player should hear of, in one sentence.

    ``what``: ``rate-limited`` (slowing down), ``shrunk`` (events cut smaller: ``cap``
    characters of content), ``dropped`` (no longer used), ``notice`` (the relay's own words),
    ``failed`` (no relay left: ``detail`` lists why)."""

    relay: str
    what: str
    detail: str
    cap: int = 0


def relay_policy(reason: str, content_length: int, cap: int) -> str:
    """What an ``OK false`` answer means: ``ok``, ``rate``, ``drop`` or ``size``."""
    prefix = reason.split(":", 1)[0].strip().lower()
    if prefix == "duplicate":
        return "ok"
    if prefix == "rate-limited":
        return "rate"
    if prefix in _DROP_PREFIXES:
        return "drop"
    if content_length > MIN_CONTENT and cap > MIN_CONTENT:
        return "size"
    return "drop"


def _clean(text: object, limit: int = 160) -> str:
    """A relay's words, safe to print: printable characters only, bounded."""
    out = "".join(c if c.isprintable() else " " for c in str(text))
    return out[:limit]


def nip11_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(("https" if parts.scheme == "wss" else "http", parts.netloc,
                       parts.path or "/", parts.query, ""))


@dataclass(eq=False)
class _Relay:
    url: str
    cap: int = DEFAULT_CONTENT
    limitation: dict[str, Any] | None = None
    dropped: str | None = None
    last_error: str = ""
    ws: aiohttp.ClientWebSocketResponse | None = None
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    out: deque[tuple[str, str]] = field(default_factory=deque)  # (event id, frame)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    inflight: OrderedDict[str, str] = field(default_factory=OrderedDict)
    bucket: TokenBucket = field(default_factory=lambda: TokenBucket(SEND_RATE, SEND_BURST))
    paused_until: float = 0.0
    backoff: float = 0.0
    last_limited: float = 0.0
    lost_at: float | None = None
    told: set[str] = field(default_factory=set)
    recycle: bool = False  # close this connection now and dial again
    recycle_idle: bool = False  # ... once every event sent on it is answered
    room: asyncio.Event = field(default_factory=asyncio.Event)  # inflight under the window
    key: NostrKey | None = None  # the user's NIP-42 key for this relay
    auth_id: str = ""  # our last AUTH event (its OK is not an event's)
    #: its cap is being probed (``cap_probe``): until the answer, it counts as ``COMMON_CAP``
    probing: bool = False


class RelayPool:
    """Publish to and subscribe on a set of relays; ``next_event`` yields verified events."""

    def __init__(self, urls: list[str], *, connect_timeout: float = 10.0,
                 max_queued: int = 4096, give_up: float = 45.0,
                 on_notice: Callable[[RelayNotice], None] | None = None,
                 auth_keys: dict[str, NostrKey] | None = None,
                 cap_probe: Callable[[int], Event] | None = None) -> None:
        if not urls:
            raise ValueError("at least one relay URL is needed")
        self.urls = list(dict.fromkeys(urls))
        self._relays = {u: _Relay(u) for u in self.urls}
        self.auth_keys = auth_keys or {}
        #: makes an event of about that many characters of content, sent once to each relay
        #: that publishes no size limit, on a connection of its own (``_probe_cap``)
        self.cap_probe = cap_probe
        self._subs: dict[str, list[dict[str, Any]]] = {}
        self._queue: asyncio.Queue[Delivered] = asyncio.Queue(max_queued)
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._tasks: list[asyncio.Task[None]] = []
        self._session: aiohttp.ClientSession | None = None
        self._timeout = connect_timeout
        self._give_up = give_up
        self.on_notice = on_notice
        self.published = 0
        self.accepted: dict[str, int] = dict.fromkeys(self.urls, 0)  # events each relay took
        self.refused: list[str] = []  # relays' refusals and notices, for diagnosis
        #: ids of published events no relay has answered `OK` for yet (bounded, oldest dropped)
        self._unacked: OrderedDict[str, None] = OrderedDict()
        self._acked = asyncio.Event()
        self._acked.set()
        #: published events whose publisher wants to hear of a size refusal
        self._hooks: OrderedDict[str, Callable[[], None]] = OrderedDict()
        self._sizes: OrderedDict[str, int] = OrderedDict()  # event id -> content length
        self._striped: OrderedDict[str, None] = OrderedDict()  # events sent to one relay only
        self._turn = 0  # round robin among equally busy relays
        self.failed = asyncio.Event()
        self.failure = ""
        self.eose: dict[str, set[str]] = {}  # sub -> relays that said end of stored events
        self._eose_changed = asyncio.Event()

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        for relay in self._relays.values():  # (``auth_keys`` may be set after construction)
            relay.key = self.auth_keys.get(relay.url)
        self._session = aiohttp.ClientSession()
        self._tasks = [asyncio.create_task(self._keep(r)) for r in self._relays.values()]
        self._tasks += [asyncio.create_task(self._write(r)) for r in self._relays.values()]
        self._tasks.append(asyncio.create_task(self._watch()))

    async def close(self, settle: float = 3.0, patience: float = 15.0) -> None:
        """Close every connection once the relays answered what was published (a relay may
        drop an event still being stored when its sender disconnects: the last frames of a
        leaving peer, its `bye` among them, would be lost): waiting as long as they keep
        answering, at most ``settle`` s without any answer and ``patience`` s in all. A relay
        slowed down by its load answers late, not never: a fixed wait cut it off."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + patience
        while self.connected and not self._acked.is_set() and loop.time() < give_up:
            unanswered = len(self._unacked)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(settle, give_up - loop.time())):
                    await self._acked.wait()
            if len(self._unacked) >= unanswered:
                break  # no answer at all for `settle` s
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for relay in self._relays.values():
            if relay.ws is not None:
                with contextlib.suppress(Exception):
                    await relay.ws.close()
        if self._session is not None:
            await self._session.close()

    async def __aenter__(self) -> RelayPool:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def wait_connected(self, timeout: float) -> int:
        """Wait until at least one relay is connected (or ``timeout``); how many are."""
        waits = [asyncio.ensure_future(r.connected.wait()) for r in self._relays.values()]
        waits.append(asyncio.ensure_future(self.failed.wait()))
        try:
            await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()
        return self.connected

    @property
    def connected(self) -> int:
        return sum(1 for r in self._relays.values() if r.ws is not None and not r.dropped)

    def usable(self) -> list[str]:
        """The relays not dropped (connected or not)."""
        return [r.url for r in self._relays.values() if not r.dropped]

    def content_cap(self) -> int:
        """Characters of content every relay still in use accepts (the smallest cap)."""
        caps = [min(r.cap, COMMON_CAP) if r.probing else r.cap
                for r in self._relays.values() if not r.dropped]
        return min(caps) if caps else MIN_CONTENT

    def limits(self) -> dict[str, dict[str, Any] | None]:
        """Each relay's NIP-11 ``limitation`` (None when it published none)."""
        return {r.url: r.limitation for r in self._relays.values()}

    def status(self) -> dict[str, str]:
        """Per relay: ``connected``, ``dropped: why`` or ``down: last error``."""
        return {r.url: (tr("dropped: {why}", why=r.dropped) if r.dropped else "connected" if r.ws
                        else tr("down: {why}", why=r.last_error or tr("not yet connected")))
                for r in self._relays.values()}

    # ------------------------------------------------------------------ publishing
    def send_rate(self) -> float:
        """Events per second the relays in use take now, together (what striped events may
        be handed to the pool at)."""
        return sum(r.bucket.rate for r in self._relays.values()
                   if not r.dropped and r.ws is not None)

    async def publish(self, event: Event,
                      on_refused: Callable[[], None] | None = None, stripe: bool = False) -> int:
        """Queue for every relay in use that is connected or was (a relay being re-dialled
        gets it once it is back), or with ``stripe`` for the one relay that would send it
        soonest; the number of relays it is queued for.  ``on_refused`` is called (once) if a
        relay refuses the event for its size."""
        frame = json.dumps(["EVENT", event.to_json()], ensure_ascii=False)
        sent = 0
        if stripe:
            relay = self._pick()
            if relay is not None:
                self._queue_on(relay, event.id, frame)
                self._striped[event.id] = None
                _bounded(self._striped)
                sent = 1
        else:
            for relay in self._relays.values():
                if relay.dropped or (relay.ws is None and relay.lost_at is None):
                    continue
                self._queue_on(relay, event.id, frame)
                sent += 1
        self.published += 1
        if sent:
            self._unacked[event.id] = None
            self._acked.clear()
            _bounded(self._unacked)
            self._sizes[event.id] = len(event.content)
            _bounded(self._sizes)
            if on_refused is not None:
                self._hooks[event.id] = on_refused
                _bounded(self._hooks)
        return sent

    def _queue_on(self, relay: _Relay, event_id: str, frame: str, first: bool = False) -> None:
        if len(relay.out) >= _OUT_QUEUE:
            relay.out.popleft()
            logger.info("relay %s: send queue full, oldest event dropped", relay.url)
        if first:
            relay.out.appendleft((event_id, frame))
        else:
            relay.out.append((event_id, frame))
        relay.wake.set()

    def _pick(self, but: _Relay | None = None) -> _Relay | None:
        """The relay in use that would send one more event soonest (its queue over its rate,
        and its pause): connected ones first, else one being re-dialled; None if none."""
        now = time.monotonic()
        relays = list(self._relays.values())
        self._turn = (self._turn + 1) % len(relays)
        order = relays[self._turn:] + relays[:self._turn]
        for live in (True, False):
            usable = [r for r in order if not r.dropped and r is not but
                      and (r.ws is not None if live else r.lost_at is not None)]
            if usable:
                return min(usable, key=lambda r: (len(r.out) + len(r.inflight))
                           / max(r.bucket.rate, MIN_RATE) + max(0.0, r.paused_until - now))
        return None

    def _reroute(self, relay: _Relay, extra: Sequence[tuple[str, str]] = ()) -> None:
        """Move the striped events ``relay`` holds (queued, or sent and not answered), and
        ``extra``, to the other relays (it is lost or dropped): none is left behind."""
        moving = list(extra)
        for event_id, frame in list(relay.inflight.items()):
            if event_id in self._striped:
                moving.append((event_id, frame))
                del relay.inflight[event_id]
        kept: deque[tuple[str, str]] = deque()
        for event_id, frame in relay.out:
            (moving if event_id in self._striped else kept).append((event_id, frame))
        if not moving:
            return
        for event_id, frame in moving:
            other = self._pick(but=relay)
            if other is None or (other.ws is None and not relay.dropped):
                kept.append((event_id, frame))  # nowhere better: it waits for this one
            else:
                self._queue_on(other, event_id, frame)
        relay.out = kept
        relay.room.set()

    async def subscribe(self, sub: str, filters: list[dict[str, Any]]) -> None:
        self._subs[sub] = filters
        self.eose[sub] = set()
        frame = json.dumps(["REQ", sub, *filters])
        for relay in self._relays.values():
            await self._send_now(relay, frame)

    async def unsubscribe(self, sub: str) -> None:
        self.eose.pop(sub, None)
        if self._subs.pop(sub, None) is None:
            return
        for relay in self._relays.values():
            await self._send_now(relay, json.dumps(["CLOSE", sub]))

    async def wait_stored(self, sub: str, timeout: float) -> None:
        """Wait (at most ``timeout`` s) until every relay still in use sent what it stores for
        ``sub`` (its EOSE); relays still unreachable after the connect timeout are not
        waited for."""
        start = time.monotonic()
        while (left := start + timeout - time.monotonic()) > 0:
            pending = [r for r in self._relays.values()
                       if not r.dropped and r.url not in self.eose.get(sub, set())]
            if not pending or (time.monotonic() - start > self._timeout
                               and all(r.ws is None for r in pending)):
                return
            self._eose_changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(left, 0.5)):
                    await self._eose_changed.wait()

    async def next_event(self) -> Delivered:
        return await self._queue.get()

    # ------------------------------------------------------------------ one relay
    async def _send_now(self, relay: _Relay, frame: str) -> None:
        if relay.ws is None or relay.dropped:
            return
        with contextlib.suppress(ConnectionError, RuntimeError, aiohttp.ClientError):
            await relay.ws.send_str(frame)

    async def _nip11(self, relay: _Relay) -> None:
        assert self._session is not None
        try:
            async with asyncio.timeout(5.0), self._session.get(
                    nip11_url(relay.url), headers={"Accept": "application/nostr+json"}) as resp:
                if resp.status != 200:
                    return
                doc = json.loads(await resp.content.read(65536))
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError, RecursionError) as exc:
            logger.info("relay %s: no NIP-11 document (%s)", relay.url, exc)
            return
        if not isinstance(doc, dict):
            return
        limitation = doc.get("limitation")
        if isinstance(limitation, dict):
            relay.limitation = {k: v for k, v in limitation.items()
                                if isinstance(k, str) and isinstance(v, (int, bool))}
            relay.cap = max(min(content_cap(relay.limitation), relay.cap), 0)
            if relay.limitation.get("auth_required") is True and relay.key is None:
                self._drop(relay, "auth-required: the relay's NIP-11 document asks for NIP-42 "
                           "authentication")
            elif relay.cap < MIN_CONTENT:
                self._drop(relay, f"its events may carry only {relay.cap} characters")

    async def _probe_cap(self, relay: _Relay) -> None:
        """Learn the cap of a relay that publishes none before a table needs it: one event of
        ``DEFAULT_CONTENT`` characters on a connection of its own.  A relay that refuses an
        event for its size may stall the connection that sent it for seconds (nostr-relay
        answers after 2 s and reads nothing meanwhile): learnt in play, that stall held every
        relay-path event of the link, in both directions.  Until the answer the relay counts
        as ``COMMON_CAP``; accepted, it keeps ``DEFAULT_CONTENT``; refused for its size, it
        learns the cap as a refusal in play would; no answer (or another refusal) leaves it
        as it was (the refusals in play still teach)."""
        assert self._session is not None and self.cap_probe is not None
        event = self.cap_probe(DEFAULT_CONTENT)
        try:
            async with asyncio.timeout(PROBE_WAIT), self._session.ws_connect(
                    relay.url, max_msg_size=MAX_FRAME) as ws:
                await ws.send_str(json.dumps(["EVENT", event.to_json()], ensure_ascii=False))
                async for msg in ws:
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    with contextlib.suppress(ValueError, RecursionError):
                        frame = json.loads(msg.data)
                        # (nostr-relay names no event when it refuses one: on this
                        # connection any OK answers the probe)
                        if isinstance(frame, list) and len(frame) >= 3 and frame[0] == "OK":
                            reason = frame[3] if len(frame) > 3 and isinstance(frame[3], str) else ""
                            if frame[2] is not True and relay_policy(
                                    reason, len(event.content), relay.cap) == "size":
                                self._learn_cap(relay, len(event.content), reason, spread=False)
                            break
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            logger.info("relay %s: its cap was not probed (%s)", relay.url, exc)
        finally:
            relay.probing = False

    async def _keep(self, relay: _Relay) -> None:
        delay = 0.5
        assert self._session is not None
        await self._nip11(relay)
        if self.cap_probe is not None and not relay.dropped and not _published_cap(relay) \
                and relay.key is None:
            relay.probing = True
            self._tasks.append(asyncio.ensure_future(self._probe_cap(relay)))
        while not relay.dropped:
            wait = relay.paused_until - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                ws = await self._session.ws_connect(relay.url, timeout=aiohttp.ClientWSTimeout(
                    ws_close=5.0), max_msg_size=MAX_FRAME, heartbeat=20.0, autoping=True)
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
                relay.last_error = _clean(exc) or type(exc).__name__
                logger.info("relay %s unreachable: %s", relay.url, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 15.0)
                continue
            delay = 0.5
            relay.ws = ws
            relay.recycle = relay.recycle_idle = False
            try:
                if relay.key is not None:
                    await self._await_challenge(relay, ws)
                floor = None if relay.lost_at is None else int(relay.lost_at) - RECONNECT_OVERLAP
                for sub, filters in list(self._subs.items()):
                    await ws.send_str(json.dumps(["REQ", sub, *_since(filters, floor)]))
                # what the last connection sent and never heard back about goes again
                for event_id, frame in reversed(list(relay.inflight.items())):
                    relay.out.appendleft((event_id, frame))
                relay.inflight.clear()
                relay.room.set()
                relay.connected.set()
                relay.wake.set()
                await self._read(relay, ws)
            except (ConnectionError, RuntimeError, aiohttp.ClientError) as exc:
                relay.last_error = _clean(exc)
                logger.info("relay %s lost: %s", relay.url, exc)
            finally:
                relay.ws = None
                relay.lost_at = time.time()
                relay.connected.clear()
                relay.wake.set()
                self._reroute(relay)
                await _abort(ws)
            await asyncio.sleep(delay)

    async def _write(self, relay: _Relay) -> None:
        """Send this relay's queue, paced by its bucket and its pauses."""
        while not relay.dropped:
            await relay.wake.wait()
            relay.wake.clear()
            while relay.out and relay.ws is not None and not relay.dropped:
                if len(relay.inflight) >= WINDOW:  # a refusal reorders at most this many
                    relay.room.clear()
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(SEND_TIMEOUT):
                            await relay.room.wait()
                    if len(relay.inflight) >= WINDOW and relay.ws is not None:
                        relay.recycle = True  # no answer for a while: start afresh
                        await _abort(relay.ws)
                        break
                    continue
                event_id, frame = relay.out[0]
                if self._sizes.get(event_id, 0) > relay.cap:  # queued before a shrink
                    relay.out.popleft()
                    self._skip(event_id)
                    continue
                wait = max(relay.paused_until - time.monotonic(), relay.bucket.take(1))
                if wait > 0:
                    await asyncio.sleep(wait)
                    if relay.ws is None or not relay.out:
                        break
                if relay.last_limited and time.monotonic() - relay.last_limited > 30:
                    relay.backoff = 0.0  # a while without a rate limit: pause briefly again
                    relay.last_limited = 0.0
                event_id, frame = relay.out.popleft()
                if self._sizes.get(event_id, 0) > relay.cap:
                    self._skip(event_id)
                    continue
                ws = relay.ws
                try:
                    async with asyncio.timeout(SEND_TIMEOUT):
                        await ws.send_str(frame)
                except (ConnectionError, RuntimeError, aiohttp.ClientError, TimeoutError) as exc:
                    relay.out.appendleft((event_id, frame))
                    logger.info("publish to %s failed: %s", relay.url, exc or "timed out")
                    if isinstance(exc, TimeoutError):  # the relay stopped reading this
                        relay.recycle = True  # connection (throttling it): start afresh
                        await _abort(ws)
                    break
                relay.inflight[event_id] = frame
                while len(relay.inflight) > _INFLIGHT:
                    relay.inflight.popitem(last=False)

    def _skip(self, event_id: str) -> None:
        """An event too large for a relay's learnt cap is not sent to it; its publisher re-cuts
        what it carried (once)."""
        self._unacked.pop(event_id, None)
        if not self._unacked:
            self._acked.set()
        hook = self._hooks.pop(event_id, None)
        if hook is not None:
            hook()

    async def _watch(self) -> None:
        """Set ``failed`` when no relay is left, or none connected ``give_up`` s after start."""
        start = time.monotonic()
        ever = False
        while not self.failed.is_set():
            ever = ever or self.connected > 0
            if not self.usable():
                self._fail()
            elif not ever and time.monotonic() - start > self._give_up:
                self._fail()
            await asyncio.sleep(0.5)

    def _fail(self) -> None:
        self.failure = "; ".join(f"{url} {why}" for url, why in self.status().items())
        self.failed.set()
        self._tell(RelayNotice("", "failed", self.failure))

    async def _await_challenge(self, relay: _Relay,
                               ws: aiohttp.ClientWebSocketResponse) -> None:
        """A relay we hold a key for: its first frame is read (``AUTH_WAIT`` s at most) and a
        challenge answered before our subscriptions and events go (else they would be refused
        as unauthenticated)."""
        with contextlib.suppress(TimeoutError):
            msg = await ws.receive(timeout=AUTH_WAIT)
            if msg.type == aiohttp.WSMsgType.TEXT:
                await self._frame(relay, msg.data, ws)
            elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                              aiohttp.WSMsgType.ERROR):
                raise ConnectionError("the relay closed the connection")

    async def _auth(self, relay: _Relay, challenge: object,
                    ws: aiohttp.ClientWebSocketResponse) -> None:
        """Answer a NIP-42 challenge with the user's key for this relay (none: no answer; a
        relay that insists refuses our events with ``auth-required:`` and is dropped)."""
        if relay.key is None or not isinstance(challenge, str) or not 0 < len(challenge) <= 256:
            return
        event = make_event(relay.key, AUTH_KIND, [["relay", relay.url], ["challenge", challenge]],
                           "", int(time.time()))
        relay.auth_id = event.id
        with contextlib.suppress(ConnectionError, RuntimeError, aiohttp.ClientError):
            await ws.send_str(json.dumps(["AUTH", event.to_json()]))

    async def _read(self, relay: _Relay, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR):
                    return
                continue
            await self._frame(relay, msg.data, ws)
            if relay.recycle or relay.dropped:
                return

    async def _frame(self, relay: _Relay, data: str,
                     ws: aiohttp.ClientWebSocketResponse) -> None:
        """One frame a relay sent on ``ws`` (anything malformed is ignored)."""
        try:
            frame = json.loads(data)
        except (ValueError, RecursionError):
            return
        if not isinstance(frame, list) or not frame or not isinstance(frame[0], str):
            return
        kind = frame[0]
        if kind == "AUTH" and len(frame) >= 2:
            await self._auth(relay, frame[1], ws)
        elif kind == "OK" and len(frame) >= 3 and frame[1] == relay.auth_id \
                and isinstance(frame[1], str) and relay.auth_id:
            if frame[2] is not True:  # our key was refused: the relay will not take us
                reason = frame[3] if len(frame) > 3 and isinstance(frame[3], str) else ""
                self._drop(relay, "auth-required: our key was refused (" +
                           (_clean(reason) or "no reason given") + ")")
        elif kind == "EVENT" and len(frame) == 3 and isinstance(frame[1], str):
            await self._event(relay.url, frame[1], frame[2])
        elif kind == "OK" and len(frame) >= 3 and isinstance(frame[1], str):
            self._ok(relay, frame[1], frame[2] is True,
                     frame[3] if len(frame) > 3 and isinstance(frame[3], str) else "")
        elif kind == "EOSE" and len(frame) >= 2 and isinstance(frame[1], str):
            if frame[1] in self.eose:
                self.eose[frame[1]].add(relay.url)
                self._eose_changed.set()
        elif kind == "CLOSED" and len(frame) >= 2 and isinstance(frame[1], str):
            self._closed(relay, frame[1], frame[2] if len(frame) > 2
                         and isinstance(frame[2], str) else "")
        elif kind == "NOTICE" and len(frame) >= 2:
            self._notice(relay, _clean(frame[1]))

    def _ok(self, relay: _Relay, event_id: str, accepted: bool, reason: str) -> None:
        if event_id not in relay.inflight and not accepted and relay.inflight:
            # some relays (nostr-relay) name no event when they refuse one; a relay answers a
            # connection's events in order, so it is the oldest one still unanswered
            event_id = next(iter(relay.inflight))
        frame = relay.inflight.pop(event_id, None)
        if len(relay.inflight) < WINDOW:
            relay.room.set()
        if not relay.inflight and relay.recycle_idle:
            relay.recycle = True
        verdict = "ok" if accepted else relay_policy(
            reason, self._sizes.get(event_id, 0), relay.cap)
        if verdict == "ok":
            if accepted:  # additive increase while the relay takes what we send
                self.accepted[relay.url] = self.accepted.get(relay.url, 0) + 1
                relay.bucket.rate = min(MAX_RATE, relay.bucket.rate
                                        + RATE_STEP / max(relay.bucket.rate, MIN_RATE))
            self._unacked.pop(event_id, None)
            if not self._unacked:
                self._acked.set()
            return
        self._note_refusal(relay, f"OK false {_clean(reason)}")
        if verdict == "rate":
            other = self._pick(but=relay) if event_id in self._striped else None
            if frame is not None and other is not None and other.ws is not None \
                    and other.paused_until <= time.monotonic():
                self._queue_on(other, event_id, frame, first=True)  # another relay takes it
            elif frame is not None:
                relay.out.appendleft((event_id, frame))
            self._slow_down(relay, reason)
        elif verdict == "drop":
            self._drop(relay, _clean(reason) or "refused our events",
                       [(event_id, frame)] if frame is not None and event_id in self._striped
                       else [])
        else:  # size: learn the cap, let the publisher re-cut, and start a fresh connection
            self._learn_cap(relay, self._sizes.get(event_id, 0), reason, spread=True)
            relay.recycle = True  # some relays slow down a connection after each refusal
            relay.paused_until = max(relay.paused_until, time.monotonic() + 0.5)
            hook = self._hooks.pop(event_id, None)
            if hook is not None:
                hook()

    def _learn_cap(self, relay: _Relay, size: int, reason: str, spread: bool) -> None:
        """A relay refused ``size`` characters of content for its size: its cap (and, with
        ``spread``, that of the others that published none, assumed alike) comes down."""
        cap = min(relay.cap, _round_cap(size))
        if not _published_cap(relay) and relay.cap == DEFAULT_CONTENT:
            cap = min(cap, COMMON_CAP)  # a first refusal: straight to the common cap
        relay.cap = max(MIN_CONTENT, cap)
        for other in self._relays.values() if spread else ():
            if other is not relay and not _published_cap(other) and other.cap > relay.cap:
                other.cap = relay.cap  # alike (the cut follows the smallest cap anyway)
        self._tell(RelayNotice(relay.url, "shrunk", _clean(reason), relay.cap),
                   once=f"shrunk{relay.cap}")

    def _slow_down(self, relay: _Relay, reason: str) -> None:
        relay.backoff = min(MAX_BACKOFF, max(1.0, relay.backoff * 2))
        relay.paused_until = time.monotonic() + relay.backoff
        relay.bucket.rate = max(MIN_RATE, relay.bucket.rate / 2)
        relay.last_limited = time.monotonic()
        # a relay may keep throttling the connection it limited (nostr-relay does): once what
        # was sent on it is answered, dial again
        relay.recycle_idle = True
        if not relay.inflight:
            relay.recycle = True
        self._tell(RelayNotice(relay.url, "rate-limited", _clean(reason)), once="rate")

    def _closed(self, relay: _Relay, sub: str, reason: str) -> None:
        self._note_refusal(relay, f"CLOSED {sub} {_clean(reason)}")
        if sub not in self._subs:
            return
        prefix = reason.split(":", 1)[0].strip().lower()
        if prefix in _DROP_PREFIXES:
            self._drop(relay, _clean(reason))
            return
        if prefix == "rate-limited":
            self._slow_down(relay, reason)
        relay.backoff = min(MAX_BACKOFF, max(1.0, relay.backoff * 2))
        frame = json.dumps(["REQ", sub, *_since(self._subs[sub], int(time.time()) - 300)])

        async def again() -> None:
            await asyncio.sleep(relay.backoff)
            if sub in self._subs:
                await self._send_now(relay, frame)
        self._tasks.append(asyncio.ensure_future(again()))

    def _notice(self, relay: _Relay, text: str) -> None:
        self._note_refusal(relay, f"NOTICE {text}")
        if text.lower().startswith("rate-limited"):
            self._slow_down(relay, text)
        elif len(relay.told) < 8:
            self._tell(RelayNotice(relay.url, "notice", text), once=f"notice:{text}",
                       relay=relay)

    def _note_refusal(self, relay: _Relay, text: str) -> None:
        self.refused.append(f"{relay.url}: {text[:200]}")
        del self.refused[:-32]

    def _drop(self, relay: _Relay, why: str, extra: Sequence[tuple[str, str]] = ()) -> None:
        if relay.dropped:
            return
        relay.dropped = why
        self._reroute(relay, extra)
        relay.out.clear()
        relay.wake.set()
        logger.warning("relay %s dropped: %s", relay.url, why)
        self._tell(RelayNotice(relay.url, "dropped", why))
        self._eose_changed.set()

    def _tell(self, notice: RelayNotice, once: str | None = None,
              relay: _Relay | None = None) -> None:
        holder = relay or self._relays.get(notice.relay)
        if once is not None and holder is not None:
            if once in holder.told:
                return
            holder.told.add(once)
        logger.info("relay notice: %s", notice)
        if self.on_notice is not None:
            try:
                self.on_notice(notice)
            except Exception:  # a front end's bug must not stop the pool
                logger.exception("on_notice failed")

    async def _event(self, url: str, sub: str, raw: object) -> None:
        if sub not in self._subs:
            return
        try:
            event = parse_event(raw)
        except EventError as exc:
            logger.info("relay %s sent a bad event: %s", url, exc)
            return
        if event.id in self._seen:
            return
        self._seen[event.id] = None
        if len(self._seen) > _SEEN_IDS:
            self._seen.popitem(last=False)
        await self._queue.put(Delivered(sub, event, url))


def _since(filters: list[dict[str, Any]], floor: int | None) -> list[dict[str, Any]]:
    """On a re-connection, ask again only from shortly before the connection was lost (what
    came earlier was delivered then; deduplication has a bounded memory).  The first
    connection asks with the filters as given: history is what a subscriber asked for."""
    if floor is None:
        return filters
    return [dict(f, since=max(f["since"], floor)) if isinstance(f.get("since"), int) else f
            for f in filters]


def _published_cap(relay: _Relay) -> bool:
    """Whether the relay's NIP-11 document gave a size limit (else its cap is a guess)."""
    limitation = relay.limitation or {}
    return any(k in limitation for k in ("max_message_length", "max_content_length"))


def _round_cap(refused: int) -> int:
    """The cap to assume after a refusal of ``refused`` characters: the largest power of two
    under it (relays' caps are round numbers: 4096, 16384, 65536 ...)."""
    return 1 << max((refused - 1).bit_length() - 1, 0)


async def _abort(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Close a connection now, even one the relay stopped reading (a graceful close would wait
    behind everything queued on it): shut the socket, then let aiohttp tidy up."""
    sock = ws.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(Exception):
        async with asyncio.timeout(1.0):
            await ws.close()


def _bounded(d: OrderedDict[str, Any]) -> None:
    while len(d) > _SEEN_IDS:
        d.popitem(last=False)
