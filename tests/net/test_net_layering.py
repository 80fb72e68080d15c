"""Dependencies point downwards (README's layout, issue 21 item 7), read from the source by AST: `net`
is transport only and imports nothing of the peer, the application layer or the front ends; the
peer and the application layer import no front end; the browser front end never imports the
command line (the CLI may start any front end: it is the program)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "p2ptarot"

#: package -> packages of p2ptarot it must never import, at any level (functions included)
FORBIDDEN = {
    "net": ("app", "cli", "peer", "web", "present", "bots"),
    "peer": ("cli", "web"),
    "app": ("peer", "net", "cli", "web"),
    "web": ("cli",),
    "table": ("net", "peer", "app", "cli", "web"),
}


def imported(path: Path, root: Path) -> list[tuple[int, str]]:
    """Every module `path` imports (absolute names; relative imports resolved), with its line."""
    tree = ast.parse(path.read_text(), str(path))
    package = ".".join(path.relative_to(root.parent).with_suffix("").parts[:-1])
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            out.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names)
    return out


def violations(layer: str, root: Path = PACKAGE) -> list[str]:
    found = []
    for path in sorted((root / layer).rglob("*.py")):
        for line, name in imported(path, root):
            parts = name.split(".")
            if len(parts) > 1 and parts[0] == "p2ptarot" and parts[1] in FORBIDDEN[layer]:
                found.append(f"{path.relative_to(root)}:{line} imports {name}")
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    assert (PACKAGE / layer).is_dir()
    assert violations(layer) == []


def test_the_check_sees_relative_and_function_level_imports(tmp_path: Path) -> None:
    """The scanner itself: a function-level relative import of a forbidden package is found."""
    root = tmp_path / "p2ptarot"
    (root / "net").mkdir(parents=True)
    probe = "net/" + "probe.py"  # a module the test writes (split: not a file of the repo)
    (root / probe).write_text(
        "def f():\n    from ..app import table\n    import p2ptarot.peer.game\n")
    assert violations("net", root) == [f"{probe}:2 imports p2ptarot.app",
                                       f"{probe}:2 imports p2ptarot.app.table",
                                       f"{probe}:3 imports p2ptarot.peer.game"]
