"""`done` frames name the seats their sender knows finished; the list is checked (issue 22: a
seat whose own `done` was lost is still known finished, so the others need not wait for it)."""

from __future__ import annotations

from p2ptarot.peer.frames import finished_seats
from p2ptarot.table.control import DoneFrame, parse_control

KEYS = [bytes([i]) * 32 for i in range(4)]


def test_the_sender_and_the_seats_it_names_are_finished() -> None:
    assert finished_seats(_done({"ctl": "done", "step": 9}), KEYS[1], KEYS) == {KEYS[1]}
    assert finished_seats(_done({"ctl": "done", "step": 9, "seats": [1, 3]}), KEYS[1], KEYS) \
        == {KEYS[1], KEYS[3]}
    assert finished_seats(_done({"ctl": "done", "step": 9, "seats": []}), KEYS[2], KEYS) \
        == {KEYS[2]}


def test_a_malformed_list_names_only_the_sender() -> None:
    for bad in ([4], [-1], [True], ["1"], [1.0], [0, 1, 2, 3, 0], "0,1", {"0": 1}, None,
                [10 ** 90]):
        assert finished_seats(_done({"ctl": "done", "step": 1, "seats": bad}), KEYS[0], KEYS) \
            == {KEYS[0]}, bad


def _done(value: dict) -> DoneFrame:
    """A `done` object as the peer's edge types it (a faulty `seats` falls back to none)."""
    frame = parse_control(value)
    assert isinstance(frame, DoneFrame)
    return frame
