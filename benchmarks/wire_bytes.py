"""Bytes on the wire of a whole networked game against the full-mesh minimum (issue 21, item 4).

N bot peers (separate processes, 127.0.0.1, websockets, real mental poker) play one table; every
peer counts what it hands its links (the text of every frame, by kind: envelopes and each
control frame). The full-mesh minimum is every unique signed message (the transcript's lines)
sent once to each of the N-1 other seats. Reports medians of `--runs` games per build; with
`--compare ROOT` (another checkout with its own `.venv`, e.g. the landed main) the two builds
run interleaved, so both see the same machine load.

`repeat` (bytes and frames) is the part of the envelopes a peer handed a link that already
carried the very same envelope (a re-sync answer or a relay of something the link had): issue 32
item 7 wants none. `--hog N` runs N busy processes for the whole benchmark, so that the machine's
load stays high (the 2 s re-sync fires under load, not on a quiet machine); the 1-minute load is
sampled every 2 s during each game and recorded (min, median, max). A game that does not finish
is reported and left out of the medians. Never run two of these at once: the peers' ports follow
the run's seed, and two tables on one port range fail each other.

Usage: python benchmarks/wire_bytes.py --game paris-divins --players 12 [--runs 3] [--hog 10]
       [--compare ../base] [--out benchmarks/results/wire_bytes-paris-divins-12.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from table_run import run_table

ROOT = Path(__file__).resolve().parent.parent


def _build(root: Path) -> str:
    out = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%h %s"],
                         capture_output=True, text=True)
    return out.stdout.strip()[:80]


@contextmanager
def hog(n: int) -> Iterator[None]:
    """`n` busy processes (one pure-Python loop each) for as long as the block runs."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


@contextmanager
def load_samples(every: float = 2.0) -> Iterator[list[float]]:
    """The 1-minute load average, sampled every `every` seconds while the block runs."""
    samples: list[float] = [os.getloadavg()[0]]
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(every):
            samples.append(os.getloadavg()[0])

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield samples
    finally:
        stop.set()
        thread.join()
        samples.append(os.getloadavg()[0])


def one(root: Path, game: str, players: int, seed: int) -> dict:
    with load_samples() as load:
        run = run_table(root, game, players, seed=seed, timeout=3600.0, count_wire=True)
    if run.sent is None or run.wire_bytes is None:  # reported, left out of the medians
        return {"seed": seed, "failed": f"the table did not finish ({sorted(set(run.results))})",
                "load1": {"min": min(load), "median": round(statistics.median(load), 2),
                          "max": max(load)}}
    by_kind = dict(run.sent["bytes"])
    repeat = by_kind.pop("repeat", 0)  # a part of "envelope", not a kind of its own
    frames = dict(run.sent["frames"])
    repeat_frames = frames.pop("repeat", 0)
    total = sum(by_kind.values())
    return {"seed": seed, "wall_seconds": round(run.end or 0.0, 2), "steps": run.steps,
            "results": sorted(set(run.results)), "minimum_bytes": run.wire_bytes,
            "sent_bytes": total, "ratio": round(total / run.wire_bytes, 3),
            "repeat_bytes": repeat, "repeat_frames": repeat_frames,
            "load1": {"min": min(load), "median": round(statistics.median(load), 2),
                      "max": max(load)},
            "by_kind_bytes": by_kind, "by_kind_frames": frames}


def summary(runs: list[dict]) -> dict:
    failed = sum(1 for r in runs if "failed" in r)
    runs = [r for r in runs if "failed" not in r]
    if not runs:
        return {"failed": failed}
    out = {key: statistics.median(r[key] for r in runs)
           for key in ("wall_seconds", "steps", "minimum_bytes", "sent_bytes", "ratio",
                       "repeat_bytes", "repeat_frames")}
    out["load1_median"] = statistics.median(r["load1"]["median"] for r in runs)
    out["load1_min"] = min(r["load1"]["min"] for r in runs)
    out["failed"] = failed
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="paris-divins")
    ap.add_argument("--players", type=int, default=12)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", type=Path, help="another checkout (with .venv) to run as well")
    ap.add_argument("--hog", type=int, default=0, help="busy processes to run alongside")
    ap.add_argument("--min-load", type=float, default=10.0,
                    help="with --hog: wait (at most 90 s) for this 1-minute load before the first game")
    ap.add_argument("--out", type=Path, help="also write the JSON here")
    args = ap.parse_args()
    builds = {"this": ROOT} | ({"compare": args.compare.resolve()} if args.compare else {})
    runs: dict[str, list[dict]] = {name: [] for name in builds}
    with hog(args.hog):
        if args.hog:  # the 1-minute average lags: let it climb before the first game
            warm = time.monotonic() + 90.0
            while os.getloadavg()[0] < args.min_load and time.monotonic() < warm:
                time.sleep(1.0)
        for k in range(args.runs):
            for name, root in builds.items():
                runs[name].append(one(root, args.game, args.players, seed=k + 1))
                print(name, json.dumps(runs[name][-1]), file=sys.stderr)
    result = {"benchmark": "wire_bytes", "game": args.game, "players": args.players,
              "runs": args.runs, "hog": args.hog, "min_load": args.min_load, "cpus": os.cpu_count(), "builds": {name: _build(root) for name, root in builds.items()},
              "median": {name: summary(r) for name, r in runs.items()}, "all": runs}
    if args.compare:
        this, other = result["median"]["this"], result["median"]["compare"]
        result["this_over_compare"] = {key: round(this[key] / other[key], 3)
                                       for key in ("wall_seconds", "sent_bytes", "ratio")}
    text = json.dumps(result, indent=1, sort_keys=True)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
