"""A fault-injecting TCP proxy for namespace networks: delay with jitter, and stalls.

This kernel has no `netem` qdisc, so delay is added here. `install(host, subnet, ...)` puts an
nftables `redirect` in a rig host's namespace that sends every TCP connection the host makes to
`subnet` (except to itself) to this proxy on 127.0.0.1 in the same namespace; the proxy reads
the real destination (SO_ORIGINAL_DST) and dials it with a socket mark the redirect skips. Each
chunk read is delivered `delay ± jitter` later, in order, in each direction; at random moments
(exponential, mean `stall_every` s) a direction stalls for `stall` s. On SIGTERM the proxy
prints its counters as one JSON line. A connection's two sides each cross one proxy only: the
dialler's.

    python tests/support/chaos_proxy.py --port 15001 --delay 200 --jitter 50 --stall-every 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import socket
import struct
import subprocess
import sys
from pathlib import Path

SO_ORIGINAL_DST = 80  # <linux/netfilter_ipv4.h>
PROXY_PORT = 15001
PROXY_MARK = 0x2A  # the proxy's own connections: not redirected again


class Faults:
    def __init__(self, delay: float, jitter: float, stall_every: float, stall: float,
                 seed: int) -> None:
        self.delay, self.jitter, self.stall_every, self.stall = delay, jitter, stall_every, stall
        self.rng = random.Random(seed)
        self.stats = {"connections": 0, "bytes": 0, "chunks": 0, "stalls": 0, "errors": 0}

    def hold(self) -> float:
        return max(0.0, self.rng.uniform(self.delay - self.jitter, self.delay + self.jitter))

    def next_stall(self) -> float:
        return self.rng.expovariate(1 / self.stall_every) if self.stall_every > 0 else float("inf")


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, faults: Faults) -> None:
    """Copy one direction, each chunk delivered `hold()` after it was read, in order, with
    stalls; EOF is passed on after the data before it."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def read() -> None:
        last = 0.0
        while True:
            data = await reader.read(65536)
            last = max(last, loop.time() + faults.hold())
            await queue.put((last, data))
            if not data:
                return

    async def write() -> None:
        stall_at = loop.time() + faults.next_stall()
        while True:
            due, data = await queue.get()
            now = loop.time()
            if now >= stall_at:
                faults.stats["stalls"] += 1
                await asyncio.sleep(faults.stall)
                stall_at = loop.time() + faults.next_stall()
            if due > loop.time():
                await asyncio.sleep(due - loop.time())
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            faults.stats["bytes"] += len(data)
            faults.stats["chunks"] += 1
            await writer.drain()

    tasks = [asyncio.ensure_future(read()), asyncio.ensure_future(write())]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()


async def _serve_one(faults: Faults, c_reader: asyncio.StreamReader,
                     c_writer: asyncio.StreamWriter) -> None:
    sock = c_writer.get_extra_info("socket")
    raw = sock.getsockopt(socket.SOL_IP, SO_ORIGINAL_DST, 16)
    port, packed = struct.unpack_from("!H4s", raw, 2)
    target = socket.inet_ntoa(packed)
    faults.stats["connections"] += 1
    upstream = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    upstream.setsockopt(socket.SOL_SOCKET, socket.SO_MARK, PROXY_MARK)
    upstream.setblocking(False)
    try:
        await asyncio.get_running_loop().sock_connect(upstream, (target, port))
        u_reader, u_writer = await asyncio.open_connection(sock=upstream)
    except OSError:
        faults.stats["errors"] += 1
        upstream.close()
        c_writer.close()
        return
    try:
        await asyncio.gather(_pipe(c_reader, u_writer, faults), _pipe(u_reader, c_writer, faults))
    except (OSError, asyncio.IncompleteReadError):
        faults.stats["errors"] += 1
    except asyncio.CancelledError:  # the proxy is stopping: the connection just ends
        pass
    finally:
        for w in (c_writer, u_writer):
            w.close()


async def run_proxy(args: argparse.Namespace) -> None:
    faults = Faults(args.delay / 1000, args.jitter / 1000, args.stall_every, args.stall, args.seed)
    server = await asyncio.start_server(lambda r, w: _serve_one(faults, r, w), "127.0.0.1",
                                        args.port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    async with server:
        await stop.wait()
    print(json.dumps(faults.stats), flush=True)


def install(host, subnet: str, *, delay: float = 200.0, jitter: float = 50.0,
            stall_every: float = 30.0, stall: float = 3.0, seed: int = 1,
            port: int = PROXY_PORT) -> subprocess.Popen:
    """Route `host`'s TCP connections to `subnet` through a proxy started in its namespace
    (a `netns_rig.Host`; delays in ms, stalls in s). Returns the proxy, already listening."""
    host.nft("table ip p2t_proxy {}\ndelete table ip p2t_proxy\n"
             "table ip p2t_proxy {\n"
             "  chain out { type nat hook output priority -100;\n"
             f"    ip daddr {subnet} ip daddr != {host.address} meta mark != {PROXY_MARK} "
             f"meta l4proto tcp redirect to :{port}\n  }}\n}}\n")
    proc = host.popen([sys.executable, str(Path(__file__).resolve()), "--port", str(port),
                       "--delay", str(delay), "--jitter", str(jitter),
                       "--stall-every", str(stall_every), "--stall", str(stall),
                       "--seed", str(seed)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError(f"the proxy in {host.name} did not start")
    return proc


def stop(proc: subprocess.Popen) -> dict:
    """End a proxy started by `install` and return its counters."""
    proc.terminate()
    out, _ = proc.communicate(timeout=30)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=PROXY_PORT)
    ap.add_argument("--delay", type=float, default=200.0, help="ms each chunk is held")
    ap.add_argument("--jitter", type=float, default=50.0, help="± ms around --delay")
    ap.add_argument("--stall-every", type=float, default=30.0,
                    help="mean seconds between stalls of a connection's direction (0: none)")
    ap.add_argument("--stall", type=float, default=3.0, help="seconds a stall lasts")
    ap.add_argument("--seed", type=int, default=1)
    asyncio.run(run_proxy(ap.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
