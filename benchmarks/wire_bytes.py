"""Bytes on the wire of a whole networked game against the full-mesh minimum (issue 21, item 4).

N bot peers (separate processes, 127.0.0.1, websockets, real mental poker) play one table; every
peer counts what it hands its links (the text of every frame, by kind: envelopes and each
control frame). The full-mesh minimum is every unique signed message (the transcript's lines)
sent once to each of the N-1 other seats. Reports medians of `--runs` games per build; with
`--compare ROOT` (another checkout with its own `.venv`, e.g. the landed main) the two builds
run interleaved, so both see the same machine load.

Usage: python benchmarks/wire_bytes.py --game paris-divins --players 12 [--runs 3]
       [--compare ../base] [--out benchmarks/results/wire_bytes-paris-divins-12.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from table_run import run_table

ROOT = Path(__file__).resolve().parent.parent


def _build(root: Path) -> str:
    out = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%h %s"],
                         capture_output=True, text=True)
    return out.stdout.strip()[:80]


def one(root: Path, game: str, players: int, seed: int) -> dict:
    run = run_table(root, game, players, seed=seed, timeout=3600.0, count_wire=True)
    if run.sent is None or run.wire_bytes is None:
        raise SystemExit(f"{root}: the table did not finish ({run.results})")
    total = sum(run.sent["bytes"].values())
    return {"seed": seed, "wall_seconds": round(run.end or 0.0, 2), "steps": run.steps,
            "results": sorted(set(run.results)), "minimum_bytes": run.wire_bytes,
            "sent_bytes": total, "ratio": round(total / run.wire_bytes, 3),
            "by_kind_bytes": run.sent["bytes"], "by_kind_frames": run.sent["frames"]}


def summary(runs: list[dict]) -> dict:
    return {key: statistics.median(r[key] for r in runs)
            for key in ("wall_seconds", "steps", "minimum_bytes", "sent_bytes", "ratio")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="paris-divins")
    ap.add_argument("--players", type=int, default=12)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", type=Path, help="another checkout (with .venv) to run as well")
    ap.add_argument("--out", type=Path, help="also write the JSON here")
    args = ap.parse_args()
    builds = {"this": ROOT} | ({"compare": args.compare.resolve()} if args.compare else {})
    runs: dict[str, list[dict]] = {name: [] for name in builds}
    for k in range(args.runs):
        for name, root in builds.items():
            runs[name].append(one(root, args.game, args.players, seed=k + 1))
            print(name, json.dumps(runs[name][-1]), file=sys.stderr)
    result = {"benchmark": "wire_bytes", "game": args.game, "players": args.players,
              "runs": args.runs, "builds": {name: _build(root) for name, root in builds.items()},
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
