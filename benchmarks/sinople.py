"""Sinople engine throughput: complete 4-player games between random bots, one core.

Usage: python benchmarks/sinople.py [--json] [--games N] [--runs R]
Reports the median games per second over R runs of N games (omniscient local play: chance from
a seeded generator, no crypto), plus the moves per second it implies.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from p2ptarot.bots import RandomBot
from p2ptarot.engine import RandomDealer, create, play


def one_run(games: int, players: int, seed: int) -> tuple[float, int]:
    moves = 0

    def count(_state, _seat, _move) -> None:
        nonlocal moves
        moves += 1

    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        play(create("sinople", players), [RandomBot(rng) for _ in range(players)], RandomDealer(rng),
             on_move=count)
    return time.perf_counter() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    one_run(20, args.players, -1)  # warm-up
    rates, move_rates = [], []
    for run in range(args.runs):
        elapsed, moves = one_run(args.games, args.players, run)
        rates.append(args.games / elapsed)
        move_rates.append(moves / elapsed)
    result = {
        "benchmark": "sinople-random-bots", "players": args.players, "games_per_run": args.games,
        "runs": args.runs, "games_per_second_median": round(statistics.median(rates), 1),
        "games_per_second_runs": [round(r, 1) for r in rates],
        "moves_per_second_median": round(statistics.median(move_rates)),
        "python": platform.python_version(), "machine": platform.machine(),
    }
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"sinople, {args.players} players, random bots: "
              f"{result['games_per_second_median']} games/s (median of {args.runs} x {args.games}), "
              f"{result['moves_per_second_median']} moves/s")


if __name__ == "__main__":
    main()
