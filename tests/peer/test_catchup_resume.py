"""A seat that lost the unsynced tail of its transcript catches up fully, window after window
(issue 36): real processes on 127.0.0.1. The joiner of a two-seat sinople (600 steps) is killed
hard once its transcript holds 300 lines (about 280 steps); its transcript is then cut to its
first lines, as a power cut can leave it (the transcript is synced at close only: every line of
it is some seat's outbox line, and the outbox, synced before each send, is kept whole). Resumed, the seat is more than two windows of
`MAX_STEPS_AHEAD` steps behind: its step trace shows that it asked again as soon as it had taken
each answer's window, the game finishes, both seats agree, and the resumed transcript is whole
and verifies."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.peer.trace import ENV as TRACE_ENV
from p2ptarot.table.envelope import parse
from p2ptarot.table.intake import MAX_STEPS_AHEAD
from p2ptarot.transcript import verify_transcript
from tests.support.peer_output import summary

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
WAIT = 600.0  # safety net against a hang, never asserted on
KEEP = 6  # transcript lines left after the cut: the header and a few steps


def _peer(args: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen(CLI + args, stdout=open(log, "w"), stderr=subprocess.STDOUT, text=True,
                            env=None if env is None else {**os.environ, **env})


def test_a_seat_that_lost_its_transcript_tail_catches_up_window_after_window(tmp_path: Path) -> None:
    common = ["--bot", "random", "--quiet", "--interface", "127.0.0.1", "--timeout", "120"]
    host_fp = DataDir(tmp_path / "a").identity().fingerprint
    host = _peer(["host", "--game", "sinople", "--seats", "2", "--data-dir", str(tmp_path / "a"),
                  "--port", "0"] + common, tmp_path / "a.log")
    joiner = _peer(["join", host_fp, "--game", "sinople", "--data-dir", str(tmp_path / "b")]
                   + common, tmp_path / "b.log")
    try:
        deadline = time.monotonic() + WAIT
        transcript = None
        while time.monotonic() < deadline and joiner.poll() is None:
            found = list((tmp_path / "b").glob("tables/*/transcript.jsonl"))
            if found and len(found[0].read_bytes().splitlines()) > 300:
                transcript = found[0]
                break
            time.sleep(0.05)
        assert transcript is not None, (tmp_path / "b.log").read_text()
        os.kill(joiner.pid, signal.SIGKILL)
        joiner.wait()
        lines = transcript.read_bytes().splitlines()
        reached = parse(lines[-2]).step  # (the last line may have been cut by the kill)
        transcript.write_bytes(b"".join(line + b"\n" for line in lines[:KEEP]))
        kept = parse(lines[KEEP - 1]).step
        assert reached - kept > 2 * MAX_STEPS_AHEAD  # more than two windows lost

        traces = tmp_path / "trace"
        resumed = _peer(["join", "--resume", "--data-dir", str(tmp_path / "b")] + common,
                        tmp_path / "b2.log", env={TRACE_ENV: str(traces)})
        assert resumed.wait(timeout=WAIT) == 0, (tmp_path / "b2.log").read_text()
        assert host.wait(timeout=WAIT) == 0, (tmp_path / "a.log").read_text()
    finally:
        for proc in (host, joiner):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    records = [json.loads(x) for x in next(traces.glob("trace-*.jsonl")).read_text().splitlines()]
    more = [r["s0"] for r in records if r["src"] == "more"]
    # each window taken, the seat asked from where it stood at once (not at a timer)
    assert len(more) >= 2 and more[0] > kept + MAX_STEPS_AHEAD and more == sorted(more), more
    host_result = summary((tmp_path / "a.log").read_text())
    joiner_result = summary((tmp_path / "b2.log").read_text())
    assert host_result["scores"] == joiner_result["scores"]
    ours, theirs = read_transcript(transcript), read_transcript(Path(host_result["transcript"]))
    assert ours.messages == theirs.messages and ours.framing is None
    verdict = verify_transcript(ours)
    assert verdict.valid and verdict.outcome["scores"] == host_result["scores"], verdict.reason
