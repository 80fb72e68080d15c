"""The link core alone (no socket, no task, no clock): two `LinkSet`s wired back to back, the
time passed in by hand."""

from __future__ import annotations

import json
import pytest

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import FrameDropped, LinkDown, LinkRejected, LinkUp, Received
from p2ptarot.net.handshake import (CLOSE_BAD_FRAMES, CLOSE_BAD_HELLO, CLOSE_DUPLICATE,
                                    CLOSE_FULL, CLOSE_REPLACED, CLOSE_TIMEOUT,
                                    CLOSE_UNEXPECTED_KEY)
from p2ptarot.net.linkset import (CLOSE_GOING_AWAY, Close, Deliver, Emit, Failed, Linked,
                                  LinkPolicy, LinkSet, Liveness, Output, Pause, Ping, Send)


def converse(dialer: LinkSet, acceptor: LinkSet, conn: str, now: float = 0.0,
             expected: bytes | None = None) -> tuple[list[Output], list[Output]]:
    """Run a handshake on ``conn`` between two cores, carrying each Send to the other side at
    once; every output of each side, in order."""
    outs: tuple[list[Output], list[Output]] = ([], [])
    cores = (dialer, acceptor)
    pending: list[tuple[int, Output]] = []
    for side, out in ((1, acceptor.open(conn, "dialer", False, now)),
                      (0, dialer.open(conn, "acceptor", True, now, expected))):
        outs[side].extend(out)
        pending += [(side, o) for o in out]
    while pending:
        side, out = pending.pop(0)
        if isinstance(out, Send):
            got = cores[1 - side].receive(conn, out.text, now)
            outs[1 - side].extend(got)
            pending += [(1 - side, o) for o in got]
    return outs


def events(outputs: list[Output]) -> list[object]:
    return [o.event for o in outputs if isinstance(o, (Emit, Deliver))]


def pair(policy: LinkPolicy | None = None) -> tuple[LinkSet, LinkSet]:
    return LinkSet(Identity.generate(), policy), LinkSet(Identity.generate(), policy)


def test_a_handshake_links_both_ends_and_reports_each_up() -> None:
    a, b = pair()
    out_a, out_b = converse(a, b, "ab", expected=b.public_key)
    assert a.peers() == [b.public_key] and b.peers() == [a.public_key]
    assert Linked("ab", b.public_key, True) in out_a and Linked("ab", a.public_key, True) in out_b
    assert [e for e in events(out_a) if isinstance(e, LinkUp)] == [
        LinkUp(b.public_key, "acceptor", True, False)]


def test_a_pinned_key_refuses_anyone_else() -> None:
    a, b = pair()
    out_a, _ = converse(a, b, "ab", expected=Identity.generate().public_bytes)
    assert a.peers() == [] and not a.knows("ab")
    failed = [o for o in out_a if isinstance(o, Failed)]
    assert failed and failed[0].error.code == CLOSE_UNEXPECTED_KEY
    assert Close("ab", CLOSE_UNEXPECTED_KEY, "unexpected peer key") in out_a
    assert LinkRejected("acceptor", "unexpected peer key", CLOSE_UNEXPECTED_KEY) in events(out_a)


def test_garbage_and_oversized_handshake_frames_are_refused_before_parsing() -> None:
    core = LinkSet(Identity.generate())
    core.open("c", "x", False, 0.0)
    assert Close("c", CLOSE_BAD_HELLO, "handshake frame too large") in \
        core.receive("c", "{" * 5000, 0.0)
    core.open("d", "x", False, 0.0)
    assert any(isinstance(o, Failed) and o.error.code == CLOSE_BAD_HELLO
               for o in core.receive("d", "[]", 0.0))
    assert not core.knows("c") and not core.knows("d")


def test_a_silent_attempt_times_out_at_its_deadline() -> None:
    core = LinkSet(Identity.generate(), LinkPolicy(handshake_timeout=2.0))
    core.open("c", "x", False, 10.0)
    assert core.tick(11.9) == []
    out = core.tick(12.0)
    assert Close("c", CLOSE_TIMEOUT, "handshake timed out") in out
    assert Emit(LinkRejected("x", "handshake timed out", CLOSE_TIMEOUT)) in out


def test_frames_are_delivered_parsed_once() -> None:
    a, b = pair()
    converse(a, b, "ab")
    (deliver,) = [o for o in b.receive("ab", '{"ctl": "chat", "text": "hi"}', 1.0)
                  if isinstance(o, Deliver)]
    assert deliver.event == Received(a.public_key, b'{"ctl": "chat", "text": "hi"}')
    assert deliver.event.value == {"ctl": "chat", "text": "hi"}


def test_malformed_frames_are_dropped_then_the_peer_is_cut_off_with_a_reason() -> None:
    a, b = pair(LinkPolicy(max_dropped_frames=2))
    converse(a, b, "ab")
    for text in ("nope", "[1]"):
        assert events(b.receive("ab", text, 1.0)) == [
            FrameDropped(a.public_key, "frame is not valid JSON" if text == "nope"
                         else "frame is not a JSON object")]
    out = b.receive_binary("ab", 10, 1.0)
    assert Emit(LinkDown(a.public_key, "too many malformed frames", CLOSE_BAD_FRAMES)) in out
    assert Close("ab", CLOSE_BAD_FRAMES, "too many malformed frames") in out
    assert b.peers() == [] and b.receive("ab", "{}", 2.0) == []


def test_a_fast_peer_is_paced_never_cut() -> None:
    """Past the burst, each frame orders a pause as long as the rate says; nothing is lost."""
    a, b = pair(LinkPolicy(frame_rate=10.0, frame_burst=5))
    converse(a, b, "ab", now=100.0)
    outs = [b.receive("ab", json.dumps({"n": i}), 100.0) for i in range(8)]
    pauses = [o.seconds for out in outs for o in out if isinstance(o, Pause)]
    assert pauses == pytest.approx([0.1, 0.2, 0.3])
    assert sum(isinstance(o, Deliver) for out in outs for o in out) == 8
    assert b.throttled == 3 and b.peers() == [a.public_key]
    assert not any(isinstance(o, Pause) for o in b.receive("ab", "{}", 101.0))  # refilled


def test_heartbeat_pings_a_quiet_link_and_drops_a_silent_one() -> None:
    a, b = pair(LinkPolicy(liveness=Liveness(ping_every=5.0, silence=8.0)))
    converse(a, b, "ab", now=0.0)
    assert a.tick(0.1) == [Ping("ab")]  # at once: the round trip is known early
    assert a.tick(4.0) == []
    assert a.tick(5.1) == [Ping("ab")]
    assert a.tick(6.0) == []  # one ping per interval
    a.heard("ab", 6.5)  # the pong
    b.receive("ab", "{}", 9.0)  # traffic the other way does not make a silent peer alive
    assert a.tick(10.2) == [Ping("ab")]  # busy or not: the pings measure the round trip
    assert a.tick(14.4) == []
    assert a.tick(14.5) == [Emit(LinkDown(b.public_key, "heartbeat timeout", CLOSE_TIMEOUT)),
                            Close("ab", CLOSE_TIMEOUT, "heartbeat timeout")]


def test_admit_only_closes_others_at_once_with_the_reason() -> None:
    a, b = pair()
    converse(a, b, "ab")
    assert a.admit_only([Identity.generate().public_bytes]) == [
        Emit(LinkDown(b.public_key, "not a member of this table", CLOSE_UNEXPECTED_KEY)),
        Close("ab", CLOSE_UNEXPECTED_KEY, "not a member of this table")]
    assert a.targets() == [] and a.receive("ab", "{}", 1.0) == []
    # a later dial from the outsider is refused at its hello, with the reason
    _, out_a = converse(b, a, "ba#2")
    assert any(isinstance(o, Failed) and o.error.reason == "not a member of this table"
               for o in out_a)


def test_two_simultaneous_links_keep_the_one_the_smaller_key_dialled() -> None:
    a, b = pair()
    converse(a, b, "a dialled")
    out_b, out_a = converse(b, a, "b dialled")  # the same two instances, the other way
    keep = "a dialled" if a.public_key < b.public_key else "b dialled"
    assert a.conn_of(b.public_key) == keep == b.conn_of(a.public_key)
    closes = {o.code for o in out_a + out_b if isinstance(o, Close)}
    assert closes == ({CLOSE_DUPLICATE} if keep == "a dialled" else {CLOSE_REPLACED})
    assert not any(isinstance(e, LinkDown) for e in events(out_a + out_b))


def test_a_restarted_peer_replaces_its_old_link_without_a_link_down() -> None:
    a, b = pair()
    converse(a, b, "old")
    restarted = LinkSet(b._identity)  # same key, a new instance id
    out_a, _ = converse(a, restarted, "new", now=5.0)
    assert LinkUp(b.public_key, "acceptor", True, True) in events(out_a)
    assert not any(isinstance(e, LinkDown) for e in events(out_a))
    assert Close("old", CLOSE_REPLACED, "replaced by a newer link") in out_a
    assert a.conn_of(b.public_key) == "new"


def test_the_link_cap_refuses_newcomers_with_a_reason() -> None:
    a, b = pair(LinkPolicy(max_links=1))
    converse(a, b, "ab")
    _, out_b = converse(LinkSet(Identity.generate()), b, "cb")
    assert Close("cb", CLOSE_FULL, "too many links") in out_b
    assert LinkRejected("dialer", "too many links", CLOSE_FULL) in events(out_b)
    assert b.peers() == [a.public_key]


def test_shutdown_says_going_away_to_every_link_and_refuses_newcomers() -> None:
    a, b = pair()
    converse(a, b, "ab")
    assert a.shutdown() == [Emit(LinkDown(b.public_key, "shutdown", CLOSE_GOING_AWAY)),
                            Close("ab", CLOSE_GOING_AWAY, "shutdown")]
    late = a.open("z", "z", False, 1.0)
    assert Close("z", CLOSE_GOING_AWAY, "shutdown") in late
    assert not any(isinstance(o, Emit) for o in late)


def test_a_peer_closing_reports_its_code_and_a_later_close_is_harmless() -> None:
    a, b = pair()
    converse(a, b, "ab")
    out = a.closed_by_carrier("ab", 1001, "seat left the table")
    assert out[0] == Emit(LinkDown(b.public_key, "seat left the table", 1001))
    assert a.closed_by_carrier("ab", 1000, "again") == []


def test_a_carrier_protocol_error_is_told_to_the_peer() -> None:
    a, b = pair()
    converse(a, b, "ab")
    assert a.closed_by_carrier("ab", 1009, "message too big", protocol_error=True) == [
        Emit(LinkDown(b.public_key, "message too big", 1009)), Close("ab", 1009, "message too big")]
