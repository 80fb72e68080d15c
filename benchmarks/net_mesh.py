"""Benchmark of p2ptarot.net on 127.0.0.1: link setup, message latency/throughput, discovery.

Everything binds to 127.0.0.1 (sockets and zeroconf).  Loopback numbers are a floor for a LAN:
they measure our per-message overhead (JSON check, websocket framing, asyncio), not the wire.

Usage: python benchmarks/net_mesh.py [--runs 200] [--peers 12]   (prints one JSON object)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import sys
import time
from typing import Any

from p2ptarot.crypto.signing import Identity
from p2ptarot.net import Mesh, MeshConfig, Received, TableAdvertiser, TableBrowser, TableInfo

LOOPBACK = ["127.0.0.1"]


async def _started(**settings: Any) -> Mesh:
    mesh = Mesh(Identity.generate(), MeshConfig(host="127.0.0.1", port=0, **settings))
    await mesh.start()
    return mesh


async def _next_received(mesh: Mesh) -> Received:
    while True:
        event = await mesh.next_event()
        if isinstance(event, Received):
            return event


async def bench_connect(runs: int) -> dict[str, float]:
    a, b = await _started(), await _started()
    samples = []
    try:
        for _ in range(runs):
            t0 = time.perf_counter()
            await a.connect(b.url)  # each redial replaces the previous link
            samples.append((time.perf_counter() - t0) * 1e3)
    finally:
        await a.close()
        await b.close()
    return {"connect_handshake_ms_median": statistics.median(samples),
            "connect_handshake_ms_p90": statistics.quantiles(samples, n=10)[-1]}


async def bench_round_trip(runs: int, size: int) -> dict[str, float]:
    a, b = await _started(), await _started()
    await a.connect(b.url)
    payload = json.dumps({"pad": "x" * size}).encode()
    samples = []
    try:
        for _ in range(runs):
            t0 = time.perf_counter()
            await a.send(b.public_key, payload)
            await _next_received(b)
            await b.send(a.public_key, payload)
            await _next_received(a)
            samples.append((time.perf_counter() - t0) * 1e6)
    finally:
        await a.close()
        await b.close()
    return {f"round_trip_us_median_{size}B": statistics.median(samples)}


async def bench_broadcast(count: int, size: int, peers: int) -> dict[str, float]:
    hub = await _started()
    others = [await _started() for _ in range(peers)]
    for other in others:
        await hub.connect(other.url)
    payload = json.dumps({"pad": "x" * size}).encode()
    t0 = time.perf_counter()
    for _ in range(count):
        await hub.broadcast(payload)
    for other in others:
        for _ in range(count):
            await _next_received(other)
    elapsed = time.perf_counter() - t0
    for mesh in [hub, *others]:
        await mesh.close()
    return {f"broadcast_msgs_per_s_{size}B_to_{peers}": count / elapsed,
            f"broadcast_MiB_per_s_{size}B_to_{peers}": count * size * peers / elapsed / 2**20}


async def bench_full_mesh(peers: int) -> dict[str, float]:
    meshes = [await _started() for _ in range(peers)]
    t0 = time.perf_counter()
    await asyncio.gather(*(meshes[i].connect(meshes[j].url)
                           for i in range(peers) for j in range(i + 1, peers)))
    while not all(len(m.peers()) == peers - 1 for m in meshes):  # acceptors adopt last
        await asyncio.sleep(0.001)
    elapsed = time.perf_counter() - t0
    links = sum(len(m.peers()) for m in meshes) // 2
    for mesh in meshes:
        await mesh.close()
    return {f"full_mesh_{peers}_peers_ms": elapsed * 1e3, f"full_mesh_{peers}_links": links}


async def bench_discovery() -> dict[str, float]:
    async with TableBrowser(interfaces=LOOPBACK) as browser:
        advertiser = TableAdvertiser(TableInfo("sinople", "", 1, 4, "AAAA-BBBB-CCCC-DDDD"), 40999,
                                     interfaces=LOOPBACK)
        t0 = time.perf_counter()
        await advertiser.start()
        registered = time.perf_counter()
        while True:
            change = await asyncio.wait_for(browser.next_change(), 15)
            if change.name == advertiser.name:
                break
        seen = time.perf_counter()
        await advertiser.update(seats_taken=2)
        while (await asyncio.wait_for(browser.next_change(), 15)).name != advertiser.name:
            pass
        updated = time.perf_counter()
        await advertiser.close()
        closed = time.perf_counter()
        while (await asyncio.wait_for(browser.next_change(), 15)).kind != "removed":
            pass
        removed = time.perf_counter()
    return {"zeroconf_register_ms": (registered - t0) * 1e3,
            "zeroconf_seen_after_register_ms": (seen - registered) * 1e3,
            "zeroconf_update_seen_ms": (updated - seen) * 1e3,
            "zeroconf_removed_after_close_ms": (removed - closed) * 1e3}


async def main_async(runs: int, peers: int) -> dict[str, Any]:
    result: dict[str, Any] = {
        "benchmark": "net_mesh",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
    }
    result.update(await bench_connect(runs // 4 or 1))
    result.update(await bench_round_trip(runs, 200))
    result.update(await bench_round_trip(max(runs // 10, 3), 1 << 20))
    result.update(await bench_broadcast(runs * 5, 1024, 3))
    result.update(await bench_full_mesh(peers))
    result.update(await bench_discovery())
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in result.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--peers", type=int, default=12)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main_async(args.runs, args.peers)), indent=2))


if __name__ == "__main__":
    main()
