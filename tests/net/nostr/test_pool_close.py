"""A leaving peer's pool waits for its relays to answer what it published before it hangs up (a
relay may drop an event still being stored when its sender disconnects): as long as answers keep
coming, however slowly, and not for ever when none comes.

The relay here answers `OK` on its own schedule (one every 0.3 s, or never); the same path with
a real relay process is `tests/net/online/test_online_relay_loopback.py::
test_a_peer_leaving_right_after_sending_delivers_everything`."""

from __future__ import annotations

import asyncio
import json
import time

from aiohttp import WSMsgType, web

from p2ptarot.net.nostr.event import make_event
from p2ptarot.net.nostr.keys import NostrKey
from p2ptarot.net.nostr.pool import RelayPool


class SlowRelay:
    """A relay on 127.0.0.1 that answers each event `OK` `every` seconds after the one before
    (None: never), and counts the answers sent before the publisher hung up."""

    def __init__(self, every: float | None) -> None:
        self.every = every
        self.events = 0
        self.answered_before_hang_up: int | None = None
        self._runner: web.AppRunner | None = None

    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        return f"ws://127.0.0.1:{port}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return web.json_response({})  # NIP-11: no limits published
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        answered = 0
        queue: asyncio.Queue[str] = asyncio.Queue()

        async def answer() -> None:
            nonlocal answered
            while self.every is not None:
                ident = await queue.get()
                await asyncio.sleep(self.every)
                await ws.send_str(json.dumps(["OK", ident, True, ""]))
                answered += 1
        answering = asyncio.ensure_future(answer())
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                if frame[0] == "EVENT":
                    self.events += 1
                    queue.put_nowait(frame[1]["id"])
                elif frame[0] == "REQ":
                    await ws.send_str(json.dumps(["EOSE", frame[1]]))
        finally:
            self.answered_before_hang_up = answered
            answering.cancel()
        return ws


async def _published(relay: SlowRelay, count: int) -> RelayPool:
    pool = RelayPool([await relay.start()])
    await pool.start()
    assert await pool.wait_connected(10) == 1
    key = NostrKey()
    for i in range(count):
        assert await pool.publish(make_event(key, 20001, [], f"frame {i}", int(time.time())))
    return pool


async def test_a_slow_relay_answers_everything_before_the_pool_hangs_up() -> None:
    relay = SlowRelay(every=0.3)
    try:
        pool = await _published(relay, 6)
        await pool.close(settle=0.5)  # each answer comes within 0.5 s of the one before
        assert relay.events == 6
        for _ in range(50):  # the relay sees the hang-up a moment later
            if relay.answered_before_hang_up is not None:
                break
            await asyncio.sleep(0.05)
        assert relay.answered_before_hang_up == 6
    finally:
        await relay.close()


async def test_a_relay_that_never_answers_does_not_hold_the_pool() -> None:
    relay = SlowRelay(every=None)
    try:
        pool = await _published(relay, 3)
        start = time.monotonic()
        await pool.close(settle=0.5, patience=5.0)
        assert time.monotonic() - start < 4.0  # given up after `settle` s without an answer
    finally:
        await relay.close()
