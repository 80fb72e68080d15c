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


def test_a_frame_cut_two_ways_completes_from_either_cut() -> None:
    """Parts of a first cut (still travelling on one relay) mixed with a second, smaller cut
    (sent after another relay refused a part for its size): the frame is whole as soon as one
    cut is, whatever arrives between."""
    r = Reassembler(gap=8.0, max_chars=10_000)
    text = "abcdefghijkl"
    assert r.feed(0, 0, 2, text[:6], 0.0) == []
    assert r.feed(0, 1, 3, text[4:8], 0.1) == []  # the second cut starts
    assert r.feed(0, 0, 3, text[:4], 0.2) == []
    assert r.feed(0, 2, 3, text[8:], 0.3) == [text]  # the second cut is whole first
    assert r.feed(0, 1, 2, text[6:], 0.4) == []  # the first cut's last part: already delivered
    assert r.feed(1, 1, 2, "yz", 0.5) == []
    assert r.feed(1, 0, 3, "w", 0.6) == []
    assert r.feed(1, 0, 2, "wx", 0.7) == ["wxyz"]
