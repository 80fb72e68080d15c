"""Hostile bytes at the session and the canonical decoder: a clear refusal, never an exception
(issue 9, defects 8 and 9): lone surrogates, huge integers, deep nesting, and an abort record that
must quote a message nested just under the decoder's depth limit."""

from __future__ import annotations

import sys

import pytest
from tests.table.harness import Table

from p2ptarot.table import canonical
from p2ptarot.table.bodies import AbortBody, envelope_of
from p2ptarot.table.effects import Aborted, Notice, Record, Send
from p2ptarot.table.envelope import MAX_MESSAGE_BYTES, EnvelopeError, parse, seal
from p2ptarot.table.session import Session


@pytest.mark.parametrize("data", [
    b'{"a":"\\ud800"}', b'{"\\udfff":1}', b'["\\ud800\\u0041"]',
    b'{"a":' + b"9" * 5000 + b"}", b'{"a":-' + b"1" * 101 + b"}",
    b"[" * 40 + b"]" * 40, b"[" * 100_000, b"\xff\xfe", b'{"a":"\xed\xa0\x80"}',
])
def test_decoder_refuses_with_its_own_error(data: bytes) -> None:
    with pytest.raises(canonical.CanonicalError):
        canonical.decode(data)
    with pytest.raises(EnvelopeError):
        parse(data)


def test_encoder_refuses_surrogates_and_huge_integers() -> None:
    for value in ({"a": "\ud800"}, {"\ud800": 1}, {"a": 10 ** 5000}):
        with pytest.raises(canonical.CanonicalError):
            canonical.encode(value)


def test_integers_up_to_the_limit_round_trip() -> None:
    big = 10 ** canonical.MAX_INT_DIGITS - 1
    assert canonical.decode(canonical.encode({"a": -big})) == {"a": -big}


def _nested(depth: int) -> object:
    value: object = 0
    for _ in range(depth):
        value = [value]
    return value


def _started(seed: int) -> Table:
    t = Table("sinople", 2, seed=seed)
    for k, s in enumerate(t.sessions):
        t.handle(k, s.start())
    t.queue.clear()
    return t


def test_surrogate_frame_from_a_stranger_is_a_notice() -> None:
    t = _started(21)
    effects = t.sessions[0].receive(b'{"a":"\\ud800"}')
    assert [type(e) for e in effects] == [Notice]
    assert not t.sessions[0].finished


def test_abort_quoting_a_message_at_the_depth_limit_is_sealed() -> None:
    """Seat 1 signs a step message nested as deep as the decoder allows; seat 0 must blame it and
    seal an abort record that quotes it (the old record re-nested it past the limit and raised)."""
    t = _started(22)
    honest = t.sessions[0]
    body = {"x": _nested(canonical.MAX_DEPTH - 2)}
    forged = seal(t.ids[1], honest.table_id, honest.step, 1, honest.chain, honest.spec.kind, body)
    data = forged.encoded()
    assert parse(data) == forged  # decodable: exactly at the limit
    effects = honest.receive(data)
    aborted = [e for e in effects if isinstance(e, Aborted)]
    assert aborted and aborted[0].blame == 1
    sent = [e.envelope for e in effects if isinstance(e, Send)]
    assert sent and sent[0].kind == "abort"
    record = parse(sent[0].encoded())  # the abort record itself is a readable envelope
    quoted = AbortBody.model_validate(record.body).envelopes()
    assert quoted == [forged]
    assert canonical.unb64(record.body["evidence"][0]) == data  # the signed bytes, verbatim


def test_old_evidence_form_is_still_readable(game2) -> None:
    env = parse(game2.records[0][0])
    assert envelope_of(env.model_dump(mode="json")) == env
    assert envelope_of(canonical.b64(env.encoded())) == env


def test_evidence_items_that_are_not_envelopes_are_refused() -> None:
    for item in ("!!", canonical.b64(b'{"a":"\\ud800"}'), {"a": 1},
                 "A" * ((MAX_MESSAGE_BYTES * 4) // 3 + 8)):
        with pytest.raises(EnvelopeError):
            envelope_of(item)


def test_abort_body_always_builds() -> None:
    body = AbortBody.quoting(1, "x\ud800" * 400, 3, ())
    assert len(body.reason) == 500 and "\ud800" not in body.reason
    canonical.encode(body.model_dump())


def test_resuming_a_whole_game_does_not_recurse_per_step(game2) -> None:
    """`load` of a finished game's log completed every step one recursion level deeper (a game
    of 330 steps hit Python's recursion limit: a resumed peer crashed)."""
    lines = game2.records[0]
    session = Session(game2.signed, 0, game2.ids[0], game2.seeds[0])
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(250)  # far below two frames per step of this game
    try:
        session.load(lines)
    finally:
        sys.setrecursionlimit(limit)
    assert session.outcome is not None and session.step > 250


def test_evidence_lines_read_both_forms(game2) -> None:
    from p2ptarot.table.evidence import MAX_EVIDENCE_CHARS, evidence_lines

    env = parse(game2.records[0][3])
    lines = evidence_lines([canonical.b64(env.encoded()), env.model_dump(mode="json"),
                            "!!", "A" * (MAX_EVIDENCE_CHARS + 4), {"a": "\ud800"}])
    assert lines == [env.encoded(), env.encoded()]


def test_a_seat_cannot_flood_its_peers_with_abort_records() -> None:
    """Every distinct signed abort record was kept, relayed and written to the transcript: a
    seated cheater signing records for a later step (so that nobody stops yet) could make every
    peer store and forward without limit."""
    t = _started(23)
    honest = t.sessions[0]
    kept = 0
    for i in range(50):
        record = seal(t.ids[1], honest.table_id, honest.step + 10, 1, honest.chain, "abort",
                      AbortBody.quoting(None, f"stopping #{i}", honest.step + 10, ()).model_dump())
        effects = honest.receive(record.encoded())
        kept += any(isinstance(e, Record) for e in effects)
    assert kept == 2


def test_charter_refuses_a_non_canonical_seat_key(game2) -> None:
    """The pattern let a key with non-zero trailing bits through; decoding it later raised in
    the joiner (a hostile host crashed its joiner with one character)."""
    from pydantic import ValidationError

    from p2ptarot.table.charter import Charter

    data = game2.signed.charter.to_json()
    data["seats"][1]["key"] = data["seats"][1]["key"][:42] + "B"
    with pytest.raises(ValidationError):
        Charter.model_validate(data)


def test_a_message_too_far_ahead_is_taken_when_it_arrives_again(game2) -> None:
    """A genuine message more than MAX_STEPS_AHEAD steps early is dropped, but not as "seen":
    the same bytes, relayed or caught up later, are taken and the game finishes (issue 21, item
    3: it used to be ignored forever and the session waited for it)."""
    from p2ptarot.table.session import MAX_STEPS_AHEAD
    lines = game2.records[0]
    own = [x for x in lines if parse(x).seat == 0]
    others = [x for x in lines if parse(x).seat != 0]
    session = Session(game2.signed, 0, game2.ids[0], game2.seeds[0])
    session.load(own)  # its own messages as its outbox holds them; nothing of seat 1 yet
    early = next(x for x in others if parse(x).step > session.step + MAX_STEPS_AHEAD)
    effects = session.receive(early)
    assert any(isinstance(e, Notice) and "too far ahead" in e.text for e in effects)
    for line in others:
        session.receive(line)
    assert session.aborted is None
    assert session.outcome == game2.finished[0].outcome
