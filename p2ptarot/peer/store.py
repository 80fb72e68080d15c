"""A peer's data directory: identity key, and per table the signed charter, the game seed, the
outbox (own messages, written before they are sent) and the transcript.

    DATA/identity.key                 32-byte Ed25519 seed (created on first use, mode 0600)
    DATA/tables/<table-id>/charter.json, seed, outbox.jsonl, transcript.jsonl

The charter and transcript modules (pydantic, the verifier's package) are imported where a table
is stored or a transcript read: `DataDir(...).identity()` alone stays cheap (the `demo` parent
creates the host's key before it starts any peer).

A *test seed* (`p2ptarot demo --seed`, the benchmarks; never a real game) makes a peer's every
secret a function of one integer: its identity key, its per-table game seed (hence its deck keys,
permutations and coin openings) and, for the host, the charter's nonce. Anyone who knows the
integer knows the cards; it exists so that a demo or benchmark deals the same game twice.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from p2ptarot.crypto.signing import Identity
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:
    from p2ptarot.table.effects import Effect
    from p2ptarot.table.charter import SignedCharter
    from p2ptarot.transcript.format import Transcript


def _write_private(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def test_secret(seed: int, purpose: str) -> bytes:
    """32 bytes that `seed` fixes for `purpose` (tests and benchmarks only: see the module)."""
    return hashlib.sha256(f"p2ptarot/test-seed/{purpose}/{seed}".encode()).digest()


class DataDir:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    def identity(self, test_seed: int | None = None) -> Identity:
        """The identity key, created on first use (from `test_seed` when one is given)."""
        path = self.root / "identity.key"
        if path.exists():
            return Identity.from_seed(path.read_bytes())
        ident = (Identity.generate() if test_seed is None
                 else Identity.from_seed(test_secret(test_seed, "identity")))
        _write_private(path, ident.seed())
        return ident

    def table_dir(self, table_id: bytes) -> Path:
        return self.root / "tables" / table_id.hex()

    def unfinished(self) -> list[Path]:
        """Tables with a charter and no final transcript marker (candidates for resume)."""
        tables = self.root / "tables"
        if not tables.exists():
            return []
        return sorted(p for p in tables.iterdir() if (p / "charter.json").exists()
                      and not (p / "done").exists())


class TableStore:
    """Everything one seat persists about one table."""

    def __init__(self, data: DataDir, signed: SignedCharter, test_seed: int | None = None) -> None:
        self.dir = data.table_dir(signed.charter.table_id)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.signed = signed
        charter_path = self.dir / "charter.json"
        if not charter_path.exists():
            _write_private(charter_path, json.dumps(signed.model_dump(mode="json")).encode())
        seed_path = self.dir / "seed"
        if not seed_path.exists():
            from p2ptarot.table.secrets import new_seed

            _write_private(seed_path, new_seed() if test_seed is None
                           else test_secret(test_seed, "game-seed"))
        self.seed = seed_path.read_bytes()
        self.transcript_path = self.dir / "transcript.jsonl"
        self.outbox_path = self.dir / "outbox.jsonl"

    @classmethod
    def open_existing(cls, data: DataDir, table_dir: Path) -> "TableStore":
        from p2ptarot.table.charter import SignedCharter
        signed = SignedCharter.model_validate(json.loads((table_dir / "charter.json").read_text()))
        return cls(data, signed)

    def saved_messages(self) -> list[bytes]:
        """Own sent messages and every logged one (for resuming)."""
        out: list[bytes] = []
        for path in (self.transcript_path, self.outbox_path):
            if path.exists():
                lines = path.read_bytes().splitlines()
                if path == self.transcript_path:
                    lines = lines[1:]
                out.extend(line for line in lines if line.strip())
        return out

    def outbox(self) -> LineAppender:
        return LineAppender(self.outbox_path)

    def fresh_transcript(self) -> LineAppender:
        """Start the transcript anew (a resumed session re-records the whole log)."""
        from p2ptarot.transcript.format import header_line
        if self.transcript_path.exists():
            self.transcript_path.unlink()
        writer = LineAppender(self.transcript_path)
        writer.append(header_line(self.signed))
        writer.sync()
        return writer

    def mark_done(self) -> None:
        (self.dir / "done").write_text("finished\n")


def _datasync(fd: int) -> None:
    (getattr(os, "fdatasync", None) or os.fsync)(fd)


class LineAppender:
    """Appends lines: each is handed to the OS at once (a killed process loses nothing already
    appended); :meth:`sync` makes everything appended so far durable with one fsync.

    One fsync per batch instead of one per line: the game pump syncs the outbox once before it sends
    a batch of its own messages (they must survive a crash before anyone sees them; on the event
    loop's thread, see `persist`), and the transcript at close (every line of it is some
    seat's outbox line: a peer that lost the tail of its transcript in a crash fetches it again
    from the peers when it resumes).
    """

    def __init__(self, path: Path) -> None:
        self._fh = open(path, "ab")
        self._dirty = False

    def append(self, line: bytes) -> None:
        self._fh.write(line + b"\n")
        self._fh.flush()
        self._dirty = True

    def sync(self) -> None:
        """Make what was appended since the last sync durable (nothing to do when nothing was).

        fdatasync where the OS has it: the data and the file size, without the access times."""
        if self._dirty:
            _datasync(self._fh.fileno())
            self._dirty = False

    def close(self) -> None:
        if not self._fh.closed:
            self.sync()
            self._fh.close()


def read_transcript(path: Path) -> Transcript:
    """Read a transcript file; raises TranscriptError when it cannot be read or is not one."""
    from p2ptarot.transcript.format import TranscriptError, parse_transcript
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise TranscriptError(tr("cannot read {path}: {strerror}",
                                 path=path, strerror=exc.strerror)) from exc
    return parse_transcript(data, str(path))


def persist(effects: list[Effect], transcript: LineAppender, outbox: LineAppender) -> list[bytes]:
    """Write a batch's lines; return the own messages to send, every one durable already.

    One durable write per batch: the transcript's lines are handed to the OS (synced at close:
    every one of them is some seat's outbox line, and a resumed peer fetches a lost tail from its
    peers), the own messages are appended to the outbox and fsynced before this returns, so no
    peer can act on a message its author could lose in a crash (a resumed seat reuses it instead
    of signing a second version). The fsync runs on the event loop's thread: under load, the hop
    to a worker thread and back cost more wall time than the fsync itself (issue 36: 8.9 against
    6.4 ms from a batch's session work to its send, p50, 4 peers on one 2-core machine), and
    while the worker ran, the loop took up other frames and the send waited behind their
    verification."""
    from p2ptarot.table.effects import Record, Send  # noqa: PLC0415 - pydantic's, kept off `identity()`
    sends = [e.envelope.encoded() for e in effects if isinstance(e, Send)]
    for e in effects:
        if isinstance(e, Record):
            transcript.append(e.envelope.encoded())
    for line in sends:
        outbox.append(line)
    if sends:
        outbox.sync()
    return sends
