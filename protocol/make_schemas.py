"""Write protocol/schemas/ from the pydantic models (run from the repository root).

    .venv/bin/python protocol/make_schemas.py            # rewrite protocol/schemas/*.json
    .venv/bin/python protocol/make_schemas.py --check    # exit 1 if the files drifted

The models live in `p2ptarot.table.schemas`; `tests/protocol/test_schemas.py` fails on drift.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from p2ptarot.table.schemas import render, wire_schemas  # noqa: E402

OUT = ROOT / "protocol" / "schemas"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="protocol/make_schemas.py", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the files differ, write nothing")
    args = parser.parse_args(argv)
    schemas = {f"{name}.json": render(s) for name, s in wire_schemas().items()}
    if args.check:
        on_disk = {p.name: p.read_text(encoding="utf-8") for p in OUT.glob("*.json")}
        if on_disk != schemas:
            print("protocol schemas drifted from the models; run protocol/make_schemas.py", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for stale in set(p.name for p in OUT.glob("*.json")) - set(schemas):
        (OUT / stale).unlink()
    for fname, text in schemas.items():
        (OUT / fname).write_text(text, encoding="utf-8")
    print(f"wrote {len(schemas)} schemas to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
