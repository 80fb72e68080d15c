"""Import CPU of a bot peer, layer by layer: the interpreter, then each heavy third-party package
and each layer of p2ptarot in the order a `join` peer loads them, each step's CPU on top of the
steps before (process_time in a fresh process, bytecode compiled as installed). Medians of
several processes. Shows what the 0.2 s import target of issue 26 is up against.

Usage: python benchmarks/import_breakdown.py [--runs 7] [--out benchmarks/results/issue26/import_breakdown.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_run import compile_bytecode  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
STEPS = [
    ("asyncio", "import asyncio"),
    ("cryptography (Ed25519)", "import cryptography.hazmat.primitives.asymmetric.ed25519"),
    ("rbcl (imports doctest, decodes its 5.5 MB hex libsodium, dlopen)", "import rbcl"),
    ("pydantic", "import pydantic"),
    ("aiohttp + aiohttp.web (SSL contexts built at import)", "import aiohttp.web"),
    ("zeroconf", "import zeroconf"),
    ("p2ptarot.crypto", "import p2ptarot.crypto.group, p2ptarot.crypto.shuffle, p2ptarot.crypto.proofs"),
    ("p2ptarot.mental", "import p2ptarot.mental"),
    ("p2ptarot.engine", "import p2ptarot.engine"),
    ("p2ptarot.table.session (pydantic models: charter, bodies, envelope)", "import p2ptarot.table.session"),
    ("p2ptarot.net.wsmesh", "import p2ptarot.net.wsmesh"),
    ("p2ptarot.app.events", "import p2ptarot.app.events"),
    ("p2ptarot.cli.peer (the rest of the command)", "import p2ptarot.cli.main, p2ptarot.cli.peer"),
    ("p2ptarot.games.arcanoid", "import p2ptarot.games.arcanoid"),
]
_CODE = """
import time, json
t0 = time.process_time(); out = []
{body}
print(json.dumps([t0] + out))
"""


def one(root: Path) -> dict[str, float]:
    body = "\n".join(f"{stmt}; out.append(time.process_time())" for _, stmt in STEPS)
    proc = subprocess.run([str(root / ".venv/bin/python"), "-c", _CODE.format(body=body)],
                          cwd=root, capture_output=True, text=True, check=True)
    marks = json.loads(proc.stdout)
    row = {"interpreter start": marks[0] * 1000}
    for (name, _), before, after in zip(STEPS, marks, marks[1:]):
        row[name] = (after - before) * 1000
    row["total"] = marks[-1] * 1000
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    compile_bytecode(HERE)
    rows = [one(HERE) for _ in range(args.runs)]
    result = {"benchmark": "import_breakdown", "runs": args.runs, "unit": "CPU milliseconds",
              "median": {k: round(statistics.median(r[k] for r in rows), 1) for k in rows[0]}}
    text = json.dumps(result, sort_keys=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
