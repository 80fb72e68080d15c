"""Benchmark of the crypto layer: primitive costs, shuffle proof and decryption shares.

Each composite operation is reported with its counted group operations and its *floor*: the
time its variable-base and fixed-base multiplications alone would take at the measured unit
costs (unit cost = fastest of 25 batches; ``floor_ratio`` = median / floor; 1.0 would mean zero overhead beyond the mults).
``floor_with_adds_us`` also charges point additions, which cost ~15 us each through libsodium.

Usage: python benchmarks/crypto_ops.py [--json] [--n 78] [--runs 7]   (prints one JSON object)
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from p2ptarot.crypto.elgamal import encrypt, reencrypt
from p2ptarot.crypto.group import Point, Scalar, base_mul, count_ops, hash_to_point
from p2ptarot.crypto.proofs import make_share, verify_share
from p2ptarot.crypto.shuffle import ShuffleProof, prove_shuffle, shuffle, verify_shuffle


def _samples_us(fn: Callable[[], object], runs: int, inner: int) -> list[float]:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t0) / inner * 1e6)
    return samples


def _median_us(fn: Callable[[], object], runs: int, inner: int = 1) -> float:
    return statistics.median(_samples_us(fn, runs, inner))


def _unit_us(fn: Callable[[], object]) -> float:
    """Unit cost = the fastest of many short batches: the least disturbed by other load."""
    return min(_samples_us(fn, 25, 50))


def _counted(fn: Callable[[], object]) -> dict[str, int]:
    with count_ops() as n:
        fn()
    return {"var_mul": n.var_mul, "base_mul": n.base_mul, "add": n.add, "validate": n.validate}


def _report(median: float, counts: dict[str, int], unit: dict[str, float]) -> dict[str, Any]:
    floor = counts["var_mul"] * unit["var_mul_us"] + counts["base_mul"] * unit["base_mul_us"]
    with_adds = floor + counts["add"] * unit["add_us"] + counts["validate"] * unit["decode_us"]
    return {
        "median_us": round(median, 1),
        "ops": counts,
        "floor_us": round(floor, 1),
        "floor_ratio": round(median / floor, 3) if floor else None,
        "floor_with_adds_us": round(with_adds, 1),
        "ratio_with_adds": round(median / with_adds, 3) if with_adds else None,
    }


def run(n: int, runs: int) -> dict[str, Any]:
    k = Scalar.random()
    P = hash_to_point("bench", b"P")
    Q = hash_to_point("bench", b"Q")
    enc = P.encode()
    unit = {
        "var_mul_us": _unit_us(lambda: P * k),
        "base_mul_us": _unit_us(lambda: base_mul(k)),
        "add_us": _unit_us(lambda: P + Q),
        "decode_us": _unit_us(lambda: Point.decode(enc)),
    }
    unit = {key: round(v, 2) for key, v in unit.items()}

    x = Scalar.random()
    H = base_mul(x) + base_mul(Scalar.random())
    open_deck = [encrypt(hash_to_point("bench/card", i.to_bytes(2, "big")), H, Scalar(1))
                 for i in range(n)]
    # Worst case: inputs already shuffled once (an open deck has a = G, which makes the
    # verifier's input sums fixed-base and cheaper).
    cts = shuffle(open_deck, H)[0]
    out, perm, rands = shuffle(cts, H)
    ctx = b"bench"
    proof = prove_shuffle(cts, out, perm, rands, H, ctx)  # warms generator caches
    verify_shuffle(cts, out, H, proof, ctx)
    data = proof.encode()

    prove_med = _median_us(lambda: prove_shuffle(cts, out, perm, rands, H, ctx), runs)
    verify_med = _median_us(lambda: verify_shuffle(cts, out, H, proof, ctx), runs)
    decode_med = _median_us(lambda: ShuffleProof.decode(data, n), runs)
    shuffle_med = _median_us(lambda: shuffle(cts, H), runs)

    h = base_mul(x)
    c = reencrypt(cts[0], H, Scalar.random())
    d, sproof = make_share(x, h, c, ctx)
    share_make = _median_us(lambda: make_share(x, h, c, ctx), 9, 100)
    share_verify = _median_us(lambda: verify_share(h, c, d, sproof, ctx), 9, 100)

    return {
        "benchmark": "crypto_ops",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "unit_costs": unit,
        "n": n,
        "runs": runs,
        "shuffle_reencrypt": _report(shuffle_med, _counted(lambda: shuffle(cts, H)), unit),
        "shuffle_prove": _report(
            prove_med, _counted(lambda: prove_shuffle(cts, out, perm, rands, H, ctx)), unit),
        "shuffle_verify": _report(
            verify_med, _counted(lambda: verify_shuffle(cts, out, H, proof, ctx)), unit),
        "shuffle_proof_decode": _report(
            decode_med, _counted(lambda: ShuffleProof.decode(data, n)), unit),
        "shuffle_proof_bytes": len(data),
        "share_make": _report(share_make, _counted(lambda: make_share(x, h, c, ctx)), unit),
        "share_verify": _report(
            share_verify, _counted(lambda: verify_share(h, c, d, sproof, ctx)), unit),
        "targets_ms": {"shuffle_prove": 60, "shuffle_verify": 90,
                       "share_make": 0.3, "share_verify": 0.5},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="compact single-line JSON")
    ap.add_argument("--n", type=int, default=78, help="deck size for the shuffle (default 78)")
    ap.add_argument("--runs", type=int, default=7, help="runs per shuffle median (>= 5)")
    args = ap.parse_args(argv)
    result = run(args.n, max(5, args.runs))
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
