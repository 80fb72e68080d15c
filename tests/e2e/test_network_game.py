"""Real end-to-end games: separate OS processes, websockets and zeroconf on 127.0.0.1, mental
poker, then the offline verifier; and a peer killed mid-game that resumes from its data dir."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.transcript import verify_transcript
from tests.support.peer_output import summary

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def test_demo_three_peers_through_zeroconf(tmp_path: Path) -> None:
    """`p2ptarot demo` (what `make demo` runs): three peers find each other through zeroconf and
    play a whole sinople game, shown while it is played (not a silent wait); its exit status is 0
    only when the game completed, the peers agree and the transcript verified. (The demo's
    --json summary is tests/cli/test_demo_seed.py's.)"""
    out = tmp_path / "game.jsonl"
    proc = subprocess.run(CLI + ["demo", "--game", "sinople", "--players", "3", "--interface",
                                 "127.0.0.1", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    live = [ln for ln in lines if ln.startswith("  |   peer-")]
    assert len(live) > 100  # every move, with the player's name and a sentence
    assert any(": Play " in ln for ln in live) and not any("num-" in ln for ln in live)
    over = lines.index(next(ln for ln in lines if ln.startswith("demo: game over")))
    # the result names the players (seat order), never 0-based seat numbers
    standing = re.fullmatch(r"demo: game over in [\d.]+ s: peer-\d (\d+), peer-\d (\d+), peer-\d (\d+); "
                            r"(won by peer-\d.*|no winner)", lines[over])
    assert standing, lines[over]
    assert any("== Round 9 over ==" in ln for ln in lines[:over])
    assert any("== Final standings ==" in ln for ln in lines[:over])
    assert "VERIFIED" in lines[-1] and str(out) in lines[-1]
    verdict = verify_transcript(read_transcript(out))
    scores = verdict.outcome["scores"]
    assert verdict.valid and len(scores) == 3 and sum(scores) <= 9
    assert [int(x) for x in standing.groups()[:3]] == scores
    # the CLI verifier agrees, and finds a line tampered with (nobody signed it: no seat is blamed)
    ok = subprocess.run(CLI + ["verify", str(out), "--json"], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0 and json.loads(ok.stdout)["valid"] is True
    lines = out.read_bytes().splitlines()
    victim = json.loads(lines[40])
    victim["body"]["tampered"] = 1
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines[:40] + [json.dumps(victim, separators=(",", ":"), sort_keys=True).encode()]
                               + lines[41:]) + b"\n")
    ko = subprocess.run(CLI + ["verify", str(bad), "--json"], capture_output=True, text=True, timeout=300)
    assert ko.returncode == 1
    violation = json.loads(ko.stdout)["violation"]
    assert (violation["step"], violation["seat"]) == (victim["step"], None)
    assert "bad signature" in violation["reason"] and f"seat {victim['seat']}" in violation["reason"]
    missing = subprocess.run(CLI + ["verify", str(tmp_path / "nope.jsonl")], capture_output=True, text=True)
    assert missing.returncode == 2


_STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def _no_peer_left_behind() -> Iterator[None]:
    """A failed test kills the peers it started (a hung one would outlive the suite)."""
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _peer(args: list[str], log: Path) -> subprocess.Popen:
    proc = subprocess.Popen(CLI + args, stdout=open(log, "w"), stderr=subprocess.STDOUT, text=True)
    _STARTED.append(proc)
    return proc


def _exit_code(proc: subprocess.Popen, log: Path, timeout: float) -> int:
    """The peer's exit status; past `timeout`, the log with what each of its tasks waits on
    (`kill -USR1`, cli/taskdump.py) as the failure."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGUSR1)
        time.sleep(1.0)
        raise AssertionError(f"still running after {timeout} s:\n{log.read_text()}") from None


def test_killed_peer_resumes_and_game_completes(tmp_path: Path) -> None:
    common = ["--bot", "random", "--quiet", "--interface", "127.0.0.1", "--timeout", "120"]
    # the joiner names this host: another table on the machine (a parallel test, a demo) must
    # never catch it (issue 17)
    host_fp = DataDir(tmp_path / "a").identity().fingerprint
    host = _peer(["host", "--game", "sinople", "--seats", "2", "--data-dir", str(tmp_path / "a"),
                  "--port", "0"] + common, tmp_path / "a.log")
    joiner_args = ["join", host_fp, "--game", "sinople", "--data-dir", str(tmp_path / "b")] + common
    joiner = _peer(joiner_args, tmp_path / "b.log")
    # wait until the joiner has logged a good part of the game, then kill it hard
    deadline = time.time() + 120
    transcript = None
    while time.time() < deadline:
        found = list((tmp_path / "b").glob("tables/*/transcript.jsonl"))
        if found and len(found[0].read_bytes().splitlines()) > 150:
            transcript = found[0]
            break
        time.sleep(0.2)
    assert transcript is not None, (tmp_path / "b.log").read_text()
    os.kill(joiner.pid, signal.SIGKILL)
    joiner.wait()
    logged_before = len(transcript.read_bytes().splitlines())
    time.sleep(1.0)
    resumed = _peer(["join", "--resume", "--data-dir", str(tmp_path / "b")] + common, tmp_path / "b2.log")
    assert _exit_code(resumed, tmp_path / "b2.log", 300) == 0, (tmp_path / "b2.log").read_text()
    assert _exit_code(host, tmp_path / "a.log", 300) == 0, (tmp_path / "a.log").read_text()
    host_result = summary((tmp_path / "a.log").read_text())
    joiner_result = json.loads((tmp_path / "b2.log").read_text().strip().splitlines()[-1])
    assert host_result["scores"] == joiner_result["scores"]
    assert len(transcript.read_bytes().splitlines()) > logged_before
    for path in (Path(host_result["transcript"]), transcript):
        verdict = verify_transcript(read_transcript(path))
        assert verdict.valid, verdict.reason
        assert verdict.outcome["scores"] == host_result["scores"]


def test_arcanoid_demo_over_the_network(tmp_path: Path) -> None:
    out = tmp_path / "arcanoid.jsonl"
    proc = subprocess.run(CLI + ["demo", "--game", "arcanoid", "--players", "3", "--interface",
                                 "127.0.0.1", "--json", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["completed"] and summary["verified"] and summary["all_peers_agree"]
    verdict = verify_transcript(read_transcript(out))
    assert verdict.valid and verdict.outcome["scores"] == summary["scores"]


def test_a_peer_suspended_past_the_table_limit_abandons_the_table_for_all(tmp_path: Path) -> None:
    """Issue #9 defect 5 and issue 21 item 1, over real sockets: a peer is suspended (SIGSTOP)
    mid-game for longer than the table's limit (5 s here); the others abandon the table, naming
    the seat they waited on and blaming nobody. Resumed (SIGCONT), it reads their abort records
    and stops too, blaming nobody. Offline, nobody is convicted on any of the three transcripts."""
    common = ["--bot", "random", "--quiet", "--interface", "127.0.0.1", "--timeout", "5",
              "--move-timeout", "5"]  # moves too: these are bots
    host_fp = DataDir(tmp_path / "a").identity().fingerprint
    peers = {"a": _peer(["host", "--game", "sinople", "--seats", "3", "--data-dir",
                         str(tmp_path / "a"), "--port", "0"] + common, tmp_path / "a.log")}
    for name in ("b", "c"):
        peers[name] = _peer(["join", host_fp, "--game", "sinople", "--data-dir",
                             str(tmp_path / name)] + common, tmp_path / f"{name}.log")
    deadline = time.time() + 180
    while time.time() < deadline:
        found = list((tmp_path / "b").glob("tables/*/transcript.jsonl"))
        if found and len(found[0].read_bytes().splitlines()) > 80:
            break
        time.sleep(0.1)
    else:
        raise AssertionError((tmp_path / "b.log").read_text())
    os.kill(peers["b"].pid, signal.SIGSTOP)
    try:
        for name in ("a", "c"):
            log = tmp_path / f"{name}.log"
            assert _exit_code(peers[name], log, 120) == 1, log.read_text()
    finally:
        os.kill(peers["b"].pid, signal.SIGCONT)
    assert _exit_code(peers["b"], tmp_path / "b.log", 120) == 1, (tmp_path / "b.log").read_text()
    results = {n: json.loads((tmp_path / f"{n}.log").read_text().strip().splitlines()[-1])
               for n in peers}
    transcript = read_transcript(Path(results["b"]["transcript"]))
    suspended = transcript.charter.charter.seat_of(DataDir(tmp_path / "b").identity().public_bytes)
    for name in ("a", "c"):
        assert results[name]["blame"] is None, results[name]
        assert "abandoned" in results[name]["reason"]
        assert f"waiting on seat {suspended}" in results[name]["reason"]
    assert results["b"]["blame"] is None and "stopped the game" in results["b"]["reason"]
    for name in peers:
        verdict = verify_transcript(read_transcript(Path(results[name]["transcript"])))
        assert not verdict.valid and verdict.seat is None, verdict
