"""`make bench`: every whole-game benchmark of issue 26 and the import cost per command, each
against a previous build in the same run (interleaved), results as JSON in benchmarks/results/.

The previous build is a checkout with its own .venv (`--compare ROOT`; default: none, this build
alone). Each game runs `whole_game.py` (CPU of all peers and its ratio to the floor, wall, bytes
on the wire, verify), then `import_cost.py` runs once per command. A summary of the medians is
printed and written to `results/run_all.json`.

Usage: python benchmarks/run_all.py [--compare ROOT] [--runs 3] [--quick-runs 1]
       [--only sinople-4,arcanoid-10]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: (game, players, the issue's targets are on these: they get --runs, the others --quick-runs)
GAMES: list[tuple[str, int, bool]] = [
    ("sinople", 4, True), ("arcanoid", 4, True), ("arcanoid", 10, True), ("eleusis", 5, False),
    ("trois-roses", 4, False), ("paris-divins", 12, False), ("arcanum", 4, False)]


def _run(script: str, args: list[str], out: Path) -> dict | None:
    cmd = [sys.executable, str(HERE / script), *args, "--out", str(out)]
    print("run_all:", " ".join(cmd[1:]), file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, cwd=HERE.parent)
    if proc.returncode != 0 or not out.exists():
        print(f"run_all: {script} {args} failed ({proc.returncode})", file=sys.stderr)
        return None
    return json.loads(out.read_text())


def _summary(result: dict) -> dict:
    keep = ("cpu", "floor", "cpu_floor_ratio", "wall", "verify", "wire_bytes", "steps")
    return {b: {k: result[b].get(k) for k in keep} for b in ("this", "previous") if b in result} | (
        {"speedup": result["speedup"]} if "speedup" in result else {})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--compare", type=Path, default=None)
    ap.add_argument("--runs", type=int, default=3, help="runs of the games the targets are on")
    ap.add_argument("--quick-runs", type=int, default=1, help="runs of the other games")
    ap.add_argument("--only", default=None, help="comma-separated game-players, e.g. sinople-4")
    ap.add_argument("--results", type=Path, default=HERE / "results")
    args = ap.parse_args()
    compare = ["--compare", str(args.compare)] if args.compare else []
    only = set(args.only.split(",")) if args.only else None
    summary: dict[str, object] = {}
    for game, players, target in GAMES:
        name = f"{game}-{players}"
        if only is not None and name not in only:
            continue
        runs = args.runs if target else args.quick_runs
        result = _run("whole_game.py", ["--game", game, "--players", str(players), "--runs",
                                        str(runs), *compare],
                      args.results / f"whole_game-{name}.json")
        summary[name] = _summary(result) if result else "failed"
        print(f"run_all: {name}: {json.dumps(summary[name])}", file=sys.stderr, flush=True)
    if only is None or "imports" in only:
        imports = _run("import_cost.py", ["--runs", str(max(args.runs, 3)), *compare],
                       args.results / "import_cost.json")
        summary["imports"] = ({cmd: {b: row[b]["cpu_ms"] for b in ("this", "previous") if b in row}
                               for cmd, row in imports["by_command"].items()}
                              if imports else "failed")
    text = json.dumps(summary, sort_keys=True, indent=1)
    (args.results / "run_all.json").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
