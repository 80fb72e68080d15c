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

The harness is tests/support/chaos_game.py, the proxy tests/support/chaos_proxy.py (tests use both).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

from chaos_game import Chaos, play  # noqa: E402  (tests/support, added above)


def _git_commit() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return done.stdout.strip()


def bench(args: argparse.Namespace) -> int:
    if os.geteuid() != 0:
        print("chaos.py needs root (network namespaces)", file=sys.stderr)
        return 2
    import tempfile

    settings = Chaos(**{f: getattr(args, f) for f in Chaos.__dataclass_fields__})
    runs: dict[str, list[dict]] = {"clean": [], "chaos": []}
    with tempfile.TemporaryDirectory(prefix="p2ptarot-chaos-") as tmp:
        for run in range(1, args.runs + 1):
            for chaos in (False, True):
                kind = "chaos" if chaos else "clean"
                result = play(settings, chaos, Path(tmp) / f"{kind}-{run}", run)
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
