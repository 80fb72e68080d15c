"""edwards25519 (protocol <= 2, PyNaCl) against ristretto255 (protocol 3, rbcl): the measurements
behind spec/PROTOCOL.md "Group choice".

Runs `benchmarks/crypto_ops.py` in this checkout and in the previous one (`--compare ROOT`, its own
.venv), alternately, and reports per build the unit costs (variable- and fixed-base
multiplication, decode, addition) and the composite operations (shuffle prove/verify of a
78-card deck, decryption share make/verify), with the ratios previous/this.

Usage: python benchmarks/group_choice.py --compare /path/to/previous/checkout [--rounds 2]
       [--out benchmarks/results/group_choice.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

from report import emit  # the benchmarks folder is the script's own (sys.path[0])

HERE = Path(__file__).resolve().parent.parent
UNITS = ("var_mul_us", "base_mul_us", "decode_us", "add_us")
COMPOSITES = ("shuffle_prove", "shuffle_verify", "share_make", "share_verify")


def crypto_ops(root: Path) -> dict:
    out = subprocess.run([str(root / ".venv/bin/python"), str(root / "benchmarks/crypto_ops.py"),
                          "--json", "--runs", "5"], cwd=root, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--compare", type=Path, required=True, help="checkout of the previous build")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    builds = {"this": HERE, "previous": args.compare.resolve()}
    samples: dict[str, list[dict]] = {b: [] for b in builds}
    for _ in range(args.rounds):
        for name, root in builds.items():
            samples[name].append(crypto_ops(root))
    result: dict[str, object] = {"benchmark": "group_choice", "rounds": args.rounds,
                                 "unit": "microseconds", "n": samples["this"][0]["n"]}
    for name in builds:
        row = {u: statistics.median(s["unit_costs"][u] for s in samples[name]) for u in UNITS}
        row |= {c: statistics.median(s[c]["median_us"] for s in samples[name]) for c in COMPOSITES}
        row["ops"] = {c: samples[name][0][c]["ops"] for c in COMPOSITES}
        result[name] = row
    prev, this = result["previous"], result["this"]
    result["speedup"] = {k: round(prev[k] / this[k], 2)  # type: ignore[index]
                         for k in (*UNITS, *COMPOSITES) if this[k]}  # type: ignore[index]
    return emit(result, args.out, sort_keys=True)


if __name__ == "__main__":
    raise SystemExit(main())
