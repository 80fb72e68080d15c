"""A whole game on a hostile LAN against the same game on a clean one (issue 21 item 2).

Four hosts, each in its own network namespace on its own card of one switch (tests/support/
netns_rig.py). The host advertises over zeroconf, the others join by fingerprint, all bots. The
clean run plays as is. The chaos run adds, at once:

- loss: nftables drops `--loss` % of the packets arriving on every card (`numgen random`): a
  packet between two hosts crosses one such filter;
- delay and stalls: every TCP connection between hosts goes through a fault-injecting proxy in
  the dialler's namespace (an nftables `redirect` of locally made TCP to the LAN; the proxy finds
  the real destination with SO_ORIGINAL_DST and dials it with a socket mark the redirect skips).
  Each chunk is held `--delay` ± `--jitter` ms in each direction, order kept; at random moments
  (mean `--stall-every` s) a direction of a connection stalls for `--stall` s;
- flapping: every `--flap-every` s the switch port of `--flap-host` goes down for `--flap-down` s.

This kernel has no `netem` qdisc, hence the proxy. Reported: wall time from the host's start to
the last peer's exit, whether every peer finished, agreed and verified, the number of steps, and
the ratio chaos/clean. Needs root. Usage:

    sudo .venv/bin/python benchmarks/chaos.py [--game sinople --seats 4] [--runs 1]
        [--out benchmarks/results/chaos.json]

`chaos.py proxy ...` is the proxy itself (started by the benchmark inside each namespace).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
SO_ORIGINAL_DST = 80  # <linux/netfilter_ipv4.h>
PROXY_PORT = 15001
PROXY_MARK = 0x2A  # the proxy's own connections: not redirected again


# ---- the fault-injecting TCP proxy (runs inside a namespace) ------------------------------------
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


# ---- the benchmark ---------------------------------------------------------------------------
def _git_commit() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return done.stdout.strip()


def _install_chaos(hosts: list, subnet: str, args: argparse.Namespace) -> list[subprocess.Popen]:
    proxies = []
    for k, host in enumerate(hosts):
        host.link.loss(args.loss)
        host.nft("table ip p2t_proxy {\n"
                 "  chain out { type nat hook output priority -100;\n"
                 f"    ip daddr {subnet} ip daddr != {host.address} meta mark != {PROXY_MARK} "
                 f"meta l4proto tcp redirect to :{PROXY_PORT}\n  }}\n}}\n")
        proc = host.popen([sys.executable, __file__, "proxy", "--port", str(PROXY_PORT),
                           "--delay", str(args.delay), "--jitter", str(args.jitter),
                           "--stall-every", str(args.stall_every), "--stall", str(args.stall),
                           "--seed", str(args.seed * 100 + k)],
                          stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the proxy in {host.label} did not start")
        proxies.append(proc)
    return proxies


def _flapper(link, every: float, down: float, done: threading.Event, log: list[float]) -> None:
    start = time.monotonic()
    while not done.wait(max(0.0, every - down)):
        link.down()
        log.append(round(time.monotonic() - start, 1))
        done.wait(down)
        link.up()


def play(args: argparse.Namespace, chaos: bool, work: Path, run: int) -> dict:
    from netns_rig import open_rig

    from p2ptarot.net.store import DataDir, read_transcript
    from p2ptarot.transcript import verify_transcript

    work.mkdir(parents=True, exist_ok=True)
    with open_rig() as rig:
        segment, hosts = rig.lan(args.seats)
        proxies = _install_chaos(hosts, str(segment.subnet), args) if chaos else []
        common = ["--bot", "random", "--quiet", "--timeout", str(args.timeout),
                  "--lobby-timeout", "600"]
        dirs = {h.label: work / h.label for h in hosts}
        logs = {h.label: work / f"{h.label}.log" for h in hosts}
        host_fp = DataDir(dirs[hosts[0].label]).identity().fingerprint
        flaps: list[float] = []
        done = threading.Event()
        started = time.monotonic()
        procs = {hosts[0].label: hosts[0].popen(
            CLI + ["host", "--game", args.game, "--seats", str(args.seats), "--seed", str(run),
                   "--interface", hosts[0].card, "--data-dir", str(dirs[hosts[0].label])] + common,
            stdout=open(logs[hosts[0].label], "w"), stderr=subprocess.STDOUT, cwd=ROOT)}
        for h in hosts[1:]:
            procs[h.label] = h.popen(
                CLI + ["join", host_fp, "--game", args.game, "--seed", str(run),
                       "--find-timeout", "120", "--interface", h.card,
                       "--data-dir", str(dirs[h.label])] + common,
                stdout=open(logs[h.label], "w"), stderr=subprocess.STDOUT, cwd=ROOT)
        flapper = None
        if chaos and args.flap_every > 0:
            victim = next(h for h in hosts if h.label == args.flap_host)
            flapper = threading.Thread(target=_flapper, args=(victim.link, args.flap_every,
                                                                 args.flap_down, done, flaps))
            flapper.start()
        codes = {}
        try:
            for label, proc in procs.items():
                try:
                    codes[label] = proc.wait(timeout=max(1.0, args.limit - (time.monotonic() - started)))
                except subprocess.TimeoutExpired:
                    codes[label] = None
        finally:
            done.set()
            if flapper is not None:
                flapper.join()
        wall = time.monotonic() - started
        proxy_stats = []
        for proc in proxies:
            proc.terminate()
            out, _ = proc.communicate(timeout=30)
            lines = [ln for ln in out.splitlines() if ln.startswith("{")]
            proxy_stats.append(json.loads(lines[-1]) if lines else {})
    results, verified, steps, seats = {}, {}, {}, {}
    for label in procs:
        lines = logs[label].read_text().strip().splitlines()
        try:
            results[label] = json.loads(lines[-1])
        except (IndexError, ValueError):
            results[label] = {"result": "no result", "log_tail": lines[-5:]}
        path = results[label].get("transcript")
        if path and Path(path).exists():
            transcript = read_transcript(Path(path))
            verdict = verify_transcript(transcript)
            verified[label] = bool(verdict.valid)
            steps[label] = len(Path(path).read_bytes().splitlines())
            seats[label] = transcript.charter.charter.seat_of(
                DataDir(dirs[label]).identity().public_bytes)
            if not verdict.valid:
                results[label]["verify"] = verdict.reason
    finished = all(r.get("result") == "finished" for r in results.values())
    agree = len({json.dumps(r.get("scores")) for r in results.values()}) == 1
    return {
        "network": "chaos" if chaos else "clean",
        "wall_seconds": round(wall, 2),
        "completed": finished and all(c == 0 for c in codes.values()),
        "all_verified": len(verified) == len(procs) and all(verified.values()),
        "all_peers_agree": agree and finished,
        "transcript_lines": max(steps.values()) if steps else 0,
        "seat_of_host": seats,
        "exit_codes": codes,
        "outcomes": {k: {f: v for f, v in r.items() if f in ("result", "scores", "blame",
                                                              "reason", "verify", "log_tail")}
                     for k, r in results.items()},
        **({"flaps_at_seconds": flaps,
            "proxy": {key: sum(s.get(key, 0) for s in proxy_stats)
                      for key in ("connections", "bytes", "chunks", "stalls", "errors")}}
           if chaos else {}),
    }


def bench(args: argparse.Namespace) -> int:
    if os.geteuid() != 0:
        print("chaos.py needs root (network namespaces)", file=sys.stderr)
        return 2
    import tempfile

    runs: dict[str, list[dict]] = {"clean": [], "chaos": []}
    with tempfile.TemporaryDirectory(prefix="p2ptarot-chaos-") as tmp:
        for run in range(1, args.runs + 1):
            for chaos in (False, True):
                kind = "chaos" if chaos else "clean"
                result = play(args, chaos, Path(tmp) / f"{kind}-{run}", run)
                runs[kind].append(result)
                print(f"run {run} {kind}: {result['wall_seconds']} s, completed "
                      f"{result['completed']}, verified {result['all_verified']}",
                      file=sys.stderr, flush=True)

    def median(kind: str, key: str) -> float | None:
        values = [r[key] for r in runs[kind] if r["completed"]]
        return round(statistics.median(values), 2) if values else None

    clean, chaos = median("clean", "wall_seconds"), median("chaos", "wall_seconds")
    report = {
        "benchmark": "chaos", "commit": _git_commit(), "game": args.game, "seats": args.seats,
        "runs": args.runs,
        "faults": {"loss_percent_per_card_inbound": args.loss, "delay_ms": args.delay,
                   "jitter_ms": args.jitter, "stall_every_s_mean": args.stall_every,
                   "stall_s": args.stall, "flap_every_s": args.flap_every,
                   "flap_down_s": args.flap_down, "flap_host": args.flap_host,
                   "silence_timeout_s": args.timeout},
        "clean_wall_seconds_median": clean, "chaos_wall_seconds_median": chaos,
        "chaos_over_clean": round(chaos / clean, 2) if clean and chaos else None,
        "chaos_completed": sum(r["completed"] for r in runs["chaos"]),
        "chaos_verified": sum(r["all_verified"] for r in runs["chaos"]),
        "runs_detail": runs,
    }
    text = json.dumps(report, sort_keys=True, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0 if report["chaos_completed"] == args.runs else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    px = sub.add_parser("proxy", help="the fault-injecting proxy (inside a namespace)")
    for p in (ap, px):
        p.add_argument("--delay", type=float, default=200.0, help="ms each chunk is held")
        p.add_argument("--jitter", type=float, default=50.0, help="± ms around --delay")
        p.add_argument("--stall-every", type=float, default=30.0,
                       help="mean seconds between stalls of a connection's direction (0: none)")
        p.add_argument("--stall", type=float, default=3.0, help="seconds a stall lasts")
        p.add_argument("--seed", type=int, default=1)
    px.add_argument("--port", type=int, default=PROXY_PORT)
    ap.add_argument("--game", default="sinople")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--loss", type=int, default=5, help="%% of inbound packets dropped per card")
    ap.add_argument("--flap-every", type=float, default=20.0)
    ap.add_argument("--flap-down", type=float, default=10.0,
                    help="seconds the port stays down: longer than the websocket heartbeat's "
                         "7.5 s pong wait, so links do break (5 s: TCP rides it out)")
    ap.add_argument("--flap-host", default="h3", help="whose switch port flaps (h1 hosts)")
    ap.add_argument("--timeout", type=int, default=120, help="the peers' --timeout")
    ap.add_argument("--limit", type=float, default=1800.0, help="seconds before a run is given up")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.cmd == "proxy":
        asyncio.run(run_proxy(args))
        return 0
    return bench(args)


if __name__ == "__main__":
    raise SystemExit(main())
