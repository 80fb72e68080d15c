"""Catch-up answers cannot be used for amplification (issue 9, defect 12): the old runner
answered every `sync` with the whole log (100 requests of 23 bytes drew 24 MB); and a peer far
behind catches up at once, window after window (issue 36)."""

from __future__ import annotations

import json

from p2ptarot.crypto.signing import Identity
from p2ptarot.peer.catchup import CatchUp, SyncServer
from p2ptarot.table.control import SyncFrame, parse_control
from p2ptarot.table.envelope import parse, seal
from p2ptarot.table.intake import MAX_STEPS_AHEAD
from p2ptarot.table.session import Session
from tests.table.harness import Table

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


def test_an_answer_carries_the_requester_s_window_and_grants_a_continuation() -> None:
    """The requester drops what lies more than a window beyond its step: the answer stops there,
    and the requester's next request from the window's end is answered at once, however soon."""
    clock = Clock()
    server = SyncServer(interval=1.0, max_bytes=10 * 1024 * 1024, clock=clock, window=30)
    peer = b"p" * 32
    first = server.answer(peer, lambda: LOG[10:], step=10)
    assert first == [env.encoded() for env in LOG[10:41]]  # steps 10..40
    assert server.answer(peer, lambda: LOG[12:], step=12) == []  # not past what it was sent
    second = server.answer(peer, lambda: LOG[41:], step=41)  # at once: a continuation
    assert second == [env.encoded() for env in LOG[41:72]]
    third = server.answer(peer, lambda: LOG[72:], step=72)
    assert third == [env.encoded() for env in LOG[72:]]  # the rest: nothing more is granted
    assert server.answer(peer, lambda: LOG[100:], step=100) == []
    assert (server.continued, server.ignored) == (2, 2)


def test_a_byte_cut_answer_continues_from_the_step_it_cut() -> None:
    clock = Clock()
    server = SyncServer(interval=1.0, max_bytes=64 * 1024, clock=clock)
    peer = b"p" * 32
    first = server.answer(peer, lambda: LOG, step=0)
    cut = len(first)
    assert 0 < cut < 64
    assert server.answer(peer, lambda: LOG[cut:], step=cut)[0] == LOG[cut].encoded()
    assert server.continued == 1 and clock.now == 100.0


def test_catch_up_asks_again_once_the_window_is_taken() -> None:
    catch = CatchUp(window=64)
    assert catch.again(500) is None  # never asked: nothing to continue
    assert catch.ask(7) == SyncFrame(step=7)
    assert catch.ask(7).wire() == b'{"ctl":"sync","step":7}'
    assert catch.again(71) is None  # still inside what the answer could carry
    assert catch.again(72) == SyncFrame(step=72)
    assert catch.again(100) is None


def test_a_peer_hundreds_of_steps_behind_catches_up_fully_without_any_timer() -> None:
    """Issue 36: a seat that lost the unsynced tail of its transcript in a crash resumes from its
    outbox (its own messages, durable) and the first lines of its transcript, several windows
    of `MAX_STEPS_AHEAD` behind. Its peer's clock never moves here, so no stall timer and no
    rate-limit interval can help: each answer's window taken, the seat asks again at once and
    the continuation is answered at once, until the seat reaches the game's end."""
    table = Table("sinople", 2, seed=3, shuffle_seed=1)  # the same deal every time
    table.run()
    ahead = table.sessions[1]
    assert table.finished[0] is not None and ahead.step > 3 * MAX_STEPS_AHEAD
    record = table.records[0]
    own = [x for x in record if parse(x).seat == 0]
    kept = [x for x in record if parse(x).step < 20]  # the transcript's synced head
    behind = Session(table.signed, 0, table.ids[0], table.seeds[0])
    behind.load(kept + own)
    # (its own messages complete the steps only it speaks in: it may stand a little past 20)
    assert ahead.step - behind.step > 2 * MAX_STEPS_AHEAD

    server = SyncServer(clock=Clock())  # a frozen clock: no interval ever passes
    catch = CatchUp()
    requests: list[SyncFrame] = [catch.ask(behind.step)]
    answers = 0
    while requests:
        request = parse_control(json.loads(requests.pop().wire()))  # as the wire carries it
        assert isinstance(request, SyncFrame)
        step = request.step
        frames = server.answer(b"s" * 32, lambda: ahead.messages_from(step), step)
        answers += bool(frames)
        for data in frames:
            behind.receive(data)
            follow = catch.again(behind.step)
            if follow is not None:
                requests.append(follow)
    assert behind.aborted is None
    assert behind.outcome == table.finished[0].outcome
    assert [e.encoded() for e in behind.log] == [e.encoded() for e in ahead.log]
    assert answers >= 3 and server.continued == answers - 1 and server.ignored == 0
