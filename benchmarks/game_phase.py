"""Where a whole game's CPU falls: set-up (spawn to first move) or the game phase (first move to
last step), for this build with its peers forked from one launcher, the same build with each peer
a fresh interpreter (`P2PTAROT_BENCH_NO_FORK`), and a previous checkout (issue 36: sinople-4's
game phase was not faster than 651985e's although its whole-game CPU was lower).

The CPU of the table's processes (this script's children and grandchildren: the peers, and the
launcher of a forking build) is read from /proc every 50 ms; the figure at the first move and at
the last step (from the host's log) splits it in two. The three variants run in turn, in a
rotated order each round (medians of `--runs`); the load is recorded before each game.

Usage: python benchmarks/game_phase.py --compare /path/to/previous [--game sinople]
       [--players 4] [--runs 3] [--out benchmarks/results/game_phase-sinople-4.json]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import emit  # noqa: E402
from table_run import compile_bytecode, run_table  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
KEYS = ("game", "game_cpu", "setup", "setup_cpu", "wall", "cpu", "load1")


def _table_cpu(me: int) -> float:
    """User+sys seconds of the processes whose parent, or parent's parent, is `me`."""
    stats: dict[int, tuple[int, float]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                f = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(name)] = (int(f[1]), (int(f[11]) + int(f[12])) / TICK)
    return sum(cpu for pid, (ppid, cpu) in stats.items()
               if ppid == me or stats.get(ppid, (0, 0.0))[0] == me)


class _Sampler(threading.Thread):
    """The table's CPU over time (a process that exited keeps its last figure)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.series: list[tuple[float, float]] = []
        self.stop = threading.Event()
        self._last: dict[int, float] = {}

    def run(self) -> None:
        me = os.getpid()
        while not self.stop.is_set():
            self.series.append((time.time(), _table_cpu(me)))
            self.stop.wait(0.05)

    def at(self, t: float) -> float:
        best = 0.0  # the CPU is cumulative: the highest figure read by time t
        for ts, c in self.series:
            if ts <= t:
                best = max(best, c)
        return best


def measure(root: Path, game: str, players: int, seed: int, fork: bool) -> dict[str, Any]:
    if fork:
        os.environ.pop("P2PTAROT_BENCH_NO_FORK", None)
    else:
        os.environ["P2PTAROT_BENCH_NO_FORK"] = "1"
    load = os.getloadavg()[0]
    sampler = _Sampler()
    sampler.start()
    try:
        run = run_table(root, game, players, seed=seed)
    finally:
        sampler.stop.set()
        sampler.join()
        os.environ.pop("P2PTAROT_BENCH_NO_FORK", None)
    if any(r != "finished" for r in run.results) or not (run.first_move and run.last_step):
        raise SystemExit(f"{root}: the game did not finish: {run.results}")
    t0 = run.spawned or 0.0
    first, last = sampler.at(t0 + run.first_move), sampler.at(t0 + run.last_step)
    return {"load1": round(load, 2), "game": round(run.last_step - run.first_move, 3),
            "setup": round(run.first_move, 3), "wall": round(run.end or 0.0, 3), "cpu": run.cpu,
            "game_cpu": round(last - first, 3), "setup_cpu": round(first, 3), "steps": run.steps}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--compare", type=Path, required=True)
    ap.add_argument("--game", default="sinople")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    for root in (HERE, args.compare):
        compile_bytecode(root)
    variants = [("previous", args.compare, False), ("fork", HERE, True), ("no_fork", HERE, False)]
    samples: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in variants}
    for r in range(args.runs):
        for name, root, fork in variants[r % 3:] + variants[:r % 3]:
            m = measure(root, args.game, args.players, 1 + r, fork)
            samples[name].append(m)
            print(name, r, m, file=sys.stderr, flush=True)
    med = {name: {k: round(statistics.median(m[k] for m in ms), 3) for k in KEYS}
           for name, ms in samples.items()}
    out = {"benchmark": "game_phase", "game": args.game, "players": args.players,
           "runs": args.runs, "previous": str(args.compare), "median": med,
           "ratio_over_previous": {name: {k: round(med[name][k] / med["previous"][k], 3)
                                          for k in ("game", "game_cpu", "setup", "setup_cpu",
                                                    "wall", "cpu") if med["previous"][k]}
                                   for name in ("fork", "no_fork")},
           "samples": samples}
    return emit(out, args.out, indent=1, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
