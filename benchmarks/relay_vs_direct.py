"""Issue 31, item 8: a whole game over the relay path against the same game over direct links,
on the namespace rig of `online.py` (three homes, four seats, real `nostr-relay` with its own
4 KB cap and rate limit, and coturn): `direct` is cone NATs with STUN, `relay` the same homes
with UDP blocked at the routers, so every link between homes rides the relays (the two seats of
the first home share a LAN link in both).  Runs alternate between the two paths; the JSON holds
every sample, the medians, the ratio relay/direct (target: at most 2) and the load average
before and after.

Usage: sudo .venv/bin/python benchmarks/relay_vs_direct.py [--game paris-divins] [--runs 3]
       [--out benchmarks/results/issue31/relay_vs_direct.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from online import run_once  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="paris-divins")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=Path(__file__).parent).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True,
                                cwd=Path(__file__).parent).stdout.strip())
    load_before = os.getloadavg()
    samples: dict[str, list[dict[str, object]]] = {"direct": [], "relay": []}
    for i in range(args.runs):  # alternate, so a busier minute weighs on both paths alike
        for scenario in ("direct", "relay"):
            started = time.time()
            row = run_once(scenario, args.game, 1 + 10 * i)
            row["load_1min"] = os.getloadavg()[0]
            row["wall"] = round(time.time() - started, 2)
            samples[scenario].append(row)
            print(json.dumps({scenario: row}), file=sys.stderr, flush=True)

    def median(scenario: str, key: str) -> float | None:
        values = [s[key] for s in samples[scenario] if s["ok"] and s[key] is not None]
        return round(statistics.median(values), 2) if values else None
    out: dict[str, object] = {
        "benchmark": "relay_vs_direct", "issue": 31, "commit": commit, "dirty": dirty,
        "game": args.game,
        "seats": 4, "runs": args.runs, "unit": "seconds", "cores": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "direct": {"game_median": median("direct", "game"),
                   "first_move_median": median("direct", "first_move"),
                   "failed_runs": sum(not s["ok"] for s in samples["direct"])},
        "relay": {"game_median": median("relay", "game"),
                  "first_move_median": median("relay", "first_move"),
                  "failed_runs": sum(not s["ok"] for s in samples["relay"])},
        "target_ratio": 2.0, "samples": samples}
    direct, relay = out["direct"]["game_median"], out["relay"]["game_median"]  # type: ignore[index]
    out["ratio"] = round(relay / direct, 2) if direct and relay else None
    text = json.dumps(out, indent=1)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
