"""A pool of NOSTR relay connections over aiohttp websockets (NIP-01 client side).

It keeps one websocket per relay URL, re-dials a lost one with backoff, re-sends the live
subscriptions on every (re)connection, publishes each event to every connected relay, and hands
every verified event once (deduplicated by id across relays) to one queue.  Relays are
untrusted: every event is parsed and its signature checked (``event.parse_event``); frames of
any other shape are ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import aiohttp

from .event import Event, EventError, parse_event

logger = logging.getLogger(__name__)

MAX_FRAME = 256 * 1024
_SEEN_IDS = 8192


@dataclass(frozen=True, slots=True)
class Delivered:
    """An event a relay sent for one of our subscriptions."""

    sub: str
    event: Event
    relay: str


def _fresh(filters: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """On a re-connection, ask for the last minute only: what came before was delivered then
    (or is lost; the table's catch-up repairs that), and deduplication has a bounded memory."""
    floor = int(time.time()) - 60
    return [dict(f, since=max(f["since"], floor)) if isinstance(f.get("since"), int) else f
            for f in filters]


class RelayPool:
    """Publish to and subscribe on a set of relays; ``next_event`` yields verified events."""

    def __init__(self, urls: list[str], *, connect_timeout: float = 10.0,
                 max_queued: int = 4096) -> None:
        if not urls:
            raise ValueError("at least one relay URL is needed")
        self.urls = list(dict.fromkeys(urls))
        self._subs: dict[str, list[dict[str, Any]]] = {}
        self._sockets: dict[str, aiohttp.ClientWebSocketResponse] = {}
        self._connected: dict[str, asyncio.Event] = {u: asyncio.Event() for u in self.urls}
        self._queue: asyncio.Queue[Delivered] = asyncio.Queue(max_queued)
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._tasks: list[asyncio.Task[None]] = []
        self._session: aiohttp.ClientSession | None = None
        self._timeout = connect_timeout
        self.published = 0
        self.refused: list[str] = []  # relays' OK false / NOTICE reasons, for diagnosis
        #: ids of published events no relay has answered `OK` for yet (bounded, oldest dropped)
        self._unacked: OrderedDict[str, None] = OrderedDict()
        self._acked = asyncio.Event()
        self._acked.set()

    async def start(self) -> None:
        self._session = aiohttp.ClientSession()
        self._tasks = [asyncio.create_task(self._keep(url)) for url in self.urls]

    async def close(self, settle: float = 3.0) -> None:
        """Close every connection, after waiting at most ``settle`` s for the relays to answer
        what was published (a relay may drop an event still being stored when its sender
        disconnects: the last frames of a leaving peer would be lost)."""
        if self._sockets and not self._acked.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(settle):
                    await self._acked.wait()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for ws in list(self._sockets.values()):
            with contextlib.suppress(Exception):
                await ws.close()
        if self._session is not None:
            await self._session.close()

    async def __aenter__(self) -> RelayPool:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def wait_connected(self, timeout: float) -> int:
        """Wait until at least one relay is connected (or ``timeout``); how many are."""
        waits = [asyncio.ensure_future(e.wait()) for e in self._connected.values()]
        try:
            await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()
        return len(self._sockets)

    @property
    def connected(self) -> int:
        return len(self._sockets)

    async def publish(self, event: Event) -> int:
        """Send to every connected relay; the number of relays it went to."""
        frame = json.dumps(["EVENT", event.to_json()], ensure_ascii=False)
        sent = 0
        for url, ws in list(self._sockets.items()):
            try:
                await ws.send_str(frame)
                sent += 1
            except (ConnectionError, RuntimeError, aiohttp.ClientError) as exc:
                logger.info("publish to %s failed: %s", url, exc)
        self.published += 1
        if sent:
            self._unacked[event.id] = None
            self._acked.clear()
            if len(self._unacked) > _SEEN_IDS:
                self._unacked.popitem(last=False)
        return sent

    async def subscribe(self, sub: str, filters: list[dict[str, Any]]) -> None:
        self._subs[sub] = filters
        frame = json.dumps(["REQ", sub, *filters])
        for ws in list(self._sockets.values()):
            with contextlib.suppress(ConnectionError, RuntimeError, aiohttp.ClientError):
                await ws.send_str(frame)

    async def unsubscribe(self, sub: str) -> None:
        if self._subs.pop(sub, None) is None:
            return
        for ws in list(self._sockets.values()):
            with contextlib.suppress(ConnectionError, RuntimeError, aiohttp.ClientError):
                await ws.send_str(json.dumps(["CLOSE", sub]))

    async def next_event(self) -> Delivered:
        return await self._queue.get()

    # ------------------------------------------------------------------ one relay
    async def _keep(self, url: str) -> None:
        delay = 0.5
        assert self._session is not None
        while True:
            try:
                ws = await self._session.ws_connect(url, timeout=aiohttp.ClientWSTimeout(
                    ws_close=5.0), max_msg_size=MAX_FRAME, heartbeat=20.0,
                    autoping=True)
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
                logger.info("relay %s unreachable: %s", url, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 15.0)
                continue
            delay = 0.5
            self._sockets[url] = ws
            try:
                for sub, filters in list(self._subs.items()):
                    await ws.send_str(json.dumps(["REQ", sub, *_fresh(filters)]))
                self._connected[url].set()
                await self._read(url, ws)
            except (ConnectionError, RuntimeError, aiohttp.ClientError) as exc:
                logger.info("relay %s lost: %s", url, exc)
            finally:
                self._sockets.pop(url, None)
                self._connected[url].clear()
                with contextlib.suppress(Exception):
                    await ws.close()
            await asyncio.sleep(delay)

    async def _read(self, url: str, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR):
                    return
                continue
            try:
                frame = json.loads(msg.data)
            except (ValueError, RecursionError):
                continue
            if not isinstance(frame, list) or not frame or not isinstance(frame[0], str):
                continue
            if frame[0] == "EVENT" and len(frame) == 3 and isinstance(frame[1], str):
                await self._event(url, frame[1], frame[2])
            elif frame[0] in ("OK", "NOTICE", "CLOSED"):
                if frame[0] == "OK" and len(frame) >= 2 and isinstance(frame[1], str):
                    self._unacked.pop(frame[1], None)
                    if not self._unacked:
                        self._acked.set()
                if frame[0] != "OK" or (len(frame) >= 3 and frame[2] is False):
                    self.refused.append(f"{url}: {str(frame)[:200]}")
                    del self.refused[:-32]

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
