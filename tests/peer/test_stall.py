"""The catch-up clocks of a stalled game (PROTOCOL §8) and the linger of a game over (§10), as
policies fed the time by hand; the pumps read the time only through their injected clock."""

from __future__ import annotations

from p2ptarot.peer.catchup import RESYNC_AFTER
import ast
from pathlib import Path

from p2ptarot.peer.stall import ABANDON_GRACE, Due, LingerTimers, StallTimers


def run(timers: StallTimers, step: int, start: float, end: float, every: float = 0.5
        ) -> list[tuple[float, Due]]:
    """Tick from `start` to `end` at `step`; what fell due, and when."""
    out = []
    t = start
    while t <= end:
        due = timers.tick(step, t, 1_000_000 + t)
        if due is not Due.NOTHING:
            out.append((t, due))
        t += every
    return out


def test_a_stalled_step_resyncs_then_asks_deeply_then_abandons() -> None:
    timers = StallTimers(step=5, local_timeout=10.0, table_limit=30.0, now=0.0, wall=1_000_000)
    dues = run(timers, 5, 0.5, 40.0)
    resyncs = [t for t, d in dues if d is Due.RESYNC]
    assert resyncs[0] == RESYNC_AFTER + 0.5  # first strictly past 2 s
    assert all(b - a > RESYNC_AFTER for a, b in zip(resyncs, resyncs[1:]))
    deep = [t for t, d in dues if d is Due.DEEP]
    assert deep == [10.5, 21.0, 30.5]  # past the local timeout, again each timeout, at the limit
    abandon = [t for t, d in dues if d is Due.ABANDON]
    assert abandon[0] == 30.5 + ABANDON_GRACE + 0.5  # (the pump stops at the first)


def test_progress_resets_every_clock() -> None:
    timers = StallTimers(step=5, local_timeout=10.0, table_limit=30.0, now=0.0, wall=1_000_000)
    run(timers, 5, 0.5, 29.5)
    assert timers.tick(6, 29.6, 1_000_029.6) is Due.NOTHING  # the step moved
    assert run(timers, 6, 30.0, 31.5) == []
    assert run(timers, 6, 32.0, 32.0) == [(32.0, Due.RESYNC)]


def test_time_the_peer_was_suspended_is_not_held_against_the_others() -> None:
    timers = StallTimers(step=5, local_timeout=10.0, table_limit=30.0, now=0.0, wall=1_000_000)
    run(timers, 5, 0.5, 1.0)
    assert timers.tick(5, 600.0, 1_000_600) is not Due.ABANDON  # SIGSTOP for ten minutes
    assert timers.since > 500
    assert Due.ABANDON not in [d for _, d in run(timers, 5, 600.5, 610.0)]


def test_a_peer_taking_messages_asks_for_none_until_they_stop() -> None:
    """Issue 32: under load a step can take longer than `RESYNC_AFTER` to work through; a peer
    still storing new messages is not missing them, so it asks only `RESYNC_AFTER` after the
    last one (asking sooner drew copies of what it had queued unread)."""
    timers = StallTimers(step=5, local_timeout=10.0, table_limit=30.0, now=0.0, wall=1_000_000)
    dues = [(t / 2, timers.tick(5, t / 2, 1_000_000 + t / 2, taken=int(t))) for t in range(1, 13)]
    assert all(d is Due.NOTHING for _, d in dues)  # a new message every half second: 6 s
    assert timers.tick(5, 7.0, 1_000_007, taken=12) is Due.NOTHING
    assert timers.tick(5, 8.0, 1_000_008, taken=12) is Due.NOTHING  # 2 s after the last: not past
    assert timers.tick(5, 8.5, 1_000_008.5, taken=12) is Due.RESYNC


def test_new_messages_postpone_neither_the_deep_request_nor_the_abandon() -> None:
    """Messages of later steps can keep coming while the awaited seat stays silent (or a seat
    drips them on purpose): the deep requests and the table's limit still run from the stall."""
    timers = StallTimers(step=5, local_timeout=10.0, table_limit=30.0, now=0.0, wall=1_000_000)
    dues = []
    t, taken = 0.5, 0
    while t <= 40.0:
        taken += 1
        due = timers.tick(5, t, 1_000_000 + t, taken=taken)
        if due is not Due.NOTHING:
            dues.append((t, due))
        t += 0.5
    assert Due.RESYNC not in [d for _, d in dues]
    assert [t for t, d in dues if d is Due.DEEP] == [10.5, 21.0, 30.5]
    assert [t for t, d in dues if d is Due.ABANDON][0] == 30.5 + ABANDON_GRACE + 0.5


def test_a_finished_seat_waits_for_done_from_the_last_link_up_or_the_table_limit() -> None:
    timers = LingerTimers(finished=True, linger=2.0, heartbeat=5.0, table_limit=300.0, now=100.0)
    assert timers.left(100.0, unlinked=False) == 10.0  # twice the heartbeat: a dead link drops
    assert timers.left(100.0, unlinked=True) == 300.0  # a seat with no link: the table's limit
    timers.linked(108.0)  # a healed seat catches up first
    assert timers.left(110.0, unlinked=False) == 8.0
    late = LingerTimers(True, 2.0, 5.0, table_limit=12.0, now=0.0)
    late.linked(10.0)
    assert late.left(11.0, unlinked=False) == 1.0  # never past the table's limit


def test_an_abandoned_seat_lingers_briefly_and_a_long_wait_is_told_once() -> None:
    aborted = LingerTimers(finished=False, linger=2.0, heartbeat=5.0, table_limit=300.0, now=0.0)
    assert aborted.left(0.5, unlinked=True) == 1.5
    assert not aborted.tell(50.0, 1.0)  # nothing to tell of an abandoned table
    timers = LingerTimers(True, 2.0, 5.0, 300.0, now=0.0)
    assert not timers.tell(10.0, 290.0)  # not yet past twice the heartbeat
    assert timers.tell(10.5, 289.5)
    assert not timers.tell(20.0, 280.0)  # once
    assert not LingerTimers(True, 2.0, 5.0, 300.0, now=0.0).tell(11.0, 0.0)  # nothing left


def test_the_lobby_and_the_game_pump_read_the_time_through_their_clock() -> None:
    """No `time.monotonic()` / `time.time()` in the pumps: `PeerConfig.clock` is their time."""
    peer = Path(__file__).resolve().parents[2] / "p2ptarot" / "peer"
    for name in ("game.py", "lobby.py", "heal.py", "stall.py"):
        tree = ast.parse((peer / name).read_text(encoding="utf-8"))
        calls = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                 and isinstance(node.value, ast.Name) and node.value.id == "time"
                 and node.attr in ("monotonic", "time", "perf_counter")]
        assert calls == [], (name, calls)
