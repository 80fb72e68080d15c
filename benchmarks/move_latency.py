"""Move latency over a whole networked game (issue 35 item 6, issue 36 item 1): the time from a
player's move (its peer's pump takes it from the chooser) to every peer having applied it (the
step it moved in completed at every peer), p50 and p99; and where each step's wall time goes.

Every peer keeps the pump's per-step trace (`p2ptarot.peer.trace`, switched on by the
`P2PTAROT_STEP_TRACE` environment variable this script sets); the clocks are `time.monotonic()`,
one clock for every process of the machine, so the peers' records line up. Besides the latency,
per batch of the pump (a received frame, the local move): the session's check-and-apply, the
persisting (lines handed to the OS, own lines fsynced before they are sent), the sending, and,
per step, the *gap*: from the step completing at a peer to the next step's first message reaching
that peer's pump (the other seats' work, their bots' choice, the wire and the waits between).

With `--compare ROOT` another checkout (its own .venv, and the trace module) runs interleaved.

Usage: python benchmarks/move_latency.py [--game arcanoid] [--players 4] [--runs 3]
       [--compare ROOT] [--out benchmarks/results/move_latency-arcanoid-4.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import emit  # noqa: E402
from table_run import compile_bytecode, run_table  # noqa: E402

HERE = Path(__file__).resolve().parent.parent


def _pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))], 2)


def _stats(xs: list[float]) -> dict[str, float | int | None]:
    """Milliseconds: p50, p90, p99, max, mean and the count."""
    return {"p50": _pct(xs, 0.5), "p90": _pct(xs, 0.9), "p99": _pct(xs, 0.99),
            "max": round(1000 * max(xs), 2) if xs else None,
            "mean": round(1000 * statistics.fmean(xs), 2) if xs else None, "n": len(xs)}


def analyse(traces: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """Latency and stage figures from every peer's trace records."""
    applied: dict[int, dict[int, float]] = {}  # peer -> step -> when it completed there
    for seat, recs in traces.items():
        done = applied[seat] = {}
        for r in recs:
            for s in range(r["s0"], r["s1"]):  # applied once the session returned
                done.setdefault(s, r.get("session", r["t1"]))
    moved: dict[int, float] = {}  # step -> the last move taken in it (a blind step: every seat's)
    for recs in traces.values():
        for r in recs:
            if r["src"] == "move" and r.get("sent"):
                moved[r["s0"]] = max(moved.get(r["s0"], 0.0), r["t0"])
    latency, own = [], []
    for step, t in sorted(moved.items()):
        when = [applied[p].get(step) for p in traces]
        if all(w is not None for w in when):
            latency.append(max(when) - t)  # type: ignore[type-var]
            own.append(min(when) - t)  # type: ignore[type-var]
    stage: dict[str, list[float]] = {"session": [], "persist": [], "send": [], "batch": []}
    persist_sync: list[float] = []  # batches that sent: the fsync before the send
    gaps: list[float] = []
    busy = idle = 0.0
    for recs in traces.values():
        batches = [r for r in recs if r["src"] in ("recv", "move")]
        for r in batches:
            stage["batch"].append(r["t1"] - r["t0"])
            if "session" in r:
                stage["session"].append(r["session"] - r["t0"])
                if "persist" in r:
                    stage["persist"].append(r["persist"] - r["session"])
                    if r.get("sent"):
                        persist_sync.append(r["persist"] - r["session"])
                    if "send" in r:
                        stage["send"].append(r["send"] - r["persist"])
        for a, b in zip(batches, batches[1:]):
            busy += a["t1"] - a["t0"]
            idle += max(0.0, b["t0"] - a["t1"])
        for i, r in enumerate(batches):
            if r["s1"] > r["s0"]:  # a step completed: wait for the first message of a later one
                nxt = next((b for b in batches[i + 1:] if b.get("es", -1) >= r["s1"]
                            or (b["src"] == "move" and b["s0"] >= r["s1"])), None)
                if nxt is not None:
                    gaps.append(nxt["t0"] - r["t1"])
    out_idle = _idle_think_cpu(traces)
    ends = {p: [r["t0"] for r in recs if r["src"] in ("over", "left")]
            for p, recs in traces.items()}
    overs = [e[0] for e in ends.values() if e]
    lefts = [e[-1] for e in ends.values() if len(e) > 1]
    notes = {k: sum(1 for recs in traces.values() for r in recs if r["src"] == k)
             for k in ("resync", "deep")}
    gc_s = [sum(r["seconds"].values()) for recs in traces.values() for r in recs
            if r["src"] == "gc"]
    return {"gc_pause_s_per_peer": round(statistics.fmean(gc_s), 3) if gc_s else None,
            "latency_ms": _stats(latency), "mover_applied_ms": _stats(own),
            "stages_ms": {k: _stats(v) for k, v in stage.items()},
            "persist_before_send_ms": _stats(persist_sync),
            "gap_to_next_step_ms": _stats(gaps),
            "pump_busy_fraction": round(busy / (busy + idle), 3) if busy + idle else None,
            "linger_s": round(max(lefts) - min(overs), 3) if overs and lefts else None,
            "finish_spread_s": round(max(overs) - min(overs), 3) if overs else None,
            "timer_catchups": notes, "moves": len(moved), **out_idle}


def _idle_think_cpu(traces: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """Game phase only (from the first move taken anywhere): `all_idle_s`, the time no peer was
    handling a batch (a wait somewhere, a message in flight, or every peer off the cores),
    and its share of the phase; `think_ms`, from a step reaching a peer to its chooser's move
    being taken there (the bots' choice and the pump's turn); `batch_cpu_over_wall`, the
    batches' process CPU over their wall time (under 1: peers waiting for a core; builds
    whose trace records no CPU give None)."""
    batches = sorted((r for recs in traces.values() for r in recs
                      if r["src"] in ("recv", "move") and "t1" in r), key=lambda r: r["t0"])
    moves = [r["t0"] for r in batches if r["src"] == "move"]
    if not moves:
        return {}
    start = min(moves)
    game = [r for r in batches if r["t0"] >= start]
    idle, reach = 0.0, start
    for r in game:
        idle += max(0.0, r["t0"] - reach)
        reach = max(reach, r["t1"])
    think: list[float] = []
    for recs in traces.values():
        done = [r for r in recs if r["src"] in ("recv", "move") and "t1" in r]
        for i, r in enumerate(done):
            if r["src"] == "move":
                came = [q for q in done[:i] if q["s0"] < r["s0"] <= q["s1"]]
                if came:
                    think.append(r["t0"] - came[-1]["t1"])
    timed = [r for r in game if "c1" in r]
    wall = sum(r["t1"] - r["t0"] for r in timed)
    return {"all_idle_s": round(idle, 3),
            "all_idle_share": round(idle / (reach - start), 3) if reach > start else None,
            "think_ms": _stats(think),
            "batch_cpu_over_wall": round(sum(r["c1"] - r["c0"] for r in timed) / wall, 3)
            if timed and wall else None}


def measure(root: Path, game: str, players: int, seed: int,
            keep: Path | None = None) -> dict[str, Any]:
    where = Path(tempfile.mkdtemp(prefix="p2ptarot-trace-"))
    try:
        run = run_table(root, game, players, seed=seed, env={"P2PTAROT_STEP_TRACE": str(where)})
        if any(r != "finished" for r in run.results):
            raise SystemExit(f"{root}: the game did not finish: {run.results}")
        traces = {int(p.stem.split("-")[1]): [json.loads(x) for x in p.read_text().splitlines()]
                  for p in where.glob("trace-*.jsonl")}
        if len(traces) != players:
            raise SystemExit(f"{root}: {len(traces)} traces of {players} peers (no trace module?)")
        if keep is not None:
            shutil.copytree(where, keep / f"{root.name}-{seed}", dirs_exist_ok=True)
        out = analyse(traces)
        plays = [r["wall"] for recs in traces.values() for r in recs if r["src"] == "play"]
        lefts = []  # when each peer's pump returned, on the wall clock (its play record's offset)
        for recs in traces.values():
            play = next((r for r in recs if r["src"] == "play"), None)
            left = next((r for r in recs if r["src"] == "left"), None)
            if play is not None and left is not None:
                lefts.append(play["wall"] + left["t0"] - play["t0"])
        out.update({"wall": run.end, "cpu": run.cpu, "steps": run.steps,
                    "imports_done": run.ready, "first_move": run.first_move,
                    "play_start": round(max(plays) - run.spawned, 3)
                    if plays and run.spawned else None,
                    # from the last pump's return to the last process's exit (links closed)
                    "exit_after_left": round(run.spawned + run.end - max(lefts), 3)
                    if lefts and run.spawned and run.end else None,
                    "game": round(run.last_step - run.first_move, 3)
                    if run.last_step and run.first_move else None})
        return out
    finally:
        shutil.rmtree(where, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="arcanoid")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", type=Path, default=None, help="checkout of the previous build")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--keep", type=Path, default=None, help="copy the raw traces here")
    args = ap.parse_args()
    builds = {"this": HERE} | ({"previous": args.compare.resolve()} if args.compare else {})
    for root in builds.values():
        compile_bytecode(root)
    samples: dict[str, list[dict[str, Any]]] = {b: [] for b in builds}
    loads: list[float] = []
    for run in range(args.runs):
        for name, root in builds.items():
            loads.append(os.getloadavg()[0])
            samples[name].append(measure(root, args.game, args.players, seed=run + 1,
                                          keep=args.keep))
            s = samples[name][-1]
            print(f"run {run + 1} {name}: latency {s['latency_ms']} wall {s['wall']}",
                  file=sys.stderr)
    result: dict[str, Any] = {"benchmark": "move_latency", "game": args.game,
                              "players": args.players, "runs": args.runs,
                              "load_1min": {"min": min(loads), "max": max(loads),
                                            "samples": loads},
                              "unit": "milliseconds (wall, cpu, game: seconds)"}
    for name in builds:
        ss = samples[name]
        result[name] = {
            "latency_p50_ms": statistics.median(s["latency_ms"]["p50"] for s in ss),
            "latency_p99_ms": statistics.median(s["latency_ms"]["p99"] for s in ss),
            "persist_before_send_p50_ms": statistics.median(
                s["persist_before_send_ms"]["p50"] or 0 for s in ss),
            "gap_to_next_step_p50_ms": statistics.median(
                s["gap_to_next_step_ms"]["p50"] or 0 for s in ss),
            "wall": statistics.median(s["wall"] for s in ss),
            "cpu": statistics.median(s["cpu"] for s in ss)}
        result[name + "_samples"] = ss
    return emit(result, args.out, sort_keys=True)


if __name__ == "__main__":
    raise SystemExit(main())
