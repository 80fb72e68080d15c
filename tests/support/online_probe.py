"""A one-link online peer for the namespace tests: `listen` prints its address and echoes
every frame back; `dial ADDRESS` links to it, sends three frames (the last one 200 KB, so it
is fragmented on every path), and prints the path, RTT and times as one JSON line.

Run inside a rig namespace: `python online_probe.py --relay ws://... [--ice URL ...] listen`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import LinkUp, Received
from p2ptarot.net.online.config import IceServer, OnlineConfig, parse_turn
from p2ptarot.net.online.mesh import OnlineMesh


def _config(args: argparse.Namespace) -> OnlineConfig:
    secret = open(args.turn_pass_file).read().strip() if args.turn_pass_file else None
    ice = [IceServer(u) for u in args.stun] + [parse_turn(u, args.turn_user, secret)
                                               for u in args.turn]
    return OnlineConfig(relays=tuple(args.relay), ice=tuple(ice), rtc_deadline=args.deadline,
                        rtc_head_start=args.head_start, transport=args.transport)


async def listen(mesh: OnlineMesh) -> None:
    print(json.dumps({"address": mesh.url}), flush=True)
    while True:
        event = await mesh.next_event()
        if isinstance(event, LinkUp):
            print(json.dumps({"up": event.address}), flush=True)
        if isinstance(event, Received):
            await mesh.send(event.peer, event.data)


async def dial(mesh: OnlineMesh, address: str) -> None:
    start = time.monotonic()
    peer = await mesh.connect(address)
    linked = time.monotonic() - start
    frames = [b'{"n":1}', b'{"n":2}', json.dumps({"n": 3, "pad": "x" * 200_000}).encode()]
    for frame in frames:
        await mesh.send(peer, frame)
    echoed = []
    while len(echoed) < len(frames):
        event = await mesh.next_event()
        if isinstance(event, Received):
            echoed.append(event.data)
    # one RTT sample at least: the link's first ping comes back within a ping interval (a data
    # channel pings as it opens, the relay path after 1 s), usually before the echoes are in
    bound = time.monotonic() + mesh.config.ping_interval * 3
    while mesh.paths()[peer][1] is None and time.monotonic() < bound:
        await asyncio.sleep(0.05)
    path, rtt = mesh.paths()[peer]
    print(json.dumps({"path": path, "rtt": rtt, "linked": linked, "udp_silent": mesh.udp_silent,
                      "echo_ok": echoed == frames, "total": time.monotonic() - start}),
          flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--relay", action="append", required=True)
    parser.add_argument("--stun", action="append", default=[])
    parser.add_argument("--turn", action="append", default=[], help="turn:host:port")
    parser.add_argument("--turn-user")
    parser.add_argument("--turn-pass-file", help="the TURN password (never in argv)")
    parser.add_argument("--deadline", type=float, default=15.0)
    parser.add_argument("--head-start", type=float, default=4.0)
    parser.add_argument("--transport", default="auto")
    parser.add_argument("mode", choices=("listen", "dial"))
    parser.add_argument("address", nargs="?")
    args = parser.parse_args()
    async with OnlineMesh(Identity.generate(), _config(args)) as mesh:
        if args.mode == "listen":
            await listen(mesh)
        else:
            await dial(mesh, args.address)


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
