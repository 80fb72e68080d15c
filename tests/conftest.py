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
