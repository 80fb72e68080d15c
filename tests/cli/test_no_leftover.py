"""Issue 35 item 1: no p2ptarot process leaves a file in the temporary directory.

Each command runs with TMPDIR set to a directory of its own, created empty, which must still be
empty once the command has exited (rbcl, the library's former binding, wrote a 2.8 MB copy of
libsodium there at every start and never deleted it). Every socket is on 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.peer_output import summary

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
GAME = ["--game", "trois-roses", "--variant", "single-deal"]
WAIT = 600


def _env(tmp: Path) -> dict[str, str]:
    tmp.mkdir()
    return {**os.environ, "TMPDIR": str(tmp), "TMP": str(tmp), "TEMP": str(tmp)}


def _run(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(CLI + args, cwd=ROOT, env=_env(tmp), capture_output=True, text=True,
                          timeout=WAIT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def _left(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir())


def test_games_leaves_nothing(tmp_path: Path) -> None:
    assert "arcanoid" in _run(["games"], tmp_path / "tmp").stdout
    assert _left(tmp_path / "tmp") == []


def test_simulate_leaves_nothing(tmp_path: Path) -> None:
    out = _run(["simulate", *GAME, "--players", "3", "--games", "1", "--seed", "1", "--json"],
               tmp_path / "tmp").stdout
    assert json.loads(out)
    assert _left(tmp_path / "tmp") == []


@pytest.mark.network
@pytest.mark.slow
def test_demo_and_verify_leave_nothing(tmp_path: Path) -> None:
    transcript = tmp_path / "game.jsonl"
    demo = _run(["demo", *GAME, "--players", "3", "--interface", "127.0.0.1",
                 "--json", "--out", str(transcript)], tmp_path / "tmp-demo")
    assert json.loads(demo.stdout.splitlines()[-1])["verified"]
    assert _left(tmp_path / "tmp-demo") == []  # the host and both bot processes alike
    verdict = _run(["verify", "--json", str(transcript)], tmp_path / "tmp-verify").stdout
    assert json.loads(verdict)["valid"] is True
    assert _left(tmp_path / "tmp-verify") == []


@pytest.mark.network
@pytest.mark.slow
def test_host_and_join_leave_nothing(tmp_path: Path) -> None:
    """A host with one local bot process (--bots) and a joiner play a short table to its end."""
    common = ["--interface", "127.0.0.1", "--bot", "random", "--json"]
    host_tmp, join_tmp = tmp_path / "tmp-host", tmp_path / "tmp-join"
    host = subprocess.Popen(CLI + ["host", *GAME, "--seats", "3", "--bots", "1", "--seed", "1",
                                   "--data-dir", str(tmp_path / "host"), *common],
                            cwd=ROOT, env=_env(host_tmp), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert host.stdout is not None
        seen: list[str] = []
        for line in host.stdout:
            seen.append(line)
            found = re.search(r"(ws://127\.0\.0\.1:\d+\S*)", line)
            if found:
                break
        else:
            raise AssertionError("".join(seen)[-3000:])
        joiner = _run(["join", found.group(1), "--seed", "2", "--data-dir", str(tmp_path / "j"),
                       *common], join_tmp)
        rest = host.communicate(timeout=WAIT)[0]
    finally:
        if host.poll() is None:
            host.kill()
    assert host.returncode == 0, rest[-3000:]
    assert summary(joiner.stdout)["result"] == "finished"
    assert summary("".join(seen) + rest)["result"] == "finished"
    assert _left(host_tmp) == [] and _left(join_tmp) == []
