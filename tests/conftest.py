"""Fixtures every test directory may use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from netns_rig import Rig, open_rig


@pytest.fixture
def netns() -> Iterator[Rig]:
    """A virtual network in namespaces of this test's own, removed afterwards whatever happened.
    Without root (or iproute2/nftables) this raises: the test fails, it does not skip."""
    rig = open_rig()
    try:
        yield rig
    finally:
        rig.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The `slow` tests (processes, networks, browsers: 10-40 s each) run first, the rest in
    their order after them: under `pytest -n 2` both workers then end on quick tests together,
    not one on a long test the other waits for (a stable sort: every worker collects the same
    order, as xdist requires)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
