"""Wall time of a full networked game on loopback and of verifying its transcript.

Runs `p2ptarot demo` (N peer processes, zeroconf on 127.0.0.1, websockets, mental poker) several
times and reports medians. Usage: python benchmarks/network_game.py [--game sinople] [--players 4]
[--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="sinople")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game_s, verify_s, steps = [], [], []
    for run in range(args.runs):
        proc = subprocess.run([sys.executable, "-m", "p2ptarot.cli.main", "demo", "--game", args.game,
                               "--players", str(args.players), "--interface", "127.0.0.1", "--json",
                               "--seed", str(run + 1)], capture_output=True, text=True, timeout=3600)
        if proc.returncode != 0:
            print(proc.stdout, proc.stderr, file=sys.stderr)
            return 1
        summary = json.loads(proc.stdout.strip().splitlines()[-1])
        game_s.append(summary["game_seconds"])
        verify_s.append(summary["verify_seconds"])
        steps.append(summary["steps"])
        if not args.json:
            print(f"run {run + 1}: game {summary['game_seconds']} s, verify {summary['verify_seconds']} s",
                  file=sys.stderr)
    result = {"benchmark": "network_game", "game": args.game, "players": args.players, "runs": args.runs,
              "game_wall_seconds_median": statistics.median(game_s),
              "verify_seconds_median": statistics.median(verify_s),
              "steps_median": statistics.median(steps), "game_wall_seconds": game_s,
              "verify_seconds": verify_s,
              "verify_to_game_ratio": round(statistics.median(verify_s) / statistics.median(game_s), 3)}
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
