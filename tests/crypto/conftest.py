"""Fixtures for the crypto tests."""

from __future__ import annotations

import pytest

from p2ptarot.crypto.group import Point, Scalar, base_mul


@pytest.fixture
def keypair() -> tuple[Scalar, Point]:
    x = Scalar.random()
    return x, base_mul(x)
