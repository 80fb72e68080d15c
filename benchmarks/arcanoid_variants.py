"""arcanoïd variants: `p2ptarot simulate` throughput for every playable variant and player count.

Usage: python benchmarks/arcanoid_variants.py [--games N] [--players 2,4,10] [--variants A,B]
Runs the simulator's own loop (heuristic bots, seeded) for each (variant, players) and prints one
JSON object: games per second and the number of games that raised (must be 0).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from p2ptarot.bots import make as make_bot
from p2ptarot.engine import RandomDealer, create, info, play


def run(variant: str, players: int, games: int, seed: int) -> dict:
    errors = 0
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        bots = [make_bot("heuristic", seed * 100 + g * 10 + k) for k in range(players)]
        try:
            state = create("arcanoid", players, variant)
            play(state, bots, RandomDealer(rng))
            if state.outcome() is None:
                errors += 1
        except Exception:  # noqa: BLE001 — counted and reported, never hidden
            errors += 1
    elapsed = time.perf_counter() - start
    return {"variant": variant, "players": players, "games": games, "errors": errors,
            "games_per_second": round(games / elapsed, 2) if elapsed else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", default="2,4,10")
    parser.add_argument("--variants", default="")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    variants = args.variants.split(",") if args.variants else list(info("arcanoid").playable_variants())
    rows = [run(v, int(p), args.games, args.seed) for v in variants for p in args.players.split(",")]
    print(json.dumps({"benchmark": "arcanoid_variants", "python": platform.python_version(),
                      "results": rows}, indent=1))


if __name__ == "__main__":
    main()
