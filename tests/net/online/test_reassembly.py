"""Relay-path reassembly: order, duplicates, gaps given up after their deadline, bounds."""

from __future__ import annotations

from p2ptarot.net.online.reassembly import Reassembler


def test_parts_out_of_order_make_frames_in_order() -> None:
    r = Reassembler(gap=5.0, max_chars=1000)
    assert r.feed(1, 0, 1, "b", 0.0) == []
    assert r.feed(0, 1, 2, "2", 0.0) == []
    assert r.feed(0, 1, 2, "X", 0.0) == []  # a duplicate part is ignored
    assert r.feed(0, 0, 2, "1", 0.0) == ["12", "b"]
    assert r.feed(0, 0, 2, "1", 0.0) == []  # a replayed old frame is not delivered again


def test_a_lost_frame_is_given_up_after_the_gap() -> None:
    r = Reassembler(gap=5.0, max_chars=1000)
    assert r.feed(1, 0, 1, "late", 0.0) == []
    assert r.poll(4.9) == []
    assert r.poll(10.0) == ["late"] and r.skipped == 1


def test_memory_is_bounded() -> None:
    r = Reassembler(gap=5.0, max_chars=10, max_pending=4)
    assert r.feed(0, 0, 2, "x" * 8, 0.0) == []
    assert r.feed(0, 1, 2, "x" * 8, 0.0) == []  # over max_chars: refused
    assert r.feed(99, 0, 1, "far", 0.0) == []  # beyond the window: refused
    assert r.refused == 2
