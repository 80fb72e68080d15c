"""The meshes' shared event queue (net/events.py EventQueue): bounded, dropping notices only."""

from __future__ import annotations

import asyncio

from p2ptarot.net.events import EventQueue, FrameDropped, LinkDown, LinkRejected, Received

PEER = bytes(32)


async def test_a_full_queue_drops_notices_and_counts_them_but_keeps_link_changes() -> None:
    queue = EventQueue(2)
    queue.emit(LinkRejected("127.0.0.1:1", "bad handshake", None))
    queue.emit(FrameDropped(PEER, "not JSON"))
    queue.emit(FrameDropped(PEER, "not JSON"))  # full: dropped, counted
    queue.emit(LinkDown(PEER, "bye", 1000))  # never dropped
    assert queue.dropped_notices == 1
    assert [type(e) for e in queue.drain()] == [LinkRejected, FrameDropped, LinkDown]
    assert len(queue) == 0


async def test_a_frame_waits_for_room_and_arrives_in_order() -> None:
    queue = EventQueue(1)
    await queue.deliver(Received(PEER, b"1"))
    second = asyncio.ensure_future(queue.deliver(Received(PEER, b"2")))
    await asyncio.sleep(0.05)
    assert not second.done() and len(queue) == 1  # the reader waits instead of growing the queue
    assert (await queue.get()).data == b"1"
    await asyncio.wait_for(second, 5)
    assert (await queue.get()).data == b"2"
