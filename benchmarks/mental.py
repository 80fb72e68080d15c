"""Benchmark of the mental-poker deck protocol, measured from one peer's point of view.

For 78 cards and 2/4/6 seats, every figure is the work seat 0 does itself (making its own
messages, decoding and verifying everyone else's from their wire dicts), timed inside its own
calls only, median over several independent tables:

- shuffle_prove / shuffle_verify: seat 0's own shuffle; one verification of another seat's.
- share_make / share_verify: per decryption share, from a full deal of the 78 cards.
- setup: keys + every shuffle + every verification, i.e. all seat 0 must do before dealing.
- audit: checking every revealed key, re-checking every share, decrypting every handle.

Each figure carries the multiplications it performed (counted) and its floor (count x the
measured unit cost of a var-base / base multiplication); floor_ratio = median / floor.
floor_with_adds also charges point additions (~15 us each in libsodium) and the validation of
every decoded point (~45 us): received ciphertexts and proofs are decoded strictly.
Times are CPU time of this process (time.process_time), not wall time, so that other load on a
shared machine inflates neither the figures nor the unit costs.

Usage: python benchmarks/mental.py [--json] [--cards 78] [--seats 2 4 6] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from p2ptarot.crypto.group import Point, Scalar, base_mul, count_ops, hash_to_point
from p2ptarot.mental import MentalTable, SeededRandomSource

TABLE_ID = b"\x42" * 32


def _unit_us(fn: Callable[[], object]) -> float:
    """Fastest of 25 batches of 50: the least disturbed estimate of a unit cost."""
    best = float("inf")
    for _ in range(25):
        t0 = time.process_time()
        for _ in range(50):
            fn()
        best = min(best, (time.process_time() - t0) / 50 * 1e6)
    return best


def unit_costs(previous: dict[str, float] | None = None) -> dict[str, float]:
    """Unit costs; with `previous`, the minimum of both measurements (less load noise)."""
    k = Scalar.from_int(0x1234567890ABCDEF << 190)
    p = hash_to_point("bench", b"p")
    q = hash_to_point("bench", b"q")
    enc = q.encode()
    unit = {"var_mul_us": round(_unit_us(lambda: p * k), 2),
            "base_mul_us": round(_unit_us(lambda: base_mul(k)), 2),
            "add_us": round(_unit_us(lambda: p + q), 2),
            "decode_us": round(_unit_us(lambda: Point.decode(enc)), 2)}
    if previous:
        unit = {key: min(unit[key], previous[key]) for key in unit}
    return unit


class Probe:
    """Times and counts seat 0's calls, bucketed by what they did."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = defaultdict(float)
        self.ops: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        self.items: dict[str, int] = defaultdict(int)

    def run(self, bucket: str, fn: Callable[[], Any],
            items: int | Callable[[Any], int] = 1) -> Any:
        with count_ops() as c:
            t0 = time.process_time()
            out = fn()
            self.ms[bucket] += (time.process_time() - t0) * 1e3
        for i, v in enumerate((c.var_mul, c.base_mul, c.add, c.validate)):
            self.ops[bucket][i] += v
        self.items[bucket] += items(out) if callable(items) else items
        return out


def _n_items(msg: Any) -> int:
    return len(getattr(msg, "items", ())) or 1


def one_table(n: int, cards: int, seed: int) -> Probe:
    """Set up, deal every card round-robin, audit; probe seat 0's share of the work."""
    seats = [MentalTable(TABLE_ID, n, s, SeededRandomSource(f"bench/{seed}/{s}"))
             for s in range(n)]
    probe = Probe()
    ids = [f"card-{i}" for i in range(cards)]
    phase = {"name": "setup"}

    def pump() -> None:
        while True:
            expected = seats[0].expected()
            if not expected:
                return
            senders = sorted({e.seat for e in expected})
            msgs = []
            for s in senders:
                if s == 0:
                    kind = expected[0].kind.split(".")[1]
                    msgs += probe.run(f"{phase['name']}:make:{kind}", seats[0].outgoing,
                                      lambda out: sum(_n_items(m) for m in out))
                else:
                    msgs += seats[s].outgoing()
            for m in msgs:
                wire = m.to_dict()
                kind = m.KIND.split(".")[1]
                for i, peer in enumerate(seats):
                    if i == 0:
                        bucket = f"{phase['name']}:{'own' if m.seat == 0 else 'verify'}:{kind}"
                        probe.run(bucket, lambda: peer.receive_dict(m.seat, wire)
                                  if m.seat else peer.receive(0, m), _n_items(m))
                    else:
                        peer.receive(m.seat, m) if i == m.seat else peer.receive_dict(m.seat, wire)

    for p in seats:
        p.open_deck("d", 1, ids)
    pump()
    phase["name"] = "deal"
    for p in seats:
        p.deal("d", 1, {h: h % n for h in range(cards)})
    pump()
    phase["name"] = "audit"
    for p in seats:
        p.audit("d", 1)
    pump()
    return probe


def _figure(samples: list[float], ops: list[int], unit: dict[str, float],
            per: int = 1) -> dict[str, Any]:
    median = statistics.median(samples) / per
    var, base, add, val = (o / per for o in ops)
    floor = (var * unit["var_mul_us"] + base * unit["base_mul_us"]) / 1e3
    full = floor + (add * unit["add_us"] + val * unit["decode_us"]) / 1e3
    return {"median_ms": round(median, 3), "runs": len(samples),
            "var_mul": round(var, 2), "base_mul": round(base, 2),
            "add": round(add, 2), "validate": round(val, 2),
            "floor_ms": round(floor, 3), "floor_ratio": round(median / floor, 3) if floor else None,
            "floor_with_adds_ms": round(full, 3),
            "floor_with_adds_ratio": round(median / full, 3) if full else None}


def bench_seats(n: int, cards: int, runs: int) -> tuple[int, list[Probe]]:
    return n, [one_table(n, cards, seed) for seed in range(runs)]


def finish(raw: tuple[int, list[Probe]], unit: dict[str, float]) -> dict[str, Any]:
    """Turn seat 0's probes into medians with counts and floors (units measured last)."""
    n, probes = raw
    p0 = probes[0]

    def total(prefix: str) -> tuple[list[float], list[int]]:
        keys = [k for k in p0.ms if k.startswith(prefix)]
        samples = [sum(p.ms[k] for k in keys) for p in probes]
        ops = [sum(p0.ops[k][i] for k in keys) for i in range(4)]
        return samples, ops

    def per_item(bucket: str) -> dict[str, Any]:
        samples = [p.ms[bucket] for p in probes]
        return _figure(samples, p0.ops[bucket], unit, per=p0.items[bucket])

    shuffles_verified = p0.items["setup:verify:shuffle"]
    return {
        "seats": n,
        "shuffle_prove": per_item("setup:make:shuffle"),
        "shuffle_verify": _figure([p.ms["setup:verify:shuffle"] for p in probes],
                                  p0.ops["setup:verify:shuffle"], unit, per=shuffles_verified),
        "share_make": per_item("deal:make:shares"),
        "share_verify": per_item("deal:verify:shares"),
        "setup": _figure(*total("setup:"), unit),
        "audit": _figure(*total("audit:"), unit),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object (the default)")
    ap.add_argument("--cards", type=int, default=78)
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 4, 6])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    unit = unit_costs()
    results = [bench_seats(n, args.cards, args.runs) for n in args.seats]
    unit = unit_costs(unit)
    result = {
        "benchmark": "mental",
        "python": platform.python_version(),
        "cards": args.cards,
        "unit": unit,
        "note": "per-peer work of seat 0; share figures are per share; shuffle_verify per shuffle",
        "results": [finish(r, unit) for r in results],
    }
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
