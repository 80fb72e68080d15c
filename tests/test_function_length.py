"""No function over 60 lines in `peer/` and `net/` (issue 32 item 3): the pumps, the lobby and the
carriers read as small steps. A function's length is counted from its `def` line (decorators
excluded) to its last line, docstring and comments included, as a reader sees it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "p2ptarot"
CHECKED = ("peer", "net")
LIMIT = 60


def long_functions(root: Path, limit: int = LIMIT) -> list[str]:
    """`path:line name (n lines)` for every function or method under `root` longer than `limit`
    lines (nested functions are measured on their own, and inside their parent)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found.append(f"{path.relative_to(root.parent.parent)}:{node.lineno} "
                                 f"{node.name} ({length} lines)")
    return found


def test_no_function_over_60_lines_in_peer_and_net() -> None:
    found = [f for package in CHECKED for f in long_functions(PACKAGE / package)]
    assert found == [], "\n".join(found)


def test_the_check_sees_a_long_function(tmp_path: Path) -> None:
    """The measure itself: a 61-line function is found, a 60-line one is not, nested or not."""
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "fits.py").write_text(f"def fits():\n{body}\n", encoding="utf-8")
    (tmp_path / "pkg" / "long.py").write_text(
        f"class C:\n    async def long(self):\n    {body.replace(chr(10), chr(10) + '    ')}\n"
        f"        return 1\n", encoding="utf-8")
    found = long_functions(tmp_path / "pkg")
    assert len(found) == 1 and "long.py:2 long (61 lines)" in found[0], found
