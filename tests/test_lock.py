"""The environment `make demo` and `make test` build is the committed lock of tested versions
(requirements/lock.txt, written by `make lock` from pyproject.toml): the lock covers every range in
pyproject.toml with a version that range allows, pins nothing the project no longer asks for, checks
every download by hash, and is what is installed here."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.support.lockfile_script import lockfile

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "lock.txt"
PROJECT_VIA = ("p2ptarot (pyproject.toml)", "-r build-system")


def _lockfile():
    return lockfile()


def _project_requirements() -> list[Requirement]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    texts = pyproject["project"]["dependencies"] + pyproject["project"]["optional-dependencies"]["test"] \
        + pyproject["build-system"]["requires"]
    return [Requirement(t) for t in texts]


def test_every_range_of_pyproject_is_locked_at_a_version_it_allows() -> None:
    pins = {p.name: p for p in _lockfile().read_lock(LOCK) if p.applies()}
    for req in _project_requirements():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} is not in {LOCK.name}: run `make lock`"
        assert req.specifier.contains(pins[name].version, prereleases=True), \
            f"{LOCK.name} pins {name}=={pins[name].version}, outside {req}: run `make lock`"


def test_the_lock_pins_nothing_the_project_no_longer_asks_for() -> None:
    asked = {canonicalize_name(r.name) for r in _project_requirements()} | {"pip"}
    for pin in _lockfile().read_lock(LOCK):
        direct = [v for v in pin.via if v in PROJECT_VIA]
        assert pin.via, f"{pin.name}: no `# via` line: was {LOCK.name} edited by hand?"
        if direct:
            assert pin.name in asked, f"{pin.name} is locked for a requirement pyproject.toml dropped: run `make lock`"


def test_every_pin_is_checked_by_hash() -> None:
    pins = _lockfile().read_lock(LOCK)
    assert len(pins) > 40
    for pin in pins:
        assert pin.hashes and all(len(h) == len("sha256:") + 64 for h in pin.hashes), pin.name


def test_the_environment_is_the_lock() -> None:
    """`make venv` installed the lock: a version from anywhere else means the environment was not
    built by the Makefile (or the lock changed since: `make venv` reinstalls it)."""
    wrong = []
    for name, pinned in _lockfile().applicable(LOCK).items():
        try:
            here = version(name)
        except PackageNotFoundError:
            wrong.append(f"{name}: locked {pinned}, not installed")
            continue
        if here != pinned:
            wrong.append(f"{name}: locked {pinned}, installed {here}")
    assert not wrong, wrong
