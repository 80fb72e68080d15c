"""How every benchmark hands over its result: one JSON document on standard output, and the same
in the file `--out` names (its folder made), so that a run can be both read and committed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def emit(result: Any, out: Path | None, **dumps: Any) -> int:
    """Print `result` as JSON (`dumps`: `json.dumps` options) and write it to `out` if given;
    the exit status 0."""
    text = json.dumps(result, **dumps)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n")
    print(text)
    return 0
