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

The proxy is tests/support/chaos_proxy.py (the tests and the online-play rig use it too).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _git_commit() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return done.stdout.strip()


def _install_chaos(hosts: list, subnet: str, args: argparse.Namespace) -> list[subprocess.Popen]:
    import chaos_proxy

    proxies = []
    for k, host in enumerate(hosts):
        host.link.loss(args.loss)
        proxies.append(chaos_proxy.install(host, subnet, delay=args.delay, jitter=args.jitter,
                                           stall_every=args.stall_every, stall=args.stall,
                                           seed=args.seed * 100 + k))
    return proxies


def _flapper(link, every: float, down: float, done: threading.Event, log: list[float]) -> None:
    start = time.monotonic()
    while not done.wait(max(0.0, every - down)):
        link.down()
        log.append(round(time.monotonic() - start, 1))
        done.wait(down)
        link.up()


def play(args: argparse.Namespace, chaos: bool, work: Path, run: int) -> dict:
    import chaos_proxy
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
            proxy_stats.append(chaos_proxy.stop(proc))
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
        "runs": args.runs, "load_average_1min_at_end": round(os.getloadavg()[0], 1),
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
    ap.add_argument("--game", default="sinople")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--loss", type=int, default=5, help="%% of inbound packets dropped per card")
    ap.add_argument("--delay", type=float, default=200.0, help="ms each chunk is held")
    ap.add_argument("--jitter", type=float, default=50.0, help="± ms around --delay")
    ap.add_argument("--stall-every", type=float, default=30.0,
                    help="mean seconds between stalls of a connection's direction (0: none)")
    ap.add_argument("--stall", type=float, default=3.0, help="seconds a stall lasts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flap-every", type=float, default=20.0)
    ap.add_argument("--flap-down", type=float, default=10.0,
                    help="seconds the port stays down: longer than the websocket heartbeat's "
                         "7.5 s pong wait, so links do break (5 s: TCP rides it out)")
    ap.add_argument("--flap-host", default="h3", help="whose switch port flaps (h1 hosts)")
    ap.add_argument("--timeout", type=int, default=120, help="the peers' --timeout")
    ap.add_argument("--limit", type=float, default=1800.0, help="seconds before a run is given up")
    ap.add_argument("--out", type=Path, default=None)
    return bench(ap.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
