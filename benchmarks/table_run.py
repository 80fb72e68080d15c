"""Run one networked table of N bot peers (separate processes, everything on 127.0.0.1) from a
given checkout, and time it: process start, imports, the first move, the end, CPU, wire bytes.

Shared by `startup.py` and `whole_game.py`. Each peer runs the checkout's own `p2ptarot` CLI under
a small wrapper that writes timestamps (after its imports, and at each step through the runner's
debug log; "after its imports" is after `p2ptarot.cli.main` and `p2ptarot.cli.peer`, which every
build has: the network stack, without the game package and zeroconf that a lazy build loads
later), so two builds can be measured side by side: pass the other checkout as `root` (it
needs its own `.venv`).
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

_WRAPPER = r"""
import time, sys
t_proc = time.time()
import logging
log, ready = sys.argv[1], sys.argv[2]
logging.basicConfig(level=logging.WARNING, filename=log, format='%(created).4f %(message)s')
logging.getLogger('p2ptarot.peer.game').setLevel(logging.DEBUG)
from p2ptarot.cli.main import main
import p2ptarot.cli.peer  # host/join's own modules (imported lazily since issue 16): "ready" is the same point in every build
with open(ready, 'w') as fh:
    fh.write(str(time.time()))
sys.exit(main(sys.argv[3:]))
"""
_FIRST_MOVE = re.compile(r"^(\d+\.\d+) step \d+: .*move by seat")
_STEP = re.compile(r"^(\d+\.\d+) step (\d+):")


@dataclass
class TableRun:
    """Timings of one table, in seconds from the moment the first process was spawned."""

    peers: int
    game: str
    ready: float | None = None  # every peer process has finished importing
    first_move: float | None = None  # the host's first move step started (cards dealt)
    last_step: float | None = None
    end: float | None = None  # every process exited
    cpu: float | None = None  # user+sys of all peer processes (only when run to the end)
    steps: int | None = None
    wire_bytes: int | None = None  # envelope bytes sent: transcript lines x (peers - 1)
    transcript: str | None = None
    results: list[str] = field(default_factory=list)

    @property
    def from_ready(self) -> float | None:
        if self.first_move is None or self.ready is None:
            return None
        return self.first_move - self.ready


def _host_fingerprint(root: Path, data: Path) -> str:
    code = ("import sys; from p2ptarot.peer.store import DataDir; "
            "print(DataDir(__import__('pathlib').Path(sys.argv[1])).identity().fingerprint)")
    out = subprocess.run([str(root / ".venv/bin/python"), "-c", code, str(data)], cwd=root,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def run_table(root: Path, game: str, peers: int, *, stop_at_first_move: bool = False,
              seed: int = 1, timeout: float = 900.0) -> TableRun:
    """One table from checkout `root`; stop (kill) once the first move is due, or play to the end."""
    work = Path(tempfile.mkdtemp(prefix="p2ptarot-bench-"))
    py = str(root / ".venv/bin/python")
    fp = _host_fingerprint(root, work / "peer-0")
    common = ["--bot", "heuristic", "--quiet", "--interface", "127.0.0.1", "--lobby-timeout", "120"]
    procs: list[subprocess.Popen[str]] = []
    run = TableRun(peers=peers, game=game)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    try:
        for k in range(peers):
            files = [str(work / f"log{k}.txt"), str(work / f"ready{k}.txt")]
            if k == 0:
                args = ["host", "--game", game, "--seats", str(peers), "--name", "p0"]
            else:
                args = ["join", fp, "--game", game, "--name", f"p{k}"]
            args += ["--data-dir", str(work / f"peer-{k}"), "--seed", str(seed + k)] + common
            procs.append(subprocess.Popen([py, "-c", _WRAPPER, *files, *args], cwd=root,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                          text=True, start_new_session=True))
        host_log = work / "log0.txt"
        deadline = time.monotonic() + timeout
        if stop_at_first_move:
            while run.first_move is None and time.monotonic() < deadline:
                time.sleep(0.02)
                if host_log.exists():
                    for line in host_log.read_text().splitlines():
                        m = _FIRST_MOVE.match(line)
                        if m:
                            run.first_move = float(m.group(1)) - t0
                            break
                if any(p.poll() is not None for p in procs):
                    break
            for p in procs:
                if p.poll() is None:
                    os.killpg(p.pid, signal.SIGKILL)
            for p in procs:
                p.wait()
        else:
            outs = [p.communicate(timeout=max(1.0, deadline - time.monotonic()))[0] for p in procs]
            run.end = time.time() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            run.cpu = round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 3)
            for out in outs:
                line = next((ln for ln in reversed(out.splitlines()) if ln.startswith("{")), "{}")
                run.results.append(json.loads(line).get("result", "no result"))
            first = next((ln for ln in reversed(outs[0].splitlines()) if ln.startswith("{")), "{}")
            run.transcript = json.loads(first).get("transcript")
            _read_steps(run, host_log, t0)
            if run.transcript and Path(run.transcript).exists():
                lines = Path(run.transcript).read_bytes().splitlines()[1:]
                run.wire_bytes = sum(len(ln) + 1 for ln in lines) * (peers - 1)
                keep = Path(tempfile.mkdtemp(prefix="p2ptarot-bench-transcript-")) / "t.jsonl"
                shutil.copyfile(run.transcript, keep)
                run.transcript = str(keep)
        readies = [work / f"ready{k}.txt" for k in range(peers)]
        if all(r.exists() for r in readies):
            run.ready = max(float(r.read_text()) for r in readies) - t0
        return run
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)


def _read_steps(run: TableRun, host_log: Path, t0: float) -> None:
    if not host_log.exists():
        return
    last = None
    for line in host_log.read_text().splitlines():
        if run.first_move is None and (m := _FIRST_MOVE.match(line)):
            run.first_move = float(m.group(1)) - t0
        if m := _STEP.match(line):
            last = (float(m.group(1)) - t0, int(m.group(2)))
    if last is not None:
        run.last_step, run.steps = last


def verify_seconds(root: Path, transcript: str) -> float:
    """Wall time of verifying `transcript` with checkout `root`'s verifier (imports excluded)."""
    code = ("import sys, time; from pathlib import Path; "
            "from p2ptarot.peer.store import read_transcript; "
            "from p2ptarot.transcript import verify_transcript; "
            "t = read_transcript(Path(sys.argv[1])); t0 = time.perf_counter(); "
            "v = verify_transcript(t); dt = time.perf_counter() - t0; "
            "assert v.valid, v; print(dt)")
    out = subprocess.run([str(root / ".venv/bin/python"), "-c", code, transcript], cwd=root,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())
