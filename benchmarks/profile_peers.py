"""Where a whole networked game's CPU goes: one table of N bot peers (as `whole_game.py` runs
it), every peer sampled by py-spy (on-CPU samples only), the samples sorted into imports, group
operations (libsodium through rbcl), Ed25519, the store's writer thread and the rest (the
runner, the session, JSON, asyncio, the links), plus the heaviest frames of the rest.

py-spy is not a dependency of the project: pass its binary (`pip install py-spy` in any
environment). Samples of a process waiting for a CPU count as on-CPU, so on a loaded machine
the shares lean towards whatever runs when every peer is busy at once (the imports at start).

Each peer's own CPU (imports / table / teardown, against its own floor) and memory are reported
too (`peers`); `--tracemalloc` adds where each peer's Python heap stands when its table is done,
by package (without `--py-spy`: tracing slows the peers, their samples would mislead).

Usage: python benchmarks/profile_peers.py [--py-spy /path/to/py-spy] [--tracemalloc] --game sinople
       --players 4 [--top 25] [--out benchmarks/results/issue26/profile-sinople-4.json]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_run import (TableRun, compile_bytecode, floor_seconds, forks_its_peers,  # noqa: E402
                       run_table, unit_costs)

HERE = Path(__file__).resolve().parent.parent
_FRAME = re.compile(r" \((/[^)]*/)?([^/)]+)\)$")


def category(frames: list[str]) -> str:
    """The share a stack (outermost first) belongs to."""
    leaf = frames[-1]
    if any("importlib" in f for f in frames):
        return "imports"
    if "rbcl" in leaf or "crypto/group.py" in leaf or "crypto/sodium.py" in leaf:  # the binding since issue 35
        return "group operations"
    if "verify_signature" in leaf or "Identity.sign" in leaf or "ed25519" in leaf:
        return "ed25519"
    if any("_worker (concurrent" in f for f in frames):
        return "writer thread (fsync)"
    if "_datasync" in leaf:  # the outbox's fsync on the loop's thread (issue 36)
        return "fsync"
    if "EpollSelector.select" in leaf:  # the loop waiting (counted when the peer waits for a CPU)
        return "event loop wait"
    return "rest"


def tally(folder: Path, top: int) -> dict[str, object]:
    """Shares by category, and the rest's heaviest frames (self and inclusive)."""
    shares: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for path in sorted(folder.glob("*.spy")):
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            n = int(count)
            total += n
            frames = [_FRAME.sub(r" (\2)", f) for f in stack.split(";")]
            kind = category(frames)
            shares[kind] += n
            if kind == "rest":
                own[frames[-1]] += n
                for f in set(frames):
                    inclusive[f] += n

    def pct(c: collections.Counter[str], k: int) -> dict[str, float]:
        return {name: round(100 * v / total, 1) for name, v in c.most_common(k)} if total else {}

    return {"samples": total, "shares_pct": pct(shares, 10), "rest_self_pct": pct(own, top),
            "rest_inclusive_pct": pct(inclusive, top)}


def peers(run: TableRun, units: dict[str, float]) -> list[dict[str, object]]:
    """Each peer's own CPU split into its imports (to "ready"), its table (to the end of the
    command) and the interpreter's teardown after it, its own floor (its counted operations at
    `units`), and its memory: peak RSS over its life, RSS after the imports and at the end (anonymous
    and file-backed kB from /proc/self/status), and with tracemalloc the Python heap after the
    imports, at its high-water mark during the table and after the command, by allocating
    package and line."""
    out = []
    for k, cpu in enumerate(run.peer_cpu):
        ph = run.peer_phases[k] if k < len(run.peer_phases) else {}
        ready, end = ph.get("ready", {}), ph.get("end", {})
        ops = run.peer_ops[k] if k < len(run.peer_ops) else {}
        row: dict[str, object] = {"cpu": cpu, "rss_peak_mb": run.peer_rss_mb[k],
                                  "floor": floor_seconds(ops, units), "ready": ready, "end": end}
        if "cpu" in ready and "cpu" in end:
            row |= {"cpu_imports": ready["cpu"], "cpu_table": round(end["cpu"] - ready["cpu"], 3),
                    "cpu_teardown": round(cpu - end["cpu"], 3)}
        if "tracemalloc" in ph:
            row["tracemalloc_ready"], row["tracemalloc_end"] = ph["tracemalloc_ready"], ph["tracemalloc"]
            row["tracemalloc_high"] = ph.get("tracemalloc_high")  # the table at its largest
        out.append(row)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--py-spy", type=Path, default=None, help="without it: no samples")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="more environment for every peer (e.g. MALLOC_ARENA_MAX=2)")
    ap.add_argument("--tracemalloc", action="store_true",
                    help="each peer traces its Python heap (P2PTAROT_TRACEMALLOC): the blocks "
                         "still held when its table is done, by package; slows every peer")
    ap.add_argument("--game", default="sinople")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    compile_bytecode(HERE)
    folder = Path(tempfile.mkdtemp(prefix="p2ptarot-spy-"))
    if args.py_spy:
        os.environ["P2PTAROT_PYSPY"] = f"{args.py_spy.resolve()}:{folder}"
    if args.tracemalloc:
        os.environ["P2PTAROT_TRACEMALLOC"] = "1"
    load = round(os.getloadavg()[0], 2)
    env = dict(kv.split("=", 1) for kv in args.env)
    run = run_table(HERE, args.game, args.players, seed=args.seed, env=env)
    if any(r != "finished" for r in run.results):
        raise SystemExit(f"the game did not finish: {run.results}")
    deadline = time.monotonic() + 30  # each py-spy writes its file once its peer has exited
    files = args.players + forks_its_peers(HERE)  # and the launcher's, which did the imports
    while (args.py_spy and len(list(folder.glob("*.spy"))) < files
           and time.monotonic() < deadline):
        time.sleep(0.2)
    units = unit_costs(HERE)
    floor = floor_seconds(run.ops, units)
    result = {"benchmark": "profile_peers", "game": args.game, "players": args.players,
              "cpu": run.cpu, "wall": run.end, "steps": run.steps, "floor": floor, "load1": load,
              "tracemalloc": args.tracemalloc, "env": env, "peers": peers(run, units),
              "note": "py-spy on-CPU samples of every peer (a process waiting for a CPU counts)",
              **(tally(folder, args.top) if args.py_spy else {})}
    shutil.rmtree(folder, ignore_errors=True)  # the samples are tallied: nothing left in TMPDIR
    text = json.dumps(result, sort_keys=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
