"""One byte form for a transcript file (PROTOCOL §9): every line ends with `\\n` — no `\\r\\n`,
no lone `\\r`, no blank line, nothing after the last `\\n`. Each deviation from the reference game
of protocol/vectors/valid.jsonl is refused with a reason naming the line, implicating no seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2ptarot.transcript import TranscriptError, parse_transcript, verify_transcript

VALID = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "valid.jsonl"


@pytest.fixture(scope="module")
def raw() -> bytes:
    return VALID.read_bytes()


def _verdict(data: bytes):
    return verify_transcript(parse_transcript(data))


def test_the_reference_file_is_valid(raw: bytes) -> None:
    assert raw.endswith(b"\n") and b"\r" not in raw
    assert _verdict(raw).valid


def test_a_crlf_file_is_not_a_transcript_its_header_line_is_not_canonical(raw: bytes) -> None:
    with pytest.raises(TranscriptError, match="line 1: bad transcript header"):
        parse_transcript(raw.replace(b"\n", b"\r\n"))


def test_crlf_line_endings_after_the_header_are_refused_naming_line_2(raw: bytes) -> None:
    head, rest = raw.split(b"\n", 1)
    v = _verdict(head + b"\n" + rest.replace(b"\n", b"\r\n"))
    assert not v.valid and v.seat is None
    assert "line 2 holds a carriage return" in v.reason and "no seat is implicated" in v.reason


def test_a_lone_cr_separator_is_refused(raw: bytes) -> None:
    lines = raw.split(b"\n")
    data = b"\n".join(lines[:5]) + b"\r" + b"\n".join(lines[5:])
    v = _verdict(data)
    assert not v.valid and v.seat is None and "line 5 holds a carriage return" in v.reason


@pytest.mark.parametrize("where", [2, 10, -1])
def test_a_blank_line_is_refused_naming_it(raw: bytes, where: int) -> None:
    lines = raw[:-1].split(b"\n")
    at = where % (len(lines) + 1)
    lines.insert(at, b"")
    v = _verdict(b"\n".join(lines) + b"\n")
    assert not v.valid and v.seat is None
    assert f"line {at + 1} is empty" in v.reason and "no seat is implicated" in v.reason


def test_trailing_data_after_the_last_newline_is_a_cut_write(raw: bytes) -> None:
    v = _verdict(raw + b'{"v":')
    count = raw.count(b"\n")
    assert not v.valid and v.seat is None and v.reason.startswith("incomplete")
    assert f"line {count + 1} does not end with \\n" in v.reason


def test_a_complete_game_missing_its_last_newline_is_not_valid(raw: bytes) -> None:
    v = _verdict(raw[:-1])
    count = raw.count(b"\n")
    assert not v.valid and v.seat is None and v.reason.startswith("incomplete")
    assert f"line {count} does not end with \\n" in v.reason
