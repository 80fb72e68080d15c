"""Start to first move: N bot peers on 127.0.0.1 (separate processes, zeroconf, websockets), from
the spawn of the processes, and from the moment every process has finished its imports, to the
host's first move step (keys, shuffles and the deal done). Medians of several runs; with
`--compare ROOT` the other checkout (its own .venv) runs interleaved in the same session and
the ratios previous/this are reported.

Usage: python benchmarks/startup.py [--game arcanoid] [--peers 2 4 6 10] [--runs 3]
       [--compare /path/to/previous/checkout] [--out benchmarks/results/startup.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import emit  # noqa: E402
from table_run import run_table  # noqa: E402

HERE = Path(__file__).resolve().parent.parent


def _median(xs: list[float | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return round(statistics.median(vals), 3) if vals else None


def measure(root: Path, game: str, peers: int) -> dict[str, float | None]:
    run = run_table(root, game, peers, stop_at_first_move=True)
    return {"from_spawn": run.first_move, "from_ready": run.from_ready, "ready": run.ready}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="arcanoid")
    ap.add_argument("--peers", type=int, nargs="+", default=[2, 4, 6, 10])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", type=Path, default=None, help="checkout of the previous build")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    builds = {"this": HERE} | ({"previous": args.compare.resolve()} if args.compare else {})
    result: dict[str, object] = {"benchmark": "start_to_first_move", "game": args.game,
                                 "runs": args.runs, "unit": "seconds", "by_peers": {},
                                 "load_before": [round(x, 2) for x in os.getloadavg()],
                                 "cpus": os.cpu_count()}
    for n in args.peers:
        samples: dict[str, list[dict[str, float | None]]] = {b: [] for b in builds}
        for _ in range(args.runs):
            for name, root in builds.items():  # interleaved: both builds see the same load
                samples[name].append(measure(root, args.game, n))
        row: dict[str, object] = {}
        for name in builds:
            row[name] = {key: _median([s[key] for s in samples[name]])
                         for key in ("from_spawn", "from_ready", "ready")}
            row[name + "_samples"] = samples[name]
        if "previous" in builds:
            for key in ("from_spawn", "from_ready"):
                a, b = row["previous"][key], row["this"][key]  # type: ignore[index]
                row[f"speedup_{key}"] = round(a / b, 2) if a and b else None
        result["by_peers"][str(n)] = row  # type: ignore[index]
        print(f"{n} peers: {json.dumps({k: v for k, v in row.items() if not k.endswith('_samples')})}",
              file=sys.stderr)
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    return emit(result, args.out, sort_keys=True)


if __name__ == "__main__":
    raise SystemExit(main())
