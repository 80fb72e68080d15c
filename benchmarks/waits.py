"""What a player waits for (issue 35), this build against another checkout, interleaved run by run
so that both see the same load (the 1-minute load average is recorded with every sample):

* start-up: user+sys CPU and peak RSS of `host` (until a 0.5 s lobby timeout), `join ws://`
  (dialling nothing) and `verify` (of a missing file), bytecode compiled as installed;
* leftovers: the files each of those processes leaves in a TMPDIR of its own, created empty;
* verdict: CPU, wall time and peak RSS of `p2ptarot verify` of one transcript (both builds
  check the same file);
* first move: `startup.py`'s start-to-first-move of N bot peers on 127.0.0.1;
* shuffle threads (this build only): wall and CPU of proving and checking one 78-card shuffle
  proof on one thread and on two (crypto/shuffle.py's second thread).

Usage: python benchmarks/waits.py --compare /path/to/previous/checkout --transcript T.jsonl
       [--runs 3] [--peers 4] [--game arcanoid] [--out benchmarks/results/issue35/waits.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import emit  # noqa: E402
from import_cost import commands  # noqa: E402
from startup import measure as first_move  # noqa: E402
from table_run import compile_bytecode  # noqa: E402

HERE = Path(__file__).resolve().parent.parent


def one_process(root: Path, args: list[str], tmp: Path) -> dict[str, float]:
    """CPU seconds, wall seconds, peak RSS (MB) and leftover files of one command process."""
    tmp.mkdir(parents=True)
    env = {**os.environ, "TMPDIR": str(tmp), "TMP": str(tmp), "TEMP": str(tmp)}
    t0 = time.monotonic()
    proc = subprocess.Popen([str(root / ".venv/bin/python"), "-m", "p2ptarot.cli.main", *args],
                            cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    left = list(tmp.iterdir())
    return {"cpu_s": round(usage.ru_utime + usage.ru_stime, 3), "wall_s": round(wall, 3),
            "rss_mb": round(usage.ru_maxrss / 1024, 1), "leftover_files": len(left),
            "leftover_bytes": sum(p.stat().st_size for p in left if p.is_file()),
            "load1": round(os.getloadavg()[0], 2)}


def shuffle_threads(runs: int) -> dict[str, object]:
    """Milliseconds of prove_shuffle / verify_shuffle on 78 cards, one thread against two."""
    import p2ptarot.crypto.shuffle as mod
    from p2ptarot.crypto.elgamal import encrypt
    from p2ptarot.crypto.group import Scalar, base_mul, hash_to_point

    H = base_mul(Scalar.random())
    cts = [encrypt(hash_to_point("bench/card", bytes([i])), H, Scalar(1)) for i in range(78)]
    out, perm, rands = mod.shuffle(cts, H)
    samples: dict[str, list[dict[str, float]]] = {"one_thread": [], "two_threads": []}
    saved = mod._CORES, mod._second_core
    mod._second_core = True
    try:
        for _ in range(runs):
            for name, cores in (("one_thread", 1), ("two_threads", 2)):
                mod._CORES = cores
                w, c = time.perf_counter(), time.process_time()
                proof = mod.prove_shuffle(cts, out, perm, rands, H, b"bench")
                pw, pc = time.perf_counter() - w, time.process_time() - c
                w, c = time.perf_counter(), time.process_time()
                mod.verify_shuffle(cts, out, H, proof, b"bench")
                vw, vc = time.perf_counter() - w, time.process_time() - c
                samples[name].append({"prove_wall_ms": round(pw * 1000, 1),
                                      "prove_cpu_ms": round(pc * 1000, 1),
                                      "verify_wall_ms": round(vw * 1000, 1),
                                      "verify_cpu_ms": round(vc * 1000, 1),
                                      "load1": round(os.getloadavg()[0], 2)})
    finally:
        mod._CORES, mod._second_core = saved
    keys = ("prove_wall_ms", "prove_cpu_ms", "verify_wall_ms", "verify_cpu_ms", "load1")
    return {**{name: {k: _median(v, k) for k in keys} for name, v in samples.items()},
            **{f"{name}_samples": v for name, v in samples.items()}}


def _median(samples: list[dict[str, float | None]], key: str) -> float | None:
    vals = [s[key] for s in samples if s.get(key) is not None]
    return round(statistics.median(vals), 3) if vals else None  # type: ignore[type-var]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--compare", type=Path, required=True, help="checkout of the previous build")
    ap.add_argument("--transcript", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peers", type=int, default=4)
    ap.add_argument("--game", default="arcanoid")
    ap.add_argument("--skip-first-move", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    builds = {"this": HERE, "previous": args.compare.resolve()}
    for root in builds.values():
        compile_bytecode(root)
    work = Path(tempfile.mkdtemp(prefix="p2ptarot-waits-"))
    steps = sum(1 for _ in args.transcript.open())
    result: dict[str, object] = {
        "benchmark": "waits", "runs": args.runs, "cpu_count": os.cpu_count(),
        "transcript": {"name": args.transcript.name, "lines": steps},
        "load1_at_start": round(os.getloadavg()[0], 2), "units": "seconds, MB", "rows": {}}
    rows: dict[str, dict[str, object]] = {}
    try:
        jobs: dict[str, list[str]] = {f"startup_{k}": v for k, v in commands(work).items()
                                      if k != "games"}
        jobs["verify_transcript"] = ["verify", str(args.transcript)]
        for job, argv in jobs.items():
            samples: dict[str, list[dict[str, float]]] = {b: [] for b in builds}
            for run in range(args.runs):
                for name, root in builds.items():  # interleaved
                    samples[name].append(one_process(root, argv, work / f"tmp-{job}-{name}-{run}"))
            rows[job] = _row(samples, ("cpu_s", "wall_s", "rss_mb", "leftover_files",
                                       "leftover_bytes", "load1"))
            print(f"{job}: {json.dumps({k: v for k, v in rows[job].items() if 'samples' not in k})}",
                  file=sys.stderr)
        if not args.skip_first_move:
            samples = {b: [] for b in builds}
            for _ in range(args.runs):
                for name, root in builds.items():
                    load = round(os.getloadavg()[0], 2)
                    samples[name].append({**first_move(root, args.game, args.peers),
                                          "load1": load})
            rows[f"first_move_{args.game}_{args.peers}"] = _row(
                samples, ("from_spawn", "from_ready", "ready", "load1"))
            print(f"first move: {json.dumps(rows[f'first_move_{args.game}_{args.peers}'])}",
                  file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows["shuffle_78_threads"] = shuffle_threads(max(args.runs, 5))
    result["rows"] = rows
    result["load1_at_end"] = round(os.getloadavg()[0], 2)
    return emit(result, args.out, sort_keys=True)


def _row(samples: dict[str, list[dict[str, float | None]]], keys: tuple[str, ...]
         ) -> dict[str, object]:
    row: dict[str, object] = {}
    for name, runs in samples.items():
        row[name] = {k: _median(runs, k) for k in keys}  # type: ignore[arg-type]
        row[name + "_samples"] = runs
    for k in keys:
        a, b = row["previous"][k], row["this"][k]  # type: ignore[index]
        if k not in ("load1", "leftover_files", "leftover_bytes") and a and b:
            row[f"previous_over_this_{k}"] = round(a / b, 2)
    return row


if __name__ == "__main__":
    raise SystemExit(main())
