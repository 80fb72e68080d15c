"""The data directory's line files: every appended line reaches the OS at once (a killed process
loses nothing), and one fsync per batch makes it durable."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from p2ptarot.peer import store
from p2ptarot.peer.store import LineAppender


def test_appended_lines_are_readable_before_any_sync(tmp_path: Path) -> None:
    path = tmp_path / "outbox.jsonl"
    writer = LineAppender(path)
    writer.append(b'{"a":1}')
    writer.append(b'{"b":2}')
    # another process (a resumed peer after a kill) reads the file while this one is still open
    assert path.read_bytes() == b'{"a":1}\n{"b":2}\n'
    writer.close()


def test_sync_fsyncs_once_per_batch_and_only_when_dirty(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = os.fsync
    monkeypatch.setattr(store, "_datasync", lambda fd: (calls.append(fd), real(fd)))
    writer = LineAppender(tmp_path / "t.jsonl")
    for i in range(5):
        writer.append(b"line %d" % i)
    writer.sync()
    writer.sync()  # nothing new: no second fsync
    assert len(calls) == 1
    writer.append(b"last")
    writer.close()  # close makes the tail durable
    assert len(calls) == 2
    writer.close()  # closing twice is harmless
    assert (tmp_path / "t.jsonl").read_bytes().count(b"\n") == 6


class _Env:
    """What `persist` reads of an envelope: its encoded line."""

    def __init__(self, line: bytes) -> None:
        self.line = line

    def encoded(self) -> bytes:
        return self.line


def test_a_batch_s_own_messages_are_durable_before_persist_returns_them_to_send(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pump sends only what `persist` returned: by then the outbox holds every one of those
    lines and one fsync of the outbox made them durable (the transcript waits for close)."""
    from p2ptarot.peer.store import persist
    from p2ptarot.table.effects import Record, Send

    synced: list[tuple[int, bytes]] = []
    real = os.fsync

    def datasync(fd: int) -> None:
        synced.append((fd, Path(f"/proc/self/fd/{fd}").read_bytes()))  # the file as synced
        real(fd)

    monkeypatch.setattr(store, "_datasync", datasync)
    transcript = LineAppender(tmp_path / "transcript.jsonl")
    outbox = LineAppender(tmp_path / "outbox.jsonl")
    theirs, mine, also = _Env(b'{"theirs":1}'), _Env(b'{"mine":1}'), _Env(b'{"mine":2}')
    batch: list = [Record(theirs), Send(mine), Record(mine), Send(also)]
    sends = persist(batch, transcript, outbox)
    assert sends == [b'{"mine":1}', b'{"mine":2}']
    assert synced == [(outbox._fh.fileno(), b'{"mine":1}\n{"mine":2}\n')]
    assert (tmp_path / "transcript.jsonl").read_bytes() == b'{"theirs":1}\n{"mine":1}\n'
    only_theirs: list = [Record(_Env(b'{"theirs":2}'))]
    assert persist(only_theirs, transcript, outbox) == []
    assert len(synced) == 1  # nothing of its own to send: no fsync on the way
    transcript.close()
    outbox.close()
