"""A whole networked game of N bot peers on 127.0.0.1 (separate processes): wall time from spawn
to the last exit, the game proper (first step to last step), CPU of all peers, offline verify time,
steps, envelope bytes on the wire, and one player's figures: each peer's own CPU and peak RSS
(`peer_*`, issue 35: the critical path when every player has a machine). Medians of several runs; with `--compare ROOT` the other
checkout (its own .venv) runs interleaved in the same session and the ratios previous/this are
reported (the machine's load then weighs on both alike). Each build verifies its own transcripts.

Usage: python benchmarks/whole_game.py --game arcanoid --players 4 [--runs 3]
       [--compare /path/to/previous/checkout] [--out benchmarks/results/arcanoid-4.json]
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
from table_run import (TableRun, compile_bytecode, floor_seconds, run_table,  # noqa: E402
                       unit_costs, verify_seconds)

HERE = Path(__file__).resolve().parent.parent
KEYS = ("wall", "game", "setup", "cpu", "floor", "cpu_floor_ratio", "verify", "steps", "wire_bytes",
        "cpu_per_step_ms", "game_per_step_ms", "peer_cpu_max", "peer_cpu_median", "peer_rss_max_mb",
        "peer_rss_median_mb", "peer_rss_ready_mb", "peer_import_cpu", "load1")
#: games differ in length (the deal is random): per-step figures compare builds fairly
RATIOS = ("wall", "game", "setup", "cpu", "verify", "cpu_per_step_ms", "game_per_step_ms",
          "peer_cpu_max", "peer_rss_max_mb")


def measure(root: Path, game: str, players: int, seed: int,
            units: dict[str, float]) -> dict[str, float | None]:
    """One game; its floor is this build's own counted operations at `units` (CPU us each)."""
    run = run_table(root, game, players, seed=seed)
    if any(r != "finished" for r in run.results) or run.transcript is None:
        raise SystemExit(f"{root}: the game did not finish: {run.results}")
    game_s = (run.last_step - run.first_move) if run.last_step and run.first_move else None
    floor = floor_seconds(run.ops, units)
    return {"wall": run.end, "game": game_s, "setup": run.first_move, "cpu": run.cpu,
            "floor": floor, "cpu_floor_ratio": round(run.cpu / floor, 2) if floor and run.cpu else None,
            "ops": run.ops,  # type: ignore[dict-item]
            "verify": verify_seconds(root, run.transcript), "steps": run.steps,
            "launcher": run.launcher,  # type: ignore[dict-item]  # a forking build's shared imports
            "wire_bytes": run.wire_bytes,
            "cpu_per_step_ms": round(1000 * run.cpu / run.steps, 2) if run.cpu and run.steps else None,
            "game_per_step_ms": round(1000 * game_s / run.steps, 2) if game_s and run.steps else None,
            **per_peer(run)}


def per_peer(run: TableRun) -> dict[str, object]:
    """One player's figures (one machine per player): each peer's CPU and peak RSS over its whole
    life (from `os.wait4`), the highest and the median over the table, and where they stood after
    the imports (the median peer's RSS and CPU at "ready", from its /proc/self/status)."""
    ready = [p.get("ready", {}) for p in run.peer_phases]
    rss_ready = [r["VmRSS"] / 1024 for r in ready if "VmRSS" in r]
    cpu_ready = [r["cpu"] for r in ready if "cpu" in r]
    return {"peer_cpu": run.peer_cpu, "peer_rss_mb": run.peer_rss_mb, "peer_phases": run.peer_phases,
            "peer_cpu_max": max(run.peer_cpu, default=None),
            "peer_cpu_median": _median(run.peer_cpu),  # type: ignore[arg-type]
            "peer_rss_max_mb": max(run.peer_rss_mb, default=None),
            "peer_rss_median_mb": _median(run.peer_rss_mb),  # type: ignore[arg-type]
            "peer_rss_ready_mb": _median(rss_ready),  # type: ignore[arg-type]
            "peer_import_cpu": _median(cpu_ready)}  # type: ignore[arg-type]


def _median(xs: list[float | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return round(statistics.median(vals), 3) if vals else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="arcanoid")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", type=Path, default=None, help="checkout of the previous build")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    builds = {"this": HERE} | ({"previous": args.compare.resolve()} if args.compare else {})
    samples: dict[str, list[dict[str, float | None]]] = {b: [] for b in builds}
    for root in builds.values():
        compile_bytecode(root)  # both builds start as installed ones do (see compile_bytecode)
    units = unit_costs(HERE)  # one price list for both builds (the same rbcl and cryptography)
    loads: list[float] = []  # the 1-minute load average as each game starts (the machine is shared)
    for run in range(args.runs):
        for name, root in builds.items():  # interleaved: both builds see the same load
            load = round(os.getloadavg()[0], 2)  # the machine's 1-minute load as the run starts
            loads.append(load)
            samples[name].append({**measure(root, args.game, args.players, seed=run + 1,
                                            units=units), "load1": load})
            print(f"run {run + 1} {name}: {json.dumps(samples[name][-1])}", file=sys.stderr)
    result: dict[str, object] = {"benchmark": "whole_game", "game": args.game,
                                 "players": args.players, "runs": args.runs,
                                 "load_1min": {"min": min(loads), "max": max(loads),
                                               "samples": loads},
                                 "unit": "seconds (wire: bytes)", "unit_costs_us": units,
                                 "floor": "group operations and signatures counted in every peer, "
                                          "at their fastest measured CPU cost each"}
    for name in builds:
        result[name] = {k: _median([s[k] for s in samples[name]]) for k in KEYS}
        result[name + "_samples"] = samples[name]
    if "previous" in builds:
        prev, this = result["previous"], result["this"]
        result["speedup"] = {k: round(prev[k] / this[k], 2)  # type: ignore[index,operator]
                             for k in RATIOS if prev[k] and this[k]}  # type: ignore[index]
    return emit(result, args.out, sort_keys=True)


if __name__ == "__main__":
    raise SystemExit(main())
