"""`scripts/lockfile.py` (a script, not a package module) loaded for the tests that read the lock."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "lock.txt"


def lockfile() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lockfile", ROOT / "scripts" / "lockfile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("lockfile", module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
