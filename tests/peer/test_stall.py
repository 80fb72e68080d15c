"""The catch-up clocks of a stalled game (PROTOCOL §8) as a policy fed the time by hand."""

from __future__ import annotations

from p2ptarot.peer.catchup import RESYNC_AFTER
from p2ptarot.peer.stall import ABANDON_GRACE, Due, StallTimers


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
