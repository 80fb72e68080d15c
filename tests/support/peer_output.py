"""Reading what a `p2ptarot` process printed: its `--json` summary is its last JSON line, whatever
a library writes after it on a merged stderr (aiortc's or asyncio's warnings at exit)."""

from __future__ import annotations

import json
from typing import Any


def summary(output: str) -> dict[str, Any]:
    """The last line of `output` that is a JSON object (AssertionError quoting the output's end
    when there is none)."""
    for line in reversed(output.strip().splitlines()):
        if line.startswith("{"):
            try:
                found = json.loads(line)
            except ValueError:
                continue
            if isinstance(found, dict):
                return found
    raise AssertionError(f"no JSON summary in the output:\n{output[-3000:]}")
