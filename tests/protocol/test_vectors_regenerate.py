"""protocol/make_vectors.py regenerates every conformance vector byte for byte: the vectors are
the reference game's output, not hand-edited files, and a change of any hashed or signed byte
shows up here (then regenerate and say why, PROTOCOL §1). The script's own replay of each
invalid vector against its hand-written verdict is skipped here (`check=False`): once the bytes
match, tests/protocol/test_vectors.py replays every committed vector against its verdict."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # seven reference games played and replayed: 17-75 s
ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "protocol" / "vectors"


def test_make_vectors_writes_the_committed_files_byte_for_byte(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "protocol"))
    try:
        make_vectors = importlib.import_module("make_vectors")
    finally:
        sys.path.remove(str(ROOT / "protocol"))
    assert make_vectors.main(tmp_path, check=False) == 0
    written = {p.name for p in tmp_path.iterdir()}
    committed = {p.name for p in VECTORS.iterdir()} - {"online.json"}  # make_online_vectors.py
    assert written == committed
    for name in sorted(written):
        assert (tmp_path / name).read_bytes() == (VECTORS / name).read_bytes(), name
