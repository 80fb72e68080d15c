"""Eleusis throughput: ERL compilation and judgment, and complete games between bots, one core.

Usage: python benchmarks/eleusis.py [--json] [--games N] [--players P]
Reports ERL rules compiled per second (the library), candidates judged per second (every library
rule on random lines), and games per second for random and heuristic bots (omniscient local play:
chance from a seeded generator, no crypto; one round per participant).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from p2ptarot.bots import make
from p2ptarot.engine import RandomDealer, create, play
from p2ptarot.games.eleusis.erl import compile_rule
from p2ptarot.games.eleusis.library import LIBRARY


def erl_rates(repeat: int) -> tuple[float, float]:
    start = time.perf_counter()
    for _ in range(repeat):
        rules = [compile_rule(r.text) for r in LIBRARY]
    compiled = repeat * len(LIBRARY) / (time.perf_counter() - start)
    rng = random.Random(0)
    lines = [[(rng.randint(1, 13), rng.randint(1, 4)) for _ in range(rng.randint(1, 6))]
             for _ in range(200)]
    cards = [(rng.randint(1, 13), rng.randint(1, 4)) for _ in range(200)]
    start = time.perf_counter()
    for rule in rules:
        for line, card in zip(lines, cards):
            rule.accepts(line, card)
    judged = len(rules) * len(lines) / (time.perf_counter() - start)
    return compiled, judged


def games_rate(bot: str, games: int, players: int) -> float:
    start = time.perf_counter()
    for g in range(games):
        play(create("eleusis", players), [make(bot, f"{g}:{s}") for s in range(players)],
             RandomDealer(random.Random(g)))
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    compiled, judged = erl_rates(20)
    result = {
        "benchmark": "eleusis", "players": args.players, "games": args.games,
        "erl_rules_compiled_per_second": round(compiled), "erl_judgments_per_second": round(judged),
        "random_games_per_second": round(games_rate("random", args.games, args.players), 2),
        "heuristic_games_per_second": round(games_rate("heuristic", args.games, args.players), 2),
        "python": platform.python_version(), "machine": platform.machine(),
    }
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
