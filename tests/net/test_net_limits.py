"""Resource limits of the mesh (issue 9, defects 12 and 13), on real sockets on 127.0.0.1:
strangers cut off once the seats are known, a bounded event queue, a per-link rate limit, a cap
on links, and out-of-descriptor errors reduced to one log line."""

from __future__ import annotations

import asyncio
import errno
import logging

import aiohttp
import pytest

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import LinkDown, LinkRejected, LinkUp, Received
from p2ptarot.net.handshake import CLOSE_FULL, CLOSE_UNEXPECTED_KEY
from p2ptarot.net.limits import ResourceErrorFilter, TokenBucket

pytestmark = pytest.mark.network


def is_up(peer: bytes):
    return lambda e: isinstance(e, LinkUp) and e.peer == peer


async def test_admit_only_cuts_off_linked_strangers(make_mesh, wait_for) -> None:
    """The old `admit_only` kept existing links: a stranger connected before the charter kept
    receiving every broadcast of the game."""
    host = await make_mesh()
    member = await make_mesh()
    stranger = await make_mesh()
    await member.connect(host.url)
    await stranger.connect(host.url)
    await wait_for(host, is_up(stranger.public_key))
    host.admit_only([member.public_key])
    down = await wait_for(stranger, lambda e: isinstance(e, LinkDown))
    assert (down.code, down.reason) == (CLOSE_UNEXPECTED_KEY, "not a member of this table")
    assert await host.broadcast(b'{"step":1}') == [member.public_key]
    got = await wait_for(member, lambda e: isinstance(e, Received))
    assert got.data == b'{"step":1}'
    assert stranger.peers() == []


async def test_event_queue_is_bounded_and_nothing_is_lost(make_mesh, wait_for, until) -> None:
    """A peer sending faster than the runner reads fills a bounded queue, then waits (the old
    queue grew without limit); every frame still arrives, in order."""
    host = await make_mesh(max_queued_events=8)
    peer = await make_mesh()
    await peer.connect(host.url)
    await wait_for(host, is_up(peer.public_key))
    total = 300
    for i in range(total):
        await peer.send(host.public_key, b'{"i":%d}' % i)
    await until(lambda: len(host._events) >= 8)
    await asyncio.sleep(0.2)  # the reader had every chance to overfill it
    assert len(host._events) <= 8
    seen = []
    while len(seen) < total:
        event = await wait_for(host, lambda e: isinstance(e, Received))
        assert len(host._events) <= 8
        seen.append(event.data)
    assert seen == [b'{"i":%d}' % i for i in range(total)]


async def test_flooding_link_is_throttled_not_dropped(make_mesh, wait_for) -> None:
    host = await make_mesh(frame_rate=20.0, frame_burst=5)
    peer = await make_mesh()
    await peer.connect(host.url)
    await wait_for(host, is_up(peer.public_key))
    for i in range(30):
        await peer.send(host.public_key, b'{"i":%d}' % i)
    got = [(await wait_for(host, lambda e: isinstance(e, Received))).data for _ in range(30)]
    assert got == [b'{"i":%d}' % i for i in range(30)]
    assert host.throttled >= 20  # the reader paused for every frame past the burst of 5
    assert host.peers() == [peer.public_key]


def test_token_bucket_charges_beyond_the_burst() -> None:
    bucket = TokenBucket(rate=10.0, burst=3)
    assert [bucket.take(1) for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = bucket.take(1)
    assert 0.05 < wait <= 0.1  # one unit owed at 10 per second
    assert bucket.take(20) > 2.0  # a big frame is paid for, however large


async def test_links_are_capped(make_mesh, wait_for) -> None:
    host = await make_mesh(max_links=1)
    first = await make_mesh()
    second = await make_mesh()
    await first.connect(host.url)
    await wait_for(host, is_up(first.public_key))
    await second.connect(host.url)  # authenticated, then closed by the full host
    down = await wait_for(second, lambda e: isinstance(e, LinkDown))
    assert (down.code, down.reason) == (CLOSE_FULL, "too many links")
    rejected = await wait_for(host, lambda e: isinstance(e, LinkRejected))
    assert (rejected.code, rejected.reason) == (CLOSE_FULL, "too many links")
    assert host.peers() == [first.public_key]


def test_out_of_descriptors_is_one_log_line(caplog) -> None:
    """asyncio logs a traceback for every failed accept; the mesh's handler logs one line per
    interval and passes every other error on."""
    passed: list[dict] = []
    loop = asyncio.new_event_loop()
    try:
        handler = ResourceErrorFilter(lambda _loop, ctx: passed.append(ctx), interval=3600)
        with caplog.at_level(logging.WARNING, logger="p2ptarot.net.limits"):
            for _ in range(1000):
                handler(loop, {"message": "socket.accept() out of system resource",
                               "exception": OSError(errno.EMFILE, "Too many open files")})
        handler(loop, {"message": "something else", "exception": ValueError("x")})
    finally:
        loop.close()
    lines = [r for r in caplog.records if r.name == "p2ptarot.net.limits"]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert "out of system resources" in lines[0].getMessage()
    assert handler.suppressed == 999
    assert [ctx["message"] for ctx in passed] == ["something else"]


async def test_plain_http_request_does_not_keep_a_socket(make_mesh) -> None:
    mesh = await make_mesh(handshake_timeout=0.2, close_timeout=0.2)
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{mesh.port}/") as response:
            assert response.status == 404
    assert mesh._guard.pending <= 1
    async with asyncio.timeout(10):
        while mesh._guard.pending:
            await asyncio.sleep(0.05)


async def test_peer_close_reasons_are_made_printable(make_mesh, wait_for) -> None:
    """A peer chooses its close reason: it reaches logs and terminals without escapes."""
    mesh = await make_mesh()
    peer = await make_mesh()
    await peer.connect(mesh.url)
    await wait_for(mesh, is_up(peer.public_key))
    await peer.disconnect(mesh.public_key, reason="bye\x1b[2J\x07")
    down = await wait_for(mesh, lambda e: isinstance(e, LinkDown))
    assert down.reason == "bye?[2J?"


async def test_oversize_hello_is_refused_before_parsing(make_mesh, wait_for) -> None:
    mesh = await make_mesh()
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(mesh.url)
        await ws.receive()
        await ws.send_str('{"hello":1,"pad":"' + "x" * 100_000 + '"}')
        closing = await ws.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE
        rejected = await wait_for(mesh, lambda e: isinstance(e, LinkRejected))
        assert rejected.reason == "handshake frame too large"


async def test_authenticated_links_outlive_the_handshake_deadline(make_mesh, wait_for) -> None:
    """The guard's deadline applies until the handshake succeeds, never to a link."""
    host = await make_mesh(handshake_timeout=0.2, close_timeout=0.1)
    peer = await make_mesh()
    await peer.connect(host.url)
    await wait_for(host, is_up(peer.public_key))
    await asyncio.sleep(1.0)  # well past the 0.3 s deadline
    assert host._guard.pending == 0 and host.peers() == [peer.public_key]
    await peer.send(host.public_key, b'{"still":1}')
    got = await wait_for(host, lambda e: isinstance(e, Received))
    assert got.data == b'{"still":1}'
