"""Issue 31, item 8: a whole game over the relay path against the same game over direct links.

The namespace rig of `online.py` (three homes behind NATs, four seats, two in the first home,
coturn for STUN), with *two* real `nostr-relay` processes on the "internet" segment (the
packaged default list has several relays; the relay path stripes a link's events across them).
Scenarios, alternated run by run so a busier minute weighs on all alike:

- `direct`: cone NATs with STUN: links between homes are WebRTC data channels (the relays carry
  the signalling only); relays capped at 4 KB;
- `relay-4k`: the same homes with UDP blocked at the routers, so every link between homes rides
  the relays; both relays run with nostr-relay's own default cap (4096 characters of content,
  no NIP-11 limit published: each peer learns the cap from refusals) and a rate limit per
  client address of 60 events/s and 3000/min;
- `relay-64k`: the same, with the relays taking events up to 65,536 characters of content
  (strfry's default `maxEventSize`, the common public relay's limit) and the same rate limit
  (strfry has none by default: this is the stricter case).

With `--base DIR` (an unpacked older tree of the package, e.g. `git archive`), its relay
scenarios run too, interleaved, on the same rig (`base-relay-4k`, `base-relay-64k`): the ratio
against the previous build in the same run.  The JSON holds every sample (``game``: from launch until
every peer exited; ``first_step``/``last_step``: the host's first and last game step, from
launch: before the first, the lobby and the links), the medians, the
ratios relay/direct (target: at most 2), the events the relays stored, and the load average.

Usage: (root) .venv/bin/python benchmarks/relay_vs_direct.py [--game paris-divins] [--runs 3]
       [--base /tmp/base] [--out benchmarks/results/issue31/relay_vs_direct.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests" / "support"))
sys.path.insert(0, str(HERE / "benchmarks"))

from netns_rig import open_rig  # noqa: E402
from online import _WRAPPER, _identity_code  # noqa: E402
from online_servers import start_relay, start_turn  # noqa: E402
from report import emit  # noqa: E402

RATE_LIMIT = "60/s,3000/min"
CAPS = {"direct": 4096, "relay-4k": 4096, "relay-64k": 65536}
_STEP = re.compile(r"^(\d+\.\d+) step \d+: ")


def run_once(scenario: str, game: str, seed: int, base: Path | None) -> dict[str, object]:
    """One 4-seat game; `base`: run the peers from that tree instead of this one."""
    kind = scenario.removeprefix("base-")
    work = Path(tempfile.mkdtemp(prefix="p2ptarot-relay-bench-"))
    env = {**os.environ, "PYTHONPATH": str(base)} if base else None
    with open_rig() as rig:
        inet = rig.internet()
        server = rig.host("srv", inet)
        relays = [start_relay(work / f"relay{n}", host=server.address, port=7447 + n,
                              prefix=server.exec_prefix(), popen=server.popen,
                              event_limit=CAPS[kind], rate_limit=RATE_LIMIT) for n in range(2)]
        turn = start_turn(work / "turn", server.address, server.popen, server.exec_prefix())
        homes = [rig.home("a", inet, nat="cone", hosts=2), rig.home("b", inet, nat="cone"),
                 rig.home("c", inet, nat="cone")]
        if kind != "direct":
            for router, _ in homes:
                router.block_udp()
        hosts = [h for _, members in homes for h in members]
        fp, code = _identity_code(work / "p0")
        common = ["--bot", "heuristic", "--quiet", "--json", "--timeout", "120",
                  "--lobby-timeout", "300", "--stun", turn.stun_url]
        for relay in relays:
            common += ["--relay", relay.url]
        procs = []
        t0 = time.time()
        for k, host in enumerate(hosts):
            args = (["host", "--game", game, "--seats", "4", "--online"] if k == 0
                    else ["join", code])
            args += ["--data-dir", str(work / f"p{k}"), "--seed", str(seed + k)] + common
            procs.append(host.popen([sys.executable, "-c", _WRAPPER, str(work / f"log{k}.txt"),
                                     *args], stdout=open(work / f"out{k}.txt", "w"),
                                    stderr=subprocess.STDOUT, cwd=base or HERE, env=env))
        codes = [p.wait(timeout=1800) for p in procs]
        end = time.time() - t0
        steps = [float(m.group(1)) - t0 for line in (work / "log0.txt").read_text().splitlines()
                 if (m := _STEP.match(line))]
        first, last = (round(steps[0], 2), round(steps[-1], 2)) if steps else (None, None)
        results = [json.loads((work / f"out{k}.txt").read_text().strip().splitlines()[-1])
                   if codes[k] == 0 else None for k in range(4)]
        paths = sorted({p for r in results if r for p in r.get("paths", {}).values()})
        stored = [len(relay.stored()) for relay in relays]
        for relay in relays:
            relay.stop()
    return {"ok": all(c == 0 for c in codes), "first_step": first, "last_step": last,
            "game": round(end, 2),
            "paths": paths, "relay_events": stored,
            "scores": results[0]["scores"] if results[0] else None}


def per_round_ratios(samples: dict[str, list[dict[str, object]]]) -> dict[str, list[float | None]]:
    """Each round's game time over that round's direct game (the runs of a round are minutes
    apart: the ratios show how much the machine's load moves the median's)."""
    direct = samples.get("direct", [])
    return {s: [round(r["game"] / d["game"], 2) if r["ok"] and d["ok"] else None  # type: ignore[operator]
                for r, d in zip(rows, direct)] for s, rows in samples.items() if s != "direct"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="paris-divins")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--base", type=Path, default=None, help="an older tree to compare with")
    ap.add_argument("--scenarios", nargs="+", default=["direct", "relay-4k", "relay-64k"])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=HERE).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, cwd=HERE).stdout.strip())
    scenarios = list(args.scenarios)
    if args.base:
        scenarios += [f"base-{s}" for s in args.scenarios if s != "direct"]
    load_before = os.getloadavg()
    samples: dict[str, list[dict[str, object]]] = {s: [] for s in scenarios}
    for i in range(args.runs):  # interleaved
        for scenario in scenarios:
            started = time.time()
            row = run_once(scenario, args.game, 1 + 10 * i,
                           args.base.resolve() if scenario.startswith("base-") else None)
            row["load_1min"] = round(os.getloadavg()[0], 2)
            row["wall"] = round(time.time() - started, 2)
            samples[scenario].append(row)
            print(json.dumps({scenario: row}), file=sys.stderr, flush=True)

    def median(scenario: str, key: str) -> float | None:
        values = [s[key] for s in samples[scenario] if s["ok"] and s[key] is not None]
        return round(statistics.median(values), 2) if values else None  # type: ignore[arg-type]
    summary = {s: {"game_median": median(s, "game"), "first_step_median": median(s, "first_step"),
                   "last_step_median": median(s, "last_step"),
                   "relay_events_median": statistics.median(
                       sum(x["relay_events"]) for x in samples[s]),  # type: ignore[arg-type]
                   "failed_runs": sum(not x["ok"] for x in samples[s])} for s in scenarios}
    direct = summary.get("direct", {}).get("game_median")
    ratios = {s: round(row["game_median"] / direct, 2)  # type: ignore[operator]
              for s, row in summary.items() if s != "direct" and direct and row["game_median"]}
    per_round = per_round_ratios(samples)
    out: dict[str, object] = {
        "benchmark": "relay_vs_direct", "issue": 31, "commit": commit, "dirty": dirty,
        "base": str(args.base) if args.base else None, "game": args.game, "seats": 4,
        "relays": 2, "rate_limit_per_address": RATE_LIMIT, "content_caps": CAPS,
        "runs": args.runs, "unit": "seconds", "cores": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "summary": summary, "ratio_to_direct": ratios, "per_round_ratio": per_round,
        "target_ratio": 2.0,
        "meets_target": {s: r <= 2.0 for s, r in ratios.items()}, "samples": samples}
    return emit(out, args.out, indent=1)


if __name__ == "__main__":
    sys.exit(main())
