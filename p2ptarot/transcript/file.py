"""The transcript file: JSON lines — the signed charter first, then every accepted envelope in log
order (abort records, if any, at the end). It is the log itself, so it needs nothing else to verify.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO

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


class TranscriptWriter:
    """Appends lines and flushes + fsyncs each one: a crash loses nothing already accepted."""

    def __init__(self, path: Path, signed: SignedCharter) -> None:
        self.path = path
        fresh = not path.exists() or path.stat().st_size == 0
        self._fh: IO[bytes] = open(path, "ab")
        if fresh:
            self.append(header_line(signed))

    def append(self, line: bytes) -> None:
        self._fh.write(line + b"\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()


def read(path: Path) -> Transcript:
    """Parse a transcript file; raises TranscriptError when it is not one."""
    try:
        lines = Path(path).read_bytes().splitlines()
    except OSError as exc:
        raise TranscriptError(f"cannot read {path}: {exc.strerror}") from exc
    if not lines:
        raise TranscriptError(f"{path} is empty")
    try:
        head = canonical.decode(lines[0])
        if not isinstance(head, dict) or head.get("kind") != HEADER_KIND:
            raise TranscriptError(f"{path}: first line is not a p2ptarot transcript header")
        signed = SignedCharter.model_validate(head["charter"])
    except (canonical.CanonicalError, ValidationError, KeyError) as exc:
        raise TranscriptError(f"{path}: bad transcript header: {exc}") from exc
    return Transcript(signed, [line for line in lines[1:] if line.strip()])
