"""`p2ptarot simulate`: local omniscient games between bots, with outcomes and throughput.

Determinism: game i's dealer and each seat's bot get generators seeded from (seed, i, seat), so
the same seed gives the same outcomes whatever the number of games run before or after.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from p2ptarot import bots
from p2ptarot.engine import BadConfiguration, RandomDealer, create, info, play
from p2ptarot.i18n import _

from .errors import check_table, usage_error


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = subparsers.add_parser("simulate", help=_("play local games between bots"))
    p.add_argument("--game", default="sinople", help=_("game name (see `p2ptarot games`)"))
    p.add_argument("--variant", default=None, help=_("variant of the game, if it has any"))
    p.add_argument("--players", type=int, default=4, help=_("number of seats"))
    p.add_argument("--games", type=int, default=1, help=_("number of games to play"))
    p.add_argument("--seed", type=int, default=0, help=_("seed of every generator used"))
    p.add_argument("--bots", default="random",
                   help=f"one bot for every seat, or one per seat, comma-separated ({', '.join(sorted(bots.BOTS))})")
    p.add_argument("--json", action="store_true", help=_("print one JSON object instead of text"))
    p.set_defaults(run=run, prog=p.prog)
    return p


def _seat_bots(args: argparse.Namespace) -> list[str] | str:
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(names) == 1:
        names *= args.players
    if len(names) != args.players:
        return f"--bots names {len(names)} bots for {args.players} players (give one, or one per seat)"
    unknown = sorted(set(names) - set(bots.BOTS))
    if unknown:
        return f"unknown bot {unknown[0]!r} (known: {', '.join(sorted(bots.BOTS))})"
    return names


def play_one(game: str, players: int, variant: str | None, seat_bots: list[str], seed: int,
             index: int) -> dict[str, Any]:
    """Play game number `index` of a run; returns its winners and scores."""
    state = create(game, players, variant)
    agents = [bots.make(name, f"{seed}:{index}:{seat}") for seat, name in enumerate(seat_bots)]
    outcome = play(state, agents, RandomDealer(random.Random(f"{seed}:{index}:dealer")))
    return {"winners": list(outcome.winners), "scores": list(outcome.scores)}


def run(args: argparse.Namespace) -> int:
    bad = check_table(args, args.game, args.players, args.variant)
    if bad is not None:
        return bad
    gi = info(args.game)
    if args.games < 1:
        return usage_error(args, f"--games must be at least 1, not {args.games}")
    seat_bots = _seat_bots(args)
    if isinstance(seat_bots, str):
        return usage_error(args, seat_bots)
    try:
        create(args.game, args.players, args.variant)
    except BadConfiguration as exc:
        return usage_error(args, str(exc))

    progress = args.games >= 50 and (not args.json or sys.stderr.isatty())
    step = max(1, args.games // 10)
    results = []
    wins = [0] * args.players
    start = time.perf_counter()
    for i in range(args.games):
        result = play_one(args.game, args.players, args.variant, seat_bots, args.seed, i)
        results.append(result)
        for w in result["winners"]:
            wins[w] += 1
        if not args.json:
            winners = ",".join(f"P{w + 1}" for w in result["winners"])
            print(_("game {n}: winners {winners}  scores {scores}").format(
                n=i + 1, winners=winners, scores=" ".join(map(str, result["scores"]))))
        if progress and (i + 1) % step == 0:
            print(f"[{i + 1}/{args.games}]", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    rate = args.games / elapsed if elapsed > 0 else float("inf")
    if args.json:
        print(json.dumps({"game": gi.name, "variant": args.variant, "players": args.players,
                          "games": args.games, "seed": args.seed, "bots": seat_bots,
                          "results": results, "wins": wins, "games_per_second": round(rate, 1)},
                         sort_keys=True))
    else:
        summary = "  ".join(f"P{s + 1} ({seat_bots[s]}) {wins[s]}" for s in range(args.players))
        print(_("wins: {summary}").format(summary=summary))
        print(_("{n} games in {seconds} s: {rate} games/s").format(
            n=args.games, seconds=f"{elapsed:.2f}", rate=f"{rate:.1f}"))
    return 0
