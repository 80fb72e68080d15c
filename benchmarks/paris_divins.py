"""Paris divins: engine throughput, and the set-up time of a 12-player table under mental poker.

Usage: python benchmarks/paris_divins.py [--json] [--games N] [--players 12]

* engine: complete games between random bots (omniscient local play, no crypto), games per second
  at 2, 6 and 12 players.
* setup: `--players` sans-I/O table sessions wired in memory (real mental poker, signed messages;
  no sockets) play from the start until every seat is asked its first wager: the one shuffle of the
  96 cards by every seat and its verification by every other, then the private deal of 8 cards
  each. All seats run in this one process, so the per-seat figure is the total CPU time divided by
  the number of seats (each peer does about that much on its own machine).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections import deque

from p2ptarot.bots import RandomBot
from p2ptarot.crypto.signing import Identity
from p2ptarot.engine import RandomDealer, create, play
from p2ptarot.table.effects import Aborted, NeedMove, Send
from p2ptarot.table.lobby import make_charter, signed_locally
from p2ptarot.table.session import Session


def engine_rate(players: int, games: int) -> float:
    rng = random.Random(players)
    start = time.perf_counter()
    for _ in range(games):
        play(create("paris-divins", players), [RandomBot(rng) for _ in range(players)], RandomDealer(rng))
    return games / (time.perf_counter() - start)


def setup_time(players: int) -> dict[str, float]:
    """Wall and CPU seconds until every seat of an in-memory table must choose its first wager."""
    ids = [Identity.from_seed(bytes([7, k]) * 16) for k in range(players)]
    charter = make_charter("paris-divins", [(i.public_bytes, f"p{k}", "") for k, i in enumerate(ids)],
                           nonce=b"\x07" * 32)
    signed = signed_locally(charter, ids)
    sessions = [Session(signed, k, ids[k], bytes([7, k]) * 16) for k in range(players)]
    queue: deque[tuple[int, bytes]] = deque()
    asked: set[int] = set()
    messages = 0

    def handle(k: int, effects) -> None:
        for e in effects:
            if isinstance(e, Send):
                data = e.envelope.encoded()
                queue.extend((j, data) for j in range(players) if j != k)
            elif isinstance(e, NeedMove):
                asked.add(k)
            elif isinstance(e, Aborted):
                raise RuntimeError(f"seat {k} aborted: {e}")

    wall, cpu = time.perf_counter(), time.process_time()
    for k, s in enumerate(sessions):
        handle(k, s.start())
    while queue and len(asked) < players:
        j, data = queue.popleft()
        messages += 1
        handle(j, sessions[j].receive(data))
    if len(asked) < players:
        raise RuntimeError("the table stopped before every seat was asked to wager")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"players": players, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "cpu_per_seat_s": round(cpu / players, 3), "messages_delivered": messages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args()
    engine_rate(2, 20)  # warm-up
    rates = {n: round(engine_rate(n, args.games), 1) for n in (2, 6, 12)}
    setup = setup_time(args.players)
    result = {"benchmark": "paris_divins", "python": platform.python_version(),
              "engine_games_per_second": rates, "setup": setup}
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"engine: {', '.join(f'{n} players {r} games/s' for n, r in rates.items())}")
        print(f"setup of a {setup['players']}-player table (one shuffle of 96 cards per seat, verified by "
              f"every other seat, and the private deal): {setup['wall_s']} s wall, {setup['cpu_s']} s CPU "
              f"for all seats, {setup['cpu_per_seat_s']} s CPU per seat")


if __name__ == "__main__":
    main()
