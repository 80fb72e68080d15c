"""The transcript format: JSON lines — the signed charter first, then every accepted envelope in log
order (abort records, if any, at the end). It is the log itself, so it needs nothing else to verify.
Pure: reading and appending files is `p2ptarot.peer.store`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from p2ptarot.table import canonical
from p2ptarot.table.charter import SignedCharter

HEADER_KIND = "p2ptarot-transcript"


class TranscriptError(ValueError):
    """The file cannot be read as a transcript (exit code 2 for `verify`)."""


@dataclass
class Transcript:
    charter: SignedCharter
    messages: list[bytes]  # canonical envelopes, as signed


def header_line(signed: SignedCharter) -> bytes:
    return canonical.encode({"kind": HEADER_KIND, "charter": signed.model_dump(mode="json")})


def parse_transcript(data: bytes, name: str = "transcript") -> Transcript:
    """Split a transcript's bytes into the signed charter and the envelope lines; raises
    TranscriptError when they are not a transcript (`name` only labels the error)."""
    lines = data.splitlines()
    if not lines:
        raise TranscriptError(f"{name} is empty")
    try:
        head = canonical.decode(lines[0])
        if not isinstance(head, dict) or head.get("kind") != HEADER_KIND:
            raise TranscriptError(f"{name}: first line is not a p2ptarot transcript header")
        signed = SignedCharter.model_validate(head["charter"])
    except (canonical.CanonicalError, ValidationError, KeyError) as exc:
        raise TranscriptError(f"{name}: bad transcript header: {exc}") from exc
    return Transcript(signed, [line for line in lines[1:] if line.strip()])
