"""Fixtures every test directory may use, and the order and grouping of the tests under xdist."""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from netns_rig import Rig, open_rig
from xdist.scheduler import LoadScopeScheduling

#: the file where the workers tell the controller which tests share a fixture (set by the
#: controller before it starts them; absent in a run without xdist)
GROUPS_FILE = "P2PTAROT_TEST_GROUPS"

# Hypothesis times each example and the drawing of its data; on a loaded machine (CI shares two
# cores between the workers and the peers they start) both can exceed its wall-clock limits,
# which says nothing about the property. Every example still runs and every assertion holds;
# only the timing checks go (a test's own @settings can still ask for them).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


@pytest.fixture
def netns() -> Iterator[Rig]:
    """A virtual network in namespaces of this test's own, removed afterwards whatever happened.
    Without root (or iproute2/nftables) this raises: the test fails, it does not skip."""
    rig = open_rig()
    try:
        yield rig
    finally:
        rig.close()


#: each test's seconds in a recent run (scripts/test-durations writes it; only tests of 0.5 s
#: or more): an order, never an assertion
DURATIONS = Path(__file__).with_name("durations.json")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The `slow` tests (processes, networks, browsers: 10-70 s each) run first, then the other
    tests sharing a finished game (`_shared_groups`: each group is handed to one worker whole, so
    at the very end it would leave the other idle), the rest after them; within each band the
    longest first, by DURATIONS (a group by its tests' sum), unknown ones last in their order.
    Under `pytest -n 2` both workers then end on quick tests together, not one on a long test
    the other waits for: the last CI run started a 72 s browser game halfway and ended on an
    11 s type check (a stable sort on a committed file: every worker collects the same order,
    as xdist requires)."""
    groups = _shared_groups(items)
    took = _durations()
    by_group: dict[str, float] = {}
    for item in items:
        if item.nodeid in groups:
            group = groups[item.nodeid]
            by_group[group] = by_group.get(group, 0.0) + took.get(item.nodeid, 0.0)

    def seconds(item: pytest.Item) -> float:
        group = groups.get(item.nodeid)
        return by_group[group] if group is not None else took.get(item.nodeid, 0.0)

    def band(item: pytest.Item) -> int:
        return 0 if item.get_closest_marker("slow") is not None else 1 if item.nodeid in groups else 2

    items.sort(key=lambda item: (band(item), -seconds(item)))
    where = os.environ.get(GROUPS_FILE)
    if where and hasattr(config, "workerinput"):  # every worker writes the same: the last one stays
        spare = Path(f"{where}.{os.getpid()}")
        spare.write_text(json.dumps(groups))
        os.replace(spare, where)


def _durations() -> dict[str, float]:
    """DURATIONS, or nothing (every test keeps its band's collection order) when unreadable."""
    try:
        data = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in data.items()
            if isinstance(k, str) and isinstance(v, (int, float))} if isinstance(data, dict) else {}


def _shared_groups(items: list[pytest.Item]) -> dict[str, str]:
    """{nodeid: group} of every test using a fixture of tests/ wider than a function (a finished
    game shared by a module or the session), joined with every test sharing one with it."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    shared: dict[str, list[str]] = {}
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        keys = sorted(f"{defs[-1].baseid}::{name}" for name, defs in
                      (info.name2fixturedefs.items() if info is not None else ())
                      if defs and defs[-1].scope != "function"
                      and getattr(defs[-1].func, "__module__", "").startswith("tests."))
        for key in keys[1:]:
            parent[find(key)] = find(keys[0])
        if keys:
            shared[item.nodeid] = keys
    return {nodeid: "shared " + re.sub(r"\W+", "_", find(keys[0])) for nodeid, keys in shared.items()}


class SharedFixtureScheduling(LoadScopeScheduling):
    """`--dist load` handing each worker the next test when it is free, except that the tests
    sharing a module- or session-scoped fixture go to one worker together: it builds the shared
    game once, where one-test-at-a-time scheduling had both workers build it. (xdist's own
    `xdist_group` cannot do it under pytest 9: it renames node ids, which pytest 9 no longer
    allows.) Without the workers' groups file every test is its own unit: plain `--dist load`."""

    def __init__(self, config: pytest.Config, log: object = None) -> None:
        super().__init__(config, log)
        config.option.loadscopereorder = False  # units in collection order: the slow tests first
        self._groups: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self._groups is None:  # first asked once every worker has collected (and written it)
            try:
                self._groups = json.loads(Path(os.environ[GROUPS_FILE]).read_text())
            except (KeyError, OSError, ValueError):
                self._groups = {}
        return self._groups.get(nodeid, nodeid)


def _controller(config: pytest.Config) -> bool:
    """This process hands tests to xdist workers (the workers run with `dist` "no")."""
    return config.getoption("dist", "no") != "no" and bool(config.getoption("tx", None))


def pytest_configure(config: pytest.Config) -> None:
    if _controller(config):  # before it starts the workers, which inherit the environment
        fd, where = tempfile.mkstemp(prefix="p2ptarot-test-groups-", suffix=".json")
        os.close(fd)
        os.environ[GROUPS_FILE] = where


def pytest_unconfigure(config: pytest.Config) -> None:
    if _controller(config) and os.environ.get(GROUPS_FILE):
        Path(os.environ.pop(GROUPS_FILE)).unlink(missing_ok=True)


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's (`-p no:xdist` runs without it)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> LoadScopeScheduling | None:
    if config.getoption("dist") != "load":
        return None
    return SharedFixtureScheduling(config, log)
