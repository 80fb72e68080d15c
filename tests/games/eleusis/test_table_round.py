"""Eleusis under the table protocol's existing contract, in memory (no sockets): real mental
poker deals the hands and the penalty cards, every seat runs its own partial-knowledge engine,
and the offline verifier accepts the signed log with the same outcome. (Networked tables and the
rule's hash commitment on the wire are the table's work, not this package's.)"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_TABLE = Path(__file__).parents[2] / "table"


def _load(name: str, file: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, _TABLE / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_a_round_with_sages_and_runs_over_mental_poker() -> None:
    harness = _load("table_harness", "harness.py")
    helpers = _load("table_helpers_eleusis", "helpers.py")
    t = harness.Table("eleusis", 5, seed=7, bot="heuristic", options={"rounds": 1})
    t.run()
    assert all(a is None for a in t.aborted)
    outcomes = [f.outcome.to_json() for f in t.finished]
    assert all(o == outcomes[0] for o in outcomes)
    rounds = outcomes[0]["detail"]["rounds"]
    assert len(rounds) == 1 and rounds[0]["rule"].startswith("accept")
    assert all(r == t.records[0] for r in t.records)
    verdict = helpers.verify(t, t.records[0])
    assert verdict.valid, verdict
    assert verdict.outcome == outcomes[0]
