"""The lobby on 127.0.0.1, in one event loop: a host and N-1 joiners that sit down not ready.
Measures (1) from a joiner's arrival to every seated hub showing the new roster, and (2) from the
last Ready to the table opened (charter proposed, signed by every seat, `signed` received) at
every seat. Medians of a few runs, JSON on stdout (and in --out).

Usage: python benchmarks/lobby.py [--seats 2 4 6] [--runs 3] [--out benchmarks/results/lobby.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from p2ptarot.app.events import LobbyState, Ready, TableOpened
from p2ptarot.app.table import Hub
from p2ptarot.bots import make as make_bot
from p2ptarot.peer.config import PeerConfig
from p2ptarot.peer.run import bot_chooser, run_host, run_join


def _cfg(tmp: Path, name: str, hub: Hub) -> PeerConfig:
    return PeerConfig(data_dir=tmp / name, name=name, interface="127.0.0.1", timeout=60,
                      move_timeout=120, linger=0.2, lobby_timeout=60, hub=hub, ready=False)


async def _until(check, step: float = 0.001) -> None:
    async with asyncio.timeout(60):
        while not check():
            await asyncio.sleep(step)


def _seen(hub: Hub, count: int) -> bool:
    return any(isinstance(e, LobbyState) and len(e.names) == count for e in hub.history)


async def one_run(seats: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        hubs = [Hub() for _ in range(seats)]
        listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        tasks = [asyncio.create_task(run_host(_cfg(tmp, "p0", hubs[0]), "sinople", None, seats,
                                              bot_chooser(make_bot("random", 0)),
                                              on_listening=listening.set_result))]
        roster: list[float] = []
        try:
            url = await listening
            for k in range(1, seats):
                t0 = time.perf_counter()
                tasks.append(asyncio.create_task(run_join(_cfg(tmp, f"p{k}", hubs[k]), url, None,
                                                          bot_chooser(make_bot("random", k)))))
                await _until(lambda: all(_seen(h, k + 1) for h in hubs[:k + 1]))
                roster.append(time.perf_counter() - t0)
            for hub in hubs[:-1]:
                hub.send(Ready(True))
            await _until(lambda: all(e.ready == (True,) * (seats - 1) + (False,)
                                     for e in [h.history[-1] for h in hubs]
                                     if isinstance(e, LobbyState)))
            t0 = time.perf_counter()
            hubs[-1].send(Ready(True))
            await _until(lambda: all(any(isinstance(e, TableOpened) for e in h.history) for h in hubs))
            start = time.perf_counter() - t0
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return {"roster_s": statistics.median(roster), "last_ready_to_table_s": start}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    out = {}
    for seats in args.seats:
        runs = [asyncio.run(one_run(seats)) for _ in range(args.runs)]
        out[str(seats)] = {k: round(statistics.median(r[k] for r in runs), 4) for k in runs[0]}
    text = json.dumps({"benchmark": "lobby", "runs": args.runs, "seats": out}, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
