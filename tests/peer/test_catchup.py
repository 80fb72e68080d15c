"""Catch-up answers cannot be used for amplification (issue 9, defect 12): the old runner
answered every `sync` with the whole log (100 requests of 23 bytes drew 24 MB)."""

from __future__ import annotations

from p2ptarot.crypto.signing import Identity
from p2ptarot.peer.catchup import SyncServer
from p2ptarot.table.control import SyncFrame, parse_control
from p2ptarot.table.envelope import seal

IDENTITY = Identity.from_seed(b"\x07" * 32)
LOG = [seal(IDENTITY, b"\x01" * 32, step, 0, b"\x02" * 32, "move", {"pad": "x" * 30_000})
       for step in range(100)]  # ~3 MB of log


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_hundred_requests_draw_one_bounded_answer() -> None:
    clock = Clock()
    server = SyncServer(interval=1.0, max_bytes=256 * 1024, clock=clock)
    peer = b"p" * 32
    sent = [server.answer(peer, lambda: LOG) for _ in range(100)]
    total = sum(len(d) for answer in sent for d in answer)
    assert 0 < total <= 256 * 1024 + 31_000
    assert sum(1 for answer in sent if answer) == 1 and server.ignored == 99
    assert sent[0] == [env.encoded() for env in LOG[:len(sent[0])]]  # a prefix, in log order


def test_answers_resume_after_the_interval_and_per_peer() -> None:
    clock = Clock()
    server = SyncServer(interval=1.0, max_bytes=64 * 1024, clock=clock)
    assert server.answer(b"a" * 32, lambda: LOG)
    assert server.answer(b"b" * 32, lambda: LOG)  # another peer has its own allowance
    assert server.answer(b"a" * 32, lambda: LOG) == []
    clock.now += 1.0
    assert server.answer(b"a" * 32, lambda: LOG[50:])[0] == LOG[50].encoded()


def test_a_single_large_message_still_goes_out() -> None:
    server = SyncServer(max_bytes=10, clock=Clock())
    assert server.answer(b"a" * 32, lambda: LOG[:3]) == [LOG[0].encoded()]


def test_sync_requests_are_checked() -> None:
    assert parse_control({"ctl": "sync", "step": 4}) == SyncFrame(step=4)
    for bad in ({"ctl": "sync"}, {"ctl": "sync", "step": True}, {"ctl": "sync", "step": -1},
                {"ctl": "sync", "step": 10 ** 90}, {"ctl": "sync", "step": "4"}):
        assert parse_control(bad) is None
