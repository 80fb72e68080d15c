"""`p2ptarot verify` and `replay` on hostile files (issue 9, defect 10): huge integers, lone
surrogates, deep nesting and terminal escapes give a verdict or exit 2, never a traceback, and
nothing a file says reaches the terminal unescaped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2ptarot.cli.main import main
from p2ptarot.table.names import clean_name, is_clean_name, printable

VALID = (Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "valid.jsonl").read_bytes()
LINES = VALID.splitlines()
BODY_LINES = {
    "huge integer": b'{"a":' + b"9" * 5000 + b"}",
    "lone surrogate": b'{"a":"\\ud800"}',
    "deep nesting": b"[" * 50_000,
    "not UTF-8": b'{"a":"\xed\xa0\x80"}',
    "integer in a real envelope": LINES[3].replace(b'"step":', b'"step":' + b"9" * 4400, 1),
}
HEADERS = {
    "surrogate name": LINES[0].replace(b'"name":"p0"', b'"name":"\\ud800"'),
    "escape in name": LINES[0].replace(b'"name":"p0"', b'"name":"\\u001b[2J"'),
    "huge timeout": LINES[0].replace(b'"timeout":', b'"timeout":' + b"9" * 5000, 1),
    "deep header": b'{"charter":' + b"[" * 5000,
}


@pytest.mark.parametrize("case", sorted(BODY_LINES))
@pytest.mark.parametrize("command", ["verify", "replay"])
def test_hostile_line_is_an_invalid_verdict(case: str, command: str, tmp_path: Path,
                                             capsys) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(LINES[:3] + [BODY_LINES[case]] + LINES[4:8]) + b"\n")
    assert main([command, str(path)]) == 1
    out = capsys.readouterr().out
    assert "INVALID at step" in out and "unreadable message" in out


@pytest.mark.parametrize("case", sorted(HEADERS))
@pytest.mark.parametrize("command", ["verify", "replay"])
def test_hostile_header_exits_2(case: str, command: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join([HEADERS[case]] + LINES[1:5]) + b"\n")
    assert main([command, str(path)]) == 2
    captured = capsys.readouterr()
    assert "bad transcript header" in captured.err
    assert "\x1b" not in captured.err + captured.out and "\n" not in captured.err.rstrip("\n")


def test_json_verdict_of_a_hostile_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(LINES[:3] + [BODY_LINES["lone surrogate"]]) + b"\n")
    assert main(["verify", "--json", str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["valid"] is False


def test_names_and_printed_text_are_made_printable() -> None:
    assert clean_name("\x1b[31mEve\x07") == "[31mEve"
    assert clean_name("\ud800") == "player" and clean_name(42) == "player"
    assert clean_name("  a \u202e b  ") == "a b" and len(clean_name("x" * 500)) == 40
    assert is_clean_name("Ana B") and not is_clean_name("a\nb") and not is_clean_name("")
    assert printable("a\x1bb\nc\ud800") == "a?b c?"
