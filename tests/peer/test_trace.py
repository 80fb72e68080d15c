"""The pump's per-step trace (`p2ptarot.peer.trace`): off unless a benchmark switches it on, and
what it records lines up a batch's stages and the frame that woke it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2ptarot.peer.trace import ENV, StepTrace


def test_the_trace_is_off_unless_the_environment_names_a_directory(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert StepTrace.from_env(0) is None
    monkeypatch.setenv(ENV, str(tmp_path))
    trace = StepTrace.from_env(2)
    assert trace is not None and trace.path == tmp_path / "trace-2.jsonl"


def test_a_batch_records_its_stages_in_order_and_the_frame_it_took(tmp_path: Path) -> None:
    trace = StepTrace(tmp_path / "t", 1)
    frame = (b'{"body":{"kind":"x","step":1},"kind":"mental.shuffle","prev":"a","seat":2,'
             b'"step":12,"v":3}')
    trace.begin("recv", 11, frame)
    trace.mark("session")
    trace.sent(2)
    trace.mark("persist")
    trace.mark("send")
    trace.end(13)
    trace.begin("recv", 13, b'{"ctl":"sync","step":5}')
    trace.end(13)
    trace.note("over", 13)
    trace.write()
    recs = [json.loads(line) for line in trace.path.read_text().splitlines()]
    play, first, ctl, over, collected = recs
    assert collected["src"] == "gc"
    assert play["src"] == "play" and play["t0"] <= first["t0"] and play["wall"] > 0
    # the envelope's own step and kind (after its body), not the body's
    assert (first["es"], first["ek"], first["n"]) == (12, "mental.shuffle", len(frame))
    assert (first["s0"], first["s1"], first["sent"]) == (11, 13, 2)
    assert first["t0"] <= first["session"] <= first["persist"] <= first["send"] <= first["t1"]
    assert ctl["ek"] == "ctl.sync" and "es" not in ctl
    assert over["src"] == "over" and over["s0"] == 13


def test_marks_outside_a_batch_are_ignored(tmp_path: Path) -> None:
    trace = StepTrace(tmp_path, 0)
    trace.mark("session")
    trace.sent(3)
    trace.end(4)
    assert [r["src"] for r in trace.records] == ["play"]


def test_each_batch_and_moment_records_the_process_cpu_and_its_faults(tmp_path: Path) -> None:
    """A benchmark tells a batch's CPU from its wall time (a peer made to wait for a core) and
    counts the copy-on-write faults of a forked peer between the start and end of play."""
    trace = StepTrace(tmp_path, 0)
    trace.begin("recv", 0, None)
    sum(i * i for i in range(20000))  # some CPU inside the batch
    trace.end(1)
    trace.note("over", 1)
    play, batch, over = trace.records
    assert batch["c0"] < batch["c1"] and play["cpu"] <= batch["c0"] and batch["c1"] <= over["cpu"]
    for key in ("minflt", "majflt", "nvcsw", "nivcsw"):
        assert 0 <= play[key] <= over[key]
