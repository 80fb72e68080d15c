"""One finished arcanoïd game (real mental poker) shared by the fuzz tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

if "table_harness" not in sys.modules:  # tests/table/conftest.py loads it under the same name
    _spec = importlib.util.spec_from_file_location(
        "table_harness", Path(__file__).resolve().parents[1] / "table" / "harness.py")
    assert _spec is not None and _spec.loader is not None
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["table_harness"] = _module
    _spec.loader.exec_module(_module)
if "fuzz_mutate" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("fuzz_mutate", Path(__file__).with_name("mutate.py"))
    assert _spec is not None and _spec.loader is not None
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["fuzz_mutate"] = _module
    _spec.loader.exec_module(_module)


@pytest.fixture(scope="session")
def arcanoid3():
    table = sys.modules["table_harness"].Table("arcanoid", 3, seed=7)
    table.run()
    assert all(f is not None for f in table.finished)
    return table
