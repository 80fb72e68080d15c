"""Reads requirements/lock.txt (written by scripts/lock), and, run as a script, prints the
installed packages whose version differs from it (`make test-latest`)."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from importlib.metadata import distributions
from pathlib import Path

from packaging.markers import Marker
from packaging.utils import canonicalize_name

PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


@dataclass
class Pin:
    """One locked package: its exact version, the marker saying where it applies, its hashes and
    what asked for it (`# via` lines: another package, or the project itself)."""

    name: str
    version: str
    marker: str | None
    hashes: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)

    def applies(self) -> bool:
        return self.marker is None or Marker(self.marker).evaluate()


def read_lock(path: Path) -> list[Pin]:
    pins: list[Pin] = []
    in_via = False
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not line.startswith((" ", "#")) and stripped:
            m = PIN.match(stripped)
            if m is None:
                raise ValueError(f"{path}: not a pinned requirement: {line!r}")
            pins.append(Pin(canonicalize_name(m.group(1)), m.group(2), m.group(3)))
            in_via = False
        elif stripped.startswith("--hash=") and pins:
            pins[-1].hashes.append(stripped.split("=", 1)[1].rstrip(" \\"))
        elif stripped.startswith("# via") and pins:
            rest = stripped[len("# via"):].strip()
            in_via = not rest
            if rest:
                pins[-1].via.append(rest)
        elif in_via and stripped.startswith("#   ") and pins:
            pins[-1].via.append(stripped[4:].strip())
    return pins


def applicable(path: Path) -> dict[str, str]:
    """name -> version of the pins that apply to this interpreter and platform."""
    return {p.name: p.version for p in read_lock(path) if p.applies()}


def diff(path: Path) -> int:
    locked = applicable(path)
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in distributions()}
    changed = sorted((n, v, installed[n]) for n, v in locked.items()
                     if n in installed and installed[n] != v)
    new = sorted(set(installed) - set(locked) - {"p2ptarot"})
    for name, old, now in changed:
        print(f"test-latest: {name} {old} (lock) -> {now}")
    for name in new:
        print(f"test-latest: {name} {installed[name]} (not in the lock)")
    if not changed and not new:
        print("test-latest: the newest releases are the locked ones")
    return 0


if __name__ == "__main__":
    raise SystemExit(diff(Path(sys.argv[1])))
