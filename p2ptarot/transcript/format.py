"""The transcript format: JSON lines — the signed charter first, then every accepted envelope in log
order (abort records, if any, at the end). It is the log itself, so it needs nothing else to verify.
Pure: reading and appending files is `p2ptarot.peer.store`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from p2ptarot.table import canonical
from p2ptarot.table.charter import SignedCharter
from p2ptarot.i18n.message import tr

HEADER_KIND = "p2ptarot-transcript"


class TranscriptError(ValueError):
    """The file cannot be read as a transcript (exit code 2 for `verify`)."""


@dataclass
class Transcript:
    charter: SignedCharter
    messages: list[bytes]  # canonical envelopes, as signed (the lines before any framing fault)
    #: the first framing fault after the header, `(line number, reason)`: the verifier stops
    #: there (PROTOCOL §9: `\n` only, no blank line, nothing after the last `\n`)
    framing: tuple[int, str] | None = None
    #: the framing fault is a last line without its `\n` (a write cut short): "incomplete"
    cut: bool = False


def header_line(signed: SignedCharter) -> bytes:
    return canonical.encode({"kind": HEADER_KIND, "charter": signed.model_dump(mode="json")})


def parse_transcript(data: bytes, name: str = "transcript") -> Transcript:
    """Split a transcript's bytes into the signed charter and the envelope lines; raises
    TranscriptError when they are not a transcript (`name` only labels the error).

    One byte form only (PROTOCOL §9): every line ends with `\n` — never `\r\n`, never a lone
    `\r` (canonical JSON has no raw `\r`) — and no line is empty. A fault after the header is
    not an unreadable file but a verdict on it: the lines before it are kept and the fault is
    recorded, for the verifier to name (a last line without its `\n` is a write cut short)."""
    if not data:
        raise TranscriptError(tr("{name} is empty", name=name))
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with its last line's `\n`
    if not lines:
        raise TranscriptError(tr("{name}: line 1 (the header) does not end with \\n", name=name))
    try:
        head = canonical.decode(lines[0])
        if not isinstance(head, dict) or head.get("kind") != HEADER_KIND:
            raise TranscriptError(tr("{name}: first line is not a p2ptarot transcript header",
                                     name=name))
        signed = SignedCharter.model_validate(head["charter"])
    except (canonical.CanonicalError, ValidationError, KeyError) as exc:
        raise TranscriptError(tr("{name}: line 1: bad transcript header: {exc}",
                                 name=name, exc=exc)) from exc
    body = lines[1:]
    for number, line in enumerate(body, start=2):
        problem = _framing(line)
        if problem:
            return Transcript(signed, body[:number - 2], (number, problem))
    if tail:
        return Transcript(signed, body, (len(lines) + 1, tr("does not end with \\n (cut short)")),
                          cut=True)
    return Transcript(signed, body)


def _framing(line: bytes) -> str | None:
    """Why a line between two `\n` is not one canonical record's line."""
    if not line:
        return tr("is empty (a blank line)")
    if b"\r" in line:
        return tr("holds a carriage return (lines end with \\n only)")
    return None
