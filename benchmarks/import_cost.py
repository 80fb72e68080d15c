"""Import cost of the `p2ptarot` subcommands: `python -X importtime -m p2ptarot.cli.main ...` for
`games`, `join ws://...` (a bot dialling an address, as `host --bots` spawns them), `host` (until
its lobby times out) and `verify` (of a missing file: the command's own modules, not the verifier
run). Reports, per command, the sum of the top-level cumulative import times (every module the
process imported, lazily or not, until it exited) and which heavy packages were loaded. Medians
of several runs; with `--compare ROOT` the other checkout (its own .venv) runs interleaved and
the ratios previous/this are reported.

Usage: python benchmarks/import_cost.py [--runs 3] [--compare /path/to/previous/checkout]
       [--out benchmarks/results/import_cost.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import emit  # noqa: E402
from table_run import compile_bytecode  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( +)(\S+)\s*$")
#: packages whose presence in a process is reported (loaded or not)
KEYS = ("imports_ms", "cpu_ms", "cpu_ms_from_source")
WATCHED = ("aiohttp", "zeroconf", "ssl", "pydantic", "p2ptarot.net.wsmesh",
           "p2ptarot.transcript.verify", "p2ptarot.cli.demo")


def commands(work: Path) -> dict[str, list[str]]:
    net = ["--bot", "--quiet", "--interface", "127.0.0.1"]
    return {
        "games": ["games"],
        "join_ws": ["join", "ws://127.0.0.1:9", "--data-dir", str(work / "join"),
                    "--find-timeout", "1", "--lobby-timeout", "1", *net],
        "host": ["host", "--game", "arcanoid", "--seats", "4", "--data-dir", str(work / "host"),
                 "--lobby-timeout", "0.5", *net],
        "verify": ["verify", str(work / "missing.jsonl")],
    }


def cpu_ms(root: Path, args: list[str], from_source: bool = False) -> float:
    """User + system CPU milliseconds of one run of the command (no -X importtime).
    `from_source`: with no bytecode to read (an empty PYTHONPYCACHEPREFIX), as a process started
    where PYTHONDONTWRITEBYTECODE is set compiles every module of a source checkout each time."""
    env = None
    if from_source:
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
               "PYTHONPYCACHEPREFIX": tempfile.mkdtemp(prefix="p2ptarot-nopyc-")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(root / ".venv/bin/python"), "-m", "p2ptarot.cli.main", *args], cwd=root,
                   capture_output=True, timeout=120, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round(1000 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)), 1)


def measure(root: Path, args: list[str]) -> dict[str, object]:
    """One process: total import milliseconds, which watched packages it loaded, CPU of a run."""
    proc = subprocess.run([str(root / ".venv/bin/python"), "-X", "importtime", "-m",
                           "p2ptarot.cli.main", *args], cwd=root, capture_output=True, text=True,
                          timeout=120)
    total_us, names, games = 0, set(), set()
    for line in proc.stderr.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        name = m.group(4)
        names.add(name)
        if len(m.group(3)) == 1:  # a top-level import: its cumulative time counts once
            total_us += int(m.group(2))
        if name.startswith("p2ptarot.games.") and name.count(".") >= 2:
            games.add(name.split(".")[2])  # (-X importtime may omit a package's own line)
    return {"imports_ms": round(total_us / 1000, 1), "cpu_ms": cpu_ms(root, args),
            "cpu_ms_from_source": cpu_ms(root, args, from_source=True),
            "game_packages": sorted(games),
            **{f"loads_{w}": w in names for w in WATCHED}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", type=Path, default=None, help="checkout of the previous build")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    builds = {"this": HERE} | ({"previous": args.compare.resolve()} if args.compare else {})
    for root in builds.values():
        compile_bytecode(root)  # `cpu_ms` as an installed peer pays it (see compile_bytecode)
    result: dict[str, object] = {"benchmark": "import_cost", "runs": args.runs,
                                 "unit": "milliseconds (imports: sum of top-level -X importtime; cpu: user+sys of a run, "
                                         "with bytecode compiled as installed; cpu_ms_from_source: "
                                         "compiling every module, as with PYTHONDONTWRITEBYTECODE)",
                                 "by_command": {}}
    work = Path(tempfile.mkdtemp(prefix="p2ptarot-imports-"))
    result["load_before"] = [round(x, 2) for x in os.getloadavg()]  # 1, 5, 15 minutes
    try:
        for cmd, argv in commands(work).items():
            samples: dict[str, list[dict[str, object]]] = {b: [] for b in builds}
            for _ in range(args.runs):
                for name, root in builds.items():  # interleaved: both builds see the same load
                    samples[name].append(measure(root, argv))
            row: dict[str, object] = {}
            for name in builds:
                runs = samples[name]
                row[name] = {**{k: v for k, v in runs[0].items()},
                             **{k: round(statistics.median(float(s[k]) for s in runs), 1)  # type: ignore[arg-type]
                                for k in KEYS}}
                row[name + "_samples"] = [{k: s[k] for k in KEYS} for s in runs]
            if "previous" in builds:
                for key in KEYS:
                    a = row["previous"][key]  # type: ignore[index]
                    b = row["this"][key]  # type: ignore[index]
                    row[f"speedup_{key}"] = round(a / b, 2) if b else None
            result["by_command"][cmd] = row  # type: ignore[index]
            print(f"{cmd}: {json.dumps({k: v for k, v in row.items() if 'samples' not in k})}",
                  file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    result["cpus"] = os.cpu_count()
    return emit(result, args.out, sort_keys=True)


if __name__ == "__main__":
    raise SystemExit(main())
