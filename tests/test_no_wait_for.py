"""No `asyncio.wait_for` in the package: on Python 3.11 it returns the awaited result instead of
raising when a cancellation lands after that result was ready but before the waiting task ran,
so a loop around it outlives its cancellation (a host never exited: peer/heal.py).
`asyncio.timeout` has no such window."""

from __future__ import annotations

import ast
from pathlib import Path

import p2ptarot

PACKAGE = Path(p2ptarot.__file__).parent


def test_the_package_never_calls_wait_for() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr == "wait_for" \
                    and isinstance(node.value, ast.Name) and node.value.id == "asyncio":
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not found, found
