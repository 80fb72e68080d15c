"""Control frames are typed: every kind a peer sends round-trips through its model, keeps the
bytes PROTOCOL §8/§10.1 describe, and hostile objects are dropped (or fall back field by field
where the spec says so); the peer types a frame once, from the object the link core parsed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from p2ptarot.net.events import Received
from p2ptarot.peer.frames import MALFORMED, control_of
from p2ptarot.table.control import (CONTROL_MODELS, CharterFrame, ChatFrame, DoneFrame,
                                    FullFrame, JoinFrame, LeftOutFrame, LobbyFrame, ReadyFrame,
                                    SignedFrame, SignFrame, SyncFrame, parse_control)
from p2ptarot.table.digest import DigestFrame, make_frame

PEER = Path(__file__).resolve().parents[2] / "p2ptarot" / "peer"

SENT = [
    (JoinFrame(name="Bob", address="ws://b"), b'{"address":"ws://b","ctl":"join","name":"Bob"}'),
    (JoinFrame(name="Bob", address="ws://b", ready=False),
     b'{"address":"ws://b","ctl":"join","name":"Bob","ready":false}'),
    (JoinFrame(name="b1", address="x", bot=True),
     b'{"address":"x","bot":true,"ctl":"join","name":"b1"}'),
    (LobbyFrame(game="sinople", variant="", seats=3, names=["A", "B"], ready=[True, False],
                bots=[False, False], can_start=True, you=1),
     b'{"bots":[false,false],"can_start":true,"ctl":"lobby","game":"sinople","names":["A","B"],'
     b'"ready":[true,false],"seats":3,"variant":"","you":1}'),
    (ReadyFrame(ready=False), b'{"ctl":"ready","ready":false}'),
    (ChatFrame(text="hi"), b'{"ctl":"chat","text":"hi"}'),
    (ChatFrame(seat=2, name="C", text="hi"), b'{"ctl":"chat","name":"C","seat":2,"text":"hi"}'),
    (FullFrame(), b'{"ctl":"full"}'),
    (LeftOutFrame(), b'{"ctl":"left-out"}'),
    (CharterFrame(charter={"v": 7}), b'{"charter":{"v":7},"ctl":"charter"}'),
    (SignFrame(sig="A" * 86), b'{"ctl":"sign","sig":"' + b"A" * 86 + b'"}'),
    (SignedFrame(signed={"x": 1}), b'{"ctl":"signed","signed":{"x":1}}'),
    (SyncFrame(step=12), b'{"ctl":"sync","step":12}'),
    (DoneFrame(step=40, seats=[0, 2]), b'{"ctl":"done","seats":[0,2],"step":40}'),
]


@pytest.mark.parametrize(("frame", "wire"), SENT)
def test_every_frame_keeps_its_bytes_and_round_trips(frame: object, wire: bytes) -> None:
    assert frame.wire() == wire  # type: ignore[attr-defined]  # each case is a frame model
    assert parse_control(json.loads(wire)) == frame


def test_every_kind_is_covered() -> None:
    assert {type(f) for f, _ in SENT} == set(CONTROL_MODELS.values())


def test_the_digest_frame_is_typed_too() -> None:
    frame = make_frame(3, b"\0" * 32, [(3, 1, b"\1" * 32)], [(4, 0)])
    parsed = parse_control(json.loads(json.dumps(frame)))
    assert isinstance(parsed, DigestFrame) and parsed.wire() == frame


@pytest.mark.parametrize("value", [
    {"ctl": "sync", "step": "3"}, {"ctl": "sync", "step": True}, {"ctl": "sync"},
    {"ctl": "ready", "ready": 1}, {"ctl": "chat", "text": 5}, {"ctl": "chat", "text": "x", "seat": "1"},
    {"ctl": "lobby", "seats": 2, "names": "ab", "ready": [True]},
    {"ctl": "lobby", "seats": 2, "names": ["a"] * 65, "ready": [True] * 65},
    {"ctl": "charter", "charter": "x"}, {"ctl": "signed", "signed": []},
    {"ctl": "digest", "step": 1}, {"ctl": "no-such-frame"}, {"ctl": "JOIN"},
])
def test_hostile_frames_are_dropped(value: dict) -> None:
    assert parse_control(value) is None


def test_join_sign_and_done_fall_back_field_by_field() -> None:
    assert parse_control({"ctl": "join", "name": ["x"], "address": 7, "ready": "no", "bot": 1,
                          "extra": {"ignored": True}}) == JoinFrame()
    assert parse_control({"ctl": "sign", "sig": ["no"]}) == SignFrame(sig="")
    assert parse_control({"ctl": "done", "step": -4, "seats": [True]}) == DoneFrame()


def test_the_peer_types_the_object_the_link_parsed_without_parsing_again() -> None:
    """`Received.value` is the link core's parse: the bytes are not read a second time."""
    peer = b"p" * 32
    assert control_of(Received(peer, b"<never parsed>", {"ctl": "sync", "step": 1})) \
        == SyncFrame(step=1)
    envelope = {"v": 7, "kind": "move"}
    assert control_of(Received(peer, b"<never parsed>", envelope)) is None  # the session's
    assert control_of(Received(peer, b"x", {"ctl": "sync", "step": -1})) is MALFORMED
    assert control_of(Received(peer, b'{"ctl":"full"}')) == FullFrame()  # made without a link


def test_the_peer_dispatches_by_type_not_by_name() -> None:
    """No `msg["ctl"] == …` ladders and no feature probes (`getattr(links, …)`) in peer/."""
    for path in PEER.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""\[["']ctl["']\]|get\(["']ctl["']\)""", text.replace(
            'value.get("ctl")', "")), path.name
        assert not re.search(r"getattr\((links|advertiser|self\.links)\b", text), path.name
