"""Finished in-memory games shared by the table tests (a full game costs seconds: play few)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest


_spec = importlib.util.spec_from_file_location("table_harness", Path(__file__).with_name("harness.py"))
assert _spec is not None and _spec.loader is not None
table_harness = importlib.util.module_from_spec(_spec)
sys.modules["table_harness"] = table_harness  # unique name: tests/mental has its own harness.py
_spec.loader.exec_module(table_harness)
Table = table_harness.Table




@pytest.fixture(scope="session")
def game2():
    t = Table("sinople", 2, seed=3)
    t.run()
    return t


@pytest.fixture(scope="session")
def game3():
    t = Table("sinople", 3, seed=4)
    t.run()
    return t
