"""One finished arcanoïd game (real mental poker) shared by the fuzz tests."""

from __future__ import annotations

import pytest

from tests.table.harness import Table


@pytest.fixture(scope="session")
def arcanoid3():
    table = Table("arcanoid", 3, seed=7)
    table.run()
    assert all(f is not None for f in table.finished)
    return table
