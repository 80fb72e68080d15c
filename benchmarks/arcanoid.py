"""arcanoïd (DRESDEN) engine throughput: complete 5-round games between random bots, one core.

Usage: python benchmarks/arcanoid.py [--json] [--games N] [--runs R] [--players P]
Reports the median games per second over R runs of N games (omniscient local play: chance from
a seeded generator, no crypto), the moves per second it implies, and the average number of moves
and renewal votes per game.
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


def one_run(games: int, players: int, seed: int) -> tuple[float, int, int]:
    moves = 0
    votes = 0

    def count(_state, _seat, move) -> None:
        nonlocal moves, votes
        moves += 1
        votes += move.KIND == "vote"

    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        play(create("arcanoid", players), [RandomBot(rng) for _ in range(players)],
             RandomDealer(rng), on_move=count)
    return time.perf_counter() - start, moves, votes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    one_run(5, args.players, -1)  # warm-up
    rates, move_rates, per_game = [], [], []
    for run in range(args.runs):
        elapsed, moves, _votes = one_run(args.games, args.players, run)
        rates.append(args.games / elapsed)
        move_rates.append(moves / elapsed)
        per_game.append(moves / args.games)
    result = {
        "benchmark": "arcanoid-random-bots", "variant": "DRESDEN", "players": args.players,
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
        print(f"arcanoid, {args.players} players, random bots: "
              f"{result['games_per_second_median']} games/s (median of {args.runs} x {args.games}), "
              f"{result['moves_per_second_median']} moves/s")


if __name__ == "__main__":
    main()
