"""Arcanum engine throughput: complete games between bots, one core.

Usage: python benchmarks/arcanum.py [--json] [--games N] [--runs R] [--players P] [--bot B]
Reports the median games per second over R runs of N games (omniscient local play: chance from
a seeded generator, no crypto), the moves per second it implies and the moves per game.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from p2ptarot.bots import make
from p2ptarot.engine import RandomDealer, create, play


def one_run(games: int, players: int, bot: str, seed: int) -> tuple[float, int]:
    moves = 0

    def count(_state, _seat, _move) -> None:
        nonlocal moves
        moves += 1

    start = time.perf_counter()
    for i in range(games):
        play(create("arcanum", players), [make(bot, f"{seed}:{i}:{s}") for s in range(players)],
             RandomDealer(random.Random(f"{seed}:{i}")), on_move=count)
    return time.perf_counter() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="random")
    args = parser.parse_args()
    one_run(3, args.players, args.bot, -1)  # warm-up
    rates, move_rates, per_game = [], [], []
    for run in range(args.runs):
        elapsed, moves = one_run(args.games, args.players, args.bot, run)
        rates.append(args.games / elapsed)
        move_rates.append(moves / elapsed)
        per_game.append(moves / args.games)
    result = {
        "benchmark": f"arcanum-{args.bot}-bots", "variant": "STANDARD", "players": args.players,
        "games_per_run": args.games, "runs": args.runs,
        "games_per_second_median": round(statistics.median(rates), 2),
        "games_per_second_runs": [round(r, 2) for r in rates],
        "moves_per_second_median": round(statistics.median(move_rates)),
        "moves_per_game_median": round(statistics.median(per_game)),
        "python": platform.python_version(), "machine": platform.machine(),
    }
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"arcanum, {args.players} players, {args.bot} bots: "
              f"{result['games_per_second_median']} games/s (median of {args.runs} x {args.games}), "
              f"{result['moves_per_second_median']} moves/s, {result['moves_per_game_median']} moves/game")


if __name__ == "__main__":
    main()
