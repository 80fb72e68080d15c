"""Shared helpers for the network tests: every socket binds to 127.0.0.1, port 0."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from p2ptarot.net.events import MeshEvent
from p2ptarot.crypto.signing import Identity
from p2ptarot.net.wsmesh import Mesh, MeshConfig

# Generous safety net so a broken test fails instead of hanging; never asserted on.
WAIT = 15.0


async def wait_event(
    mesh: Mesh, match: Callable[[MeshEvent], bool], timeout: float = WAIT
) -> MeshEvent:
    """Consume events from ``mesh`` until one matches (others are discarded)."""
    async with asyncio.timeout(timeout):
        while True:
            event = await mesh.next_event()
            if match(event):
                return event


async def wait_until(condition: Callable[[], bool], timeout: float = WAIT) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.fixture
async def make_mesh() -> AsyncIterator[Callable[..., Mesh]]:
    """Factory of started meshes on 127.0.0.1 that are all closed at teardown."""
    meshes: list[Mesh] = []

    async def factory(identity: object | None = None, **settings: object) -> Mesh:
        config = MeshConfig(host="127.0.0.1", port=0, **settings)  # type: ignore[arg-type]
        mesh = Mesh(identity or Identity.generate(), config)  # type: ignore[arg-type]
        await mesh.start()
        meshes.append(mesh)
        return mesh

    yield factory  # type: ignore[misc]
    for mesh in meshes:
        await mesh.close()


@pytest.fixture
def wait_for() -> Callable[..., object]:
    """The ``wait_event`` helper as a fixture (test modules do not import conftest)."""
    return wait_event


@pytest.fixture
def until() -> Callable[..., object]:
    """The ``wait_until`` helper as a fixture."""
    return wait_until
