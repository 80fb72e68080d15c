"""Names loaded on first use (p2ptarot/_lazy.py): every package that defers its imports gives
back each of its public names, lists them, and refuses a name it does not have."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

PACKAGES = ["p2ptarot.crypto", "p2ptarot.net", "p2ptarot.net.online", "p2ptarot.app", "p2ptarot.cli"]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_lazy_name_loads_and_is_listed(package: str) -> None:
    module = importlib.import_module(package)
    names = getattr(module, "_LAZY", None) or module._EXPORTS
    for name in names:
        assert getattr(module, name) is not None, name
        assert name in dir(module)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018


def test_a_lazy_name_is_not_imported_before_its_first_use() -> None:
    code = ("import sys, p2ptarot.net.online as o; before = 'aiortc' in sys.modules; o.OnlineMesh; "
            "print(before, 'aiortc' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "True"], out.stderr


def test_the_event_types_do_not_load_the_presenters() -> None:
    """A bot peer imports `app.events` (issue 36): `MoveOption` is the only name it would take from
    `present`, and it loads on first use, from the module and from the package alike."""
    code = ("import sys, p2ptarot.app as a, p2ptarot.app.events as e; before = 'p2ptarot.present' in sys.modules; "
            "print(before, a.MoveOption is e.MoveOption is sys.modules['p2ptarot.present.options'].MoveOption)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "True"], out.stderr
