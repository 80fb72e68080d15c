"""Finished in-memory games shared by the table tests (a full game costs seconds: play few)."""

from __future__ import annotations

import pytest

from .harness import Table


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
