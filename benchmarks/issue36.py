"""Issue 36 in one command: whole-game wall and CPU of arcanoïd-4 and sinople-4, this build against
another checkout (651985e), interleaved game by game so that both see the same load, medians of
`--runs`; then the move latency of this build (p50 and p99 from a move to every peer having
applied it, `move_latency.py`), and of the other build when it has the step trace. Every sample
records the machine's 1-minute load as it starts. With `--ten`, arcanoïd-10 too (its play phase,
first move to last step, is the figure issue 36 item 3 compares).

Usage: python benchmarks/issue36.py --compare /path/to/651985e [--runs 3] [--ten]
       [--out-dir benchmarks/results/issue36/latest]
Writes whole_game-<game>-<n>.json and move_latency-arcanoid-4.json in the output directory (the
branch's own runs are in results/issue36/ and results/issue36/waits2/: not overwritten).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import move_latency  # noqa: E402
import whole_game  # noqa: E402
from table_run import compile_bytecode, unit_costs  # noqa: E402

HERE = Path(__file__).resolve().parent.parent


def whole_games(builds: dict[str, Path], game: str, players: int, runs: int,
                units: dict[str, float]) -> dict[str, Any]:
    """`whole_game.py`'s figures for both builds, interleaved, with the ratios previous/this."""
    samples: dict[str, list[dict[str, Any]]] = {b: [] for b in builds}
    loads: list[float] = []
    for run in range(runs):
        for name, root in builds.items():
            load = round(os.getloadavg()[0], 2)
            loads.append(load)
            sample = {**whole_game.measure(root, game, players, seed=run + 1, units=units),
                      "load1": load}
            samples[name].append(sample)
            print(f"{game}-{players} run {run + 1} {name}: wall {sample['wall']:.2f} "
                  f"cpu {sample['cpu']} game {sample['game']} load {load}", file=sys.stderr)
    out: dict[str, Any] = {"benchmark": "whole_game", "game": game, "players": players,
                           "runs": runs, "load_1min": {"min": min(loads), "max": max(loads),
                                                       "samples": loads},
                           "unit": "seconds (wire: bytes)", "unit_costs_us": units,
                           "builds": {k: str(v) for k, v in builds.items()}}
    for name in builds:
        out[name] = {k: whole_game._median([s[k] for s in samples[name]]) for k in whole_game.KEYS}
        out[name + "_samples"] = samples[name]
    if "previous" in builds:
        prev, this = out["previous"], out["this"]
        out["ratio_this_over_previous"] = {k: round(this[k] / prev[k], 3)
                                           for k in whole_game.RATIOS if prev[k] and this[k]}
        out["pairs_this_faster_wall"] = sum(
            t["wall"] < p["wall"] for t, p in zip(samples["this"], samples["previous"]))
    return out


def latencies(builds: dict[str, Path], runs: int) -> dict[str, Any]:
    """Move latency of arcanoïd-4 for every build that has the step trace."""
    traced = {k: v for k, v in builds.items() if (v / "p2ptarot/peer/trace.py").exists()}
    samples: dict[str, list[dict[str, Any]]] = {b: [] for b in traced}
    loads: list[float] = []
    for run in range(runs):
        for name, root in traced.items():
            loads.append(round(os.getloadavg()[0], 2))
            s = move_latency.measure(root, "arcanoid", 4, seed=run + 1)
            s["load1"] = loads[-1]
            samples[name].append(s)
            print(f"latency run {run + 1} {name}: {s['latency_ms']} load {loads[-1]}",
                  file=sys.stderr)
    out: dict[str, Any] = {"benchmark": "move_latency", "game": "arcanoid", "players": 4,
                           "runs": runs, "load_1min": {"min": min(loads), "max": max(loads),
                                                       "samples": loads},
                           "unit": "milliseconds (wall, cpu: seconds)",
                           "untraced_builds": sorted(set(builds) - set(traced))}
    for name, ss in samples.items():
        out[name] = {"latency_p50_ms": statistics.median(s["latency_ms"]["p50"] for s in ss),
                     "latency_p99_ms": statistics.median(s["latency_ms"]["p99"] for s in ss),
                     "persist_before_send_p50_ms": statistics.median(
                         s["persist_before_send_ms"]["p50"] or 0 for s in ss),
                     "gap_to_next_step_p50_ms": statistics.median(
                         s["gap_to_next_step_ms"]["p50"] or 0 for s in ss),
                     "wall": statistics.median(s["wall"] for s in ss),
                     "cpu": statistics.median(s["cpu"] for s in ss)}
        out[name + "_samples"] = ss
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--compare", type=Path, required=True, help="checkout of 651985e (its .venv)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ten", action="store_true", help="arcanoïd-10 as well")
    ap.add_argument("--out-dir", type=Path, default=HERE / "benchmarks/results/issue36/latest")
    args = ap.parse_args()
    builds = {"this": HERE, "previous": args.compare.resolve()}
    for root in builds.values():
        compile_bytecode(root)
    units = unit_costs(HERE)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    tables = [("arcanoid", 4), ("sinople", 4)] + ([("arcanoid", 10)] if args.ten else [])
    summary: dict[str, Any] = {}
    for game, players in tables:
        result = whole_games(builds, game, players, args.runs, units)
        (args.out_dir / f"whole_game-{game}-{players}.json").write_text(
            json.dumps(result, sort_keys=True) + "\n")
        summary[f"{game}-{players}"] = {"ratio": result.get("ratio_this_over_previous"),
                                        "load": result["load_1min"]}
    lat = latencies(builds, args.runs)
    (args.out_dir / "move_latency-arcanoid-4.json").write_text(json.dumps(lat, sort_keys=True) + "\n")
    summary["move_latency"] = {k: lat[k] for k in builds if k in lat}
    print(json.dumps(summary, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
