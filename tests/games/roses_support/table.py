"""The in-memory table harness of tests/table (sans-I/O sessions, real mental poker), loaded under
its unique module name whichever test directory asks first."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_TABLE_TESTS = Path(__file__).resolve().parents[2] / "table"


def _load(name: str, file: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, _TABLE_TESTS / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


table_harness = _load("table_harness", "harness.py")
Table = table_harness.Table
once = table_harness.once


def verify(table, lines):
    """Verdict of the offline verifier on `lines` under `table`'s charter."""
    from p2ptarot.transcript import Transcript, verify_transcript

    return verify_transcript(Transcript(table.signed, lines))


resign = _load("table_forging_helpers", "helpers.py").resign
