"""Flow control of online channels: a fast sender is paced by the reader's credits, never cut
off; a sender that ignores its window is closed with CLOSE_FLOODED and a reason; a close frame
carries its code and reason (two data channels wired back to back in memory: the framing is
under test, not aiortc). On the relays, where packets can be lost, the window does not leak:
frames that never arrived are credited, and a sender whose last credit was lost probes for it
(two relay channels wired back to back through a lossy in-memory "relay")."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from p2ptarot.net.handshake import CLOSE_FLOODED
from p2ptarot.net.online.channels import RelayChannel, RtcChannel


class _FakeDc:
    """Just what RtcChannel uses of an aiortc data channel: messages go to the other end."""

    readyState = "open"
    bufferedAmount = 0

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[..., None]] = {}
        self.other: _FakeDc | None = None

    def on(self, name: str, handler: Callable[..., None]) -> None:
        self.handlers[name] = handler

    def send(self, data: bytes) -> None:
        assert self.other is not None
        asyncio.get_running_loop().call_soon(self.other.handlers["message"], data)


class _FakePc:
    connectionState = "connected"

    def on(self, name: str, handler: Callable[..., None]) -> None:
        pass

    async def close(self) -> None:
        pass


def _pair(max_queued: int = 16) -> tuple[RtcChannel, RtcChannel]:
    dc_a, dc_b = _FakeDc(), _FakeDc()
    dc_a.other, dc_b.other = dc_b, dc_a
    return (RtcChannel(_FakePc(), dc_a, "direct", 1 << 20, max_queued),
            RtcChannel(_FakePc(), dc_b, "direct", 1 << 20, max_queued))


async def test_a_fast_sender_waits_for_credit_and_loses_nothing() -> None:
    a, b = _pair(max_queued=16)  # a window of 8 frames
    sent = 0

    async def sender() -> None:
        nonlocal sent
        for i in range(40):
            await a.send(f'{{"n":{i}}}')
            sent += 1
    task = asyncio.ensure_future(sender())
    await asyncio.sleep(0.2)
    assert sent == b.window  # the window is full: the sender waits, the reader has not read
    assert not a.closed and not b.closed
    got = [await asyncio.wait_for(b.receive(), 5) for _ in range(40)]
    await asyncio.wait_for(task, 5)
    assert got == [f'{{"n":{i}}}' for i in range(40)]
    assert not b.closed and b.end == (None, "link closed", False)


async def test_a_sender_ignoring_its_window_is_closed_as_flooding() -> None:
    a, b = _pair(max_queued=16)
    for i in range(16 + 1):  # raw fragments past the bound (16 unread), as a hostile peer would
        a.dc.send(bytes([1]) + f'{{"n":{i}}}'.encode())
    await asyncio.sleep(0.1)
    assert b.closed
    assert b.end == (CLOSE_FLOODED, "flooded: sent past its window", True)


async def test_a_close_frame_carries_code_and_reason() -> None:
    a, b = _pair()
    a.farewell(4004, "not a member of this table\x1b[2J")
    await asyncio.sleep(0.05)
    assert await asyncio.wait_for(b.receive(), 5) is None
    assert b.end == (4004, "not a member of this table?[2J", False)


def _relay_pair(lost: Callable[[str, str, int], bool], gap: float = 0.3
                ) -> tuple[RelayChannel, RelayChannel]:
    """Two relay channels (a window of 8 frames) whose events go to each other, except those
    ``lost(sender, kind, seq)`` says the relays lose."""
    ends: dict[str, RelayChannel] = {}

    def relay(name: str, other: str) -> Callable[..., Awaitable[None]]:
        async def send(kind: str, seq: int, part: int, parts: int, body: str,
                       refused: Callable[[], None] | None) -> None:
            if not lost(name, kind, seq):
                asyncio.get_running_loop().call_soon(ends[other].feed, kind, seq, part, parts,
                                                     body)
        return send
    for name, other in (("a", "b"), ("b", "a")):
        ends[name] = RelayChannel(relay(name, other), lambda: 12000, rate=1000.0, burst=1000,
                                  gap=gap, max_message=1 << 20, max_queued=16)
    return ends["a"], ends["b"]


async def _send_apart(channel: RelayChannel, frames: list[str]) -> None:
    """One packet per frame (each waits out the packet's linger)."""
    for frame in frames:
        await channel.send(frame)
        await asyncio.sleep(3 * RelayChannel.LINGER)


async def test_relay_frames_lost_on_the_way_do_not_shrink_the_window() -> None:
    a, b = _relay_pair(lambda name, kind, seq: name == "a" and kind == "data" and seq < 8)
    frames = [f'{{"n":{i}}}' for i in range(30)]
    sender = asyncio.ensure_future(_send_apart(a, frames))
    # the first 8 packets (a whole window) never arrive: the sender probes, the reader learns
    # that 8 frames were sent before the probe and credits them
    got = [await asyncio.wait_for(b.receive(), 10) for _ in frames[8:]]
    await asyncio.wait_for(sender, 10)
    assert got == frames[8:]
    assert not a.closed and not b.closed
    await a.close()
    await b.close()


async def test_a_relay_sender_whose_credit_was_lost_probes_for_it() -> None:
    a, b = _relay_pair(lambda name, kind, seq: name == "b" and kind == "data" and seq == 0)
    frames = [f'{{"n":{i}}}' for i in range(8)]
    await asyncio.wait_for(_send_apart(a, frames), 5)  # the whole window
    got = [await asyncio.wait_for(b.receive(), 5) for _ in frames]  # its credits: one packet
    assert got == frames
    more = asyncio.ensure_future(a.send('{"n":8}'))  # held until the probe's answer arrives
    assert await asyncio.wait_for(b.receive(), 10) == '{"n":8}'
    await asyncio.wait_for(more, 5)
    assert not a.closed and not b.closed
    await a.close()
    await b.close()
