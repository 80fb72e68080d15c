"""One copy of an envelope per link (issue 32, item 7): an answer never sends a link an envelope
it carried lately; a link that comes up or goes down starts afresh; the record is bounded and
expires; control frames and own broadcasts always go out."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import LinkDown, LinkUp, PeerKey, Received
from p2ptarot.net.link import LinkEvent
from p2ptarot.peer.sentlog import OncePerLink, SentLog
from p2ptarot.table.control import SyncFrame
from p2ptarot.table.envelope import seal

ID = Identity.from_seed(b"\x05" * 32)
A, B = b"a" * 32, b"b" * 32


def env(step: int, pad: str = "") -> bytes:
    return seal(ID, b"\x01" * 32, step, 0, b"\x02" * 32, "move", {"step": 999, "pad": pad}
                ).encoded()


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


class FakeLinks:
    """Links to A and B that record what went out and replay queued events."""

    def __init__(self) -> None:
        self.public_key = b"me" * 16
        self.out: list[tuple[PeerKey, bytes]] = []
        self.events: asyncio.Queue[LinkEvent] = asyncio.Queue()

    @property
    def address(self) -> str:
        return "ws://127.0.0.1:1/p2ptarot"

    async def connect(self, address: str, expected_key: PeerKey | None = None) -> PeerKey:
        return expected_key or A

    async def send(self, peer: PeerKey, data: bytes) -> None:
        self.out.append((peer, data))

    async def broadcast(self, data: bytes) -> list[PeerKey]:
        self.out.extend((p, data) for p in (A, B))
        return [A, B]

    async def next_event(self) -> LinkEvent:
        return await self.events.get()

    def peers(self) -> list[PeerKey]:
        return [A, B]

    def paths(self) -> dict[PeerKey, tuple[str, float | None]]:
        return {}

    def admit_only(self, keys: Iterable[PeerKey] | None) -> None:
        pass

    async def disconnect(self, peer: PeerKey, reason: str = "disconnected") -> None:
        pass

    async def close(self) -> None:
        pass


def _links(clock: Clock) -> tuple[FakeLinks, OncePerLink]:
    raw = FakeLinks()
    return raw, OncePerLink(raw, SentLog(clock=clock))


def test_an_answer_never_sends_a_link_an_envelope_it_carried_lately() -> None:
    async def go() -> None:
        clock = Clock()
        raw, links = _links(clock)
        first, second = env(3), env(4)
        assert await links.broadcast(first) == [A, B]  # an own message: always sent
        await links.send(A, first)  # an answer repeating it on the same link: held back
        await links.send(A, second)
        await links.send(A, second)  # the answer's own copy, again: held back
        assert raw.out == [(A, first), (B, first), (A, second)]
        await links.send(B, second)  # another link never carried it
        assert raw.out[-1] == (B, second)
        assert links.log.held_back == 2
        await links.broadcast(first)  # a broadcast is never held back
        assert raw.out[-2:] == [(A, first), (B, first)]
    asyncio.run(go())


def test_control_frames_always_go_out() -> None:
    async def go() -> None:
        raw, links = _links(Clock())
        frame = SyncFrame(step=3).wire()
        for _ in range(3):
            await links.send(A, frame)
        assert raw.out == [(A, frame)] * 3
    asyncio.run(go())


def test_a_link_that_comes_up_or_goes_down_starts_afresh() -> None:
    async def go() -> None:
        raw, links = _links(Clock())
        data = env(2)
        for event in (LinkUp(A, "ws://x", True, True), LinkDown(A, "gone", 1006)):
            await links.send(A, data)
            await links.send(A, data)
            raw.events.put_nowait(event)
            assert await links.next_event() == event
        await links.send(A, data)
        assert raw.out == [(A, data)] * 3
    asyncio.run(go())


def test_a_repeat_goes_out_again_once_the_hold_passed() -> None:
    """A relay-borne link can lose a packet without going down: the hold is bounded."""
    async def go() -> None:
        clock = Clock()
        raw, links = _links(clock)
        data = env(1)
        await links.send(A, data)
        clock.now += links.log.hold - 0.1
        await links.send(A, data)
        clock.now += 0.1
        await links.send(A, data)
        assert raw.out == [(A, data)] * 2
    asyncio.run(go())


def test_a_message_beyond_the_peer_s_window_is_not_recorded() -> None:
    """A receiver drops a message more than 64 steps beyond its step unread: sent before the
    peer got near, it must go out again when that peer asks for it."""
    async def go() -> None:
        raw, links = _links(Clock())
        far = env(100)  # the peer named no step yet: it may be at 0
        await links.send(A, far)
        await links.send(A, far)
        assert raw.out == [(A, far)] * 2
        raw.events.put_nowait(Received(B, b"", {"ctl": "sync", "step": 40}))
        await links.next_event()
        await links.send(B, far)
        await links.send(B, far)  # B is at 40 or beyond: it keeps step 100
        assert raw.out[2:] == [(B, far)]
        for bad in (True, -1, "40", 10 ** 12):  # a malformed step names nothing
            raw.events.put_nowait(Received(A, b"", {"ctl": "digest", "step": bad}))
            await links.next_event()
        await links.send(A, far)
        assert raw.out[-1] == (A, far) and len(raw.out) == 4
    asyncio.run(go())


def test_a_peer_s_messages_tell_its_step() -> None:
    """Its own message was signed at its step; one of another seat it stores is at most a window
    beyond its step."""
    async def go() -> None:
        raw = FakeLinks()
        links = OncePerLink(raw, SentLog(clock=Clock()), seats={A: 0, B: 1})
        far = env(150)
        raw.events.put_nowait(Received(B, b"", {"step": 100, "seat": 0}))  # seat 0's, relayed
        raw.events.put_nowait(Received(A, b"", {"step": 90, "seat": 0}))  # A's own
        for _ in range(2):
            await links.next_event()
        for peer in (A, B):
            await links.send(peer, far)
            await links.send(peer, far)
        assert raw.out == [(A, far), (B, far), (B, far)]  # A at 90 keeps 150; B maybe at 36
    asyncio.run(go())


def test_the_record_is_bounded() -> None:
    clock = Clock()
    log = SentLog(cap=10, clock=clock)
    frames = [env(1, pad=str(i)) for i in range(25)]
    for data in frames:
        log.record([A], data)
        clock.now += 0.01
    assert not log.repeat(A, frames[0]) and log.repeat(A, frames[-1])
    assert sum(log.repeat(A, data) for data in frames) == 10
