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
