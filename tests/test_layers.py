"""The layers, declared once and enforced (issue 32 item 5): README's layout lists every package of
`p2ptarot` lowest first, this test holds the same list, and a module imports only from its own
package or a package listed before it. The package's root modules (`__init__`, `_lazy`,
`_startup`, `_deferred_tls`) sit below every package and import none.

Every kind of edge counts, read from the source by AST: imports at module level, inside
functions and under `TYPE_CHECKING`; `engine.layer_module(game, "<layer>")`, which loads
`p2ptarot.<layer>.<game>` for every game; `importlib.import_module` (an argument the test cannot
resolve fails it); and the submodules a package loads on first use (`_lazy.lazy_names`). Over the
same edges, no two modules import each other, directly or around a loop (a cycle inside a package
is as much a tangle as one between packages).

Why peer above app: the application layer (`app/`) is the sans-I/O words and commands between a
table and its front ends; the peer (`peer/`) drives a table over the network and feeds the
application layer what happened — the peer depends on the app, never the other way round."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "p2ptarot"

#: every package of p2ptarot, lowest first (README's layout lists the same, in this order)
LAYERS = ("i18n", "cards", "crypto", "mental", "engine", "games", "table", "transcript", "bots",
          "present", "net", "app", "peer", "web", "cli")

#: the one edge against the order, and why: the registry imports the game packages by name so
#: that each registers itself (engine names no game; a seventh game is one new package)
UPWARD = {("p2ptarot.engine.registry", "p2ptarot.games")}

#: the modules whose `import_module` calls are the mechanism itself, counted elsewhere, and why
MECHANISMS = {
    "p2ptarot._lazy": "it loads what a package's lazy_names table names: each table is read",
    "p2ptarot.engine.registry": "it loads the game packages (the one edge UPWARD allows) and, in "
                                "layer_module, the layer a caller names: each call is read",
}

def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _resolve(relative: str, package: str) -> str:
    """`importlib.util.resolve_name`, without importing anything."""
    level = len(relative) - len(relative.lstrip("."))
    if not level:
        return relative
    base = package.split(".")[: len(package.split(".")) - level + 1]
    rest = relative[level:]
    return ".".join(base + ([rest] if rest else []))


def _constants(tree: ast.Module) -> dict[str, ast.expr]:
    """The module-level `NAME = <expr>` assignments (their last value)."""
    out: dict[str, ast.expr] = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        for target in targets:
            if isinstance(target, ast.Name):
                out[target.id] = node.value  # type: ignore[assignment]
    return out


def _text(node: ast.expr, constants: dict[str, ast.expr], package: str) -> str | None:
    """A string argument as far as it is known: a constant, a module-level constant, or the
    constant start of an f-string followed by "*" (`{__package__}` counts as known); None if
    nothing is known."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in ("__name__", "__package__"):
        return package
    if isinstance(node, ast.Name) and node.id in constants:
        return _text(constants[node.id], constants, package)
    if isinstance(node, ast.JoinedStr):
        known = ""
        for value in node.values:
            part = _text(value.value if isinstance(value, ast.FormattedValue) else value,
                         constants, package)
            if part is None:
                return known + "*" if known else None
            known += part
        return known
    return None


@functools.lru_cache(maxsize=None)
def edges(root: Path = PACKAGE) -> tuple[dict[str, set[str]], list[str]]:
    """Each module's imports of other modules of the package, by every kind of edge, and the
    dynamic imports whose target could not be read."""
    found = modules(root)
    games = sorted(p.name for p in (root / "games").iterdir() if (p / "__init__.py").is_file()) \
        if (root / "games").is_dir() else []
    out: dict[str, set[str]] = {}
    unresolved: list[str] = []
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        package = _package_of(name, path)
        constants = _constants(tree)
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _resolve("." * node.level + (node.module or ""), package)
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in found]
                targets.update(subs)
                if len(subs) < len(node.names):
                    targets.add(base)
            elif isinstance(node, ast.Call):
                func = node.func.attr if isinstance(node.func, ast.Attribute) else \
                    node.func.id if isinstance(node.func, ast.Name) else ""
                where = f"{path.relative_to(root.parent)}:{node.lineno}"
                if func == "layer_module" and len(node.args) == 2:
                    layer = _text(node.args[1], constants, package)
                    if layer is None:
                        unresolved.append(f"{where}: layer_module of an unknown layer")
                    else:
                        targets.update(f"{root.name}.{layer}.{game}" for game in games)
                elif func == "import_module" and node.args and name not in MECHANISMS:
                    text = _text(node.args[0], constants, package)
                    anchor = _text(node.args[1], constants, package) if len(node.args) > 1 else package
                    if not text or anchor is None:
                        unresolved.append(f"{where}: import_module of an unknown module")
                        continue
                    if text.endswith("*"):  # f"{package}.{name}": any module under it
                        prefix = _resolve(text[:-1], anchor)
                        targets.update(m for m in found if m.startswith(prefix))
                    else:
                        targets.add(_resolve(text, anchor))
                elif func == "lazy_names" and len(node.args) == 2:
                    table = node.args[1]
                    table = constants.get(table.id, table) if isinstance(table, ast.Name) else table
                    if not isinstance(table, ast.Dict):
                        unresolved.append(f"{where}: lazy_names of an unknown table")
                        continue
                    for value in table.values:
                        if isinstance(value, ast.Call) and len(value.args) == 2 and \
                                isinstance(value.func, ast.Attribute) and value.func.attr == "fromkeys":
                            value = value.args[1]  # **dict.fromkeys(names, "module")
                        text = _text(value, constants, package)
                        if text is None:
                            unresolved.append(f"{where}: lazy_names of an unknown module")
                            continue
                        targets.add(_resolve(text if text.startswith(".") else "." + text, package))
        # a module's own ancestors are its parents (Python loads them first anyway), not edges
        out[name] = {t for t in targets if t in found and t != name and not name.startswith(t + ".")}
    return out, unresolved


def layer_of(module: str) -> str | None:
    """The package a module belongs to, or None for a root module."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in LAYERS) else None


def violations(graph: dict[str, set[str]]) -> list[str]:
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    found = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            here, there = layer_of(source), layer_of(target)
            if here == there or (source, ".".join(target.split(".")[:2])) in UPWARD:
                continue
            if there is None:  # a root module: every package may use it
                continue
            if here is None or here not in rank or there not in rank or rank[there] > rank[here]:
                found.append(f"{source} imports {target}")
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def readme_layers() -> list[str]:
    """The packages README's layout lists under `p2ptarot/`, in its order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    lines = block.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("p2ptarot/"))
    names = []
    for line in lines[start + 1:]:
        if line and not line.startswith(" "):
            break
        match = re.match(r"  ([a-z0-9_]+)/ ", line)
        if match:
            names.append(match[1])
    return names


def test_every_package_is_listed_once_in_order_in_the_readme_and_here() -> None:
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert sorted(LAYERS) == packages
    assert readme_layers() == list(LAYERS)


def test_every_dynamic_import_is_read() -> None:
    assert edges()[1] == []


def test_a_package_imports_only_packages_below_it() -> None:
    assert violations(edges()[0]) == []


def test_the_root_modules_import_no_package() -> None:
    graph = edges()[0]
    roots = [m for m in graph if layer_of(m) is None]
    assert "p2ptarot._lazy" in roots and "p2ptarot" in roots
    assert [f"{m} imports {t}" for m in roots for t in graph[m] if layer_of(t) is not None] == []


def without_upward(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph less the edges UPWARD allows (the registry's loading of the games)."""
    return {source: {t for t in targets if (source, ".".join(t.split(".")[:2])) not in UPWARD}
            for source, targets in graph.items()}


def test_no_import_cycle() -> None:
    """Not even a type-only one: the games' helper modules are typed against a protocol of their
    state (`ViewSource`, `arcanum.api.ArcanumGame`, `arcanoid.rules.ArcanoidGame`), not the state
    class that imports them."""
    assert cycles(without_upward(edges()[0])) == []


# ---- the scanner itself -------------------------------------------------------------------------
def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "p2ptarot"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in {p.parent for p in root.rglob("*.py")} | {root}:
        (folder / "__init__.py").touch()
    return root


def test_the_scanner_sees_function_level_type_checking_and_relative_imports(tmp_path: Path) -> None:
    # (the files the test writes are named in two parts: tests/docs reads whole ones as the repo's)
    root = _tree(tmp_path, {
        "net/" + "probe.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from ..app import table\n"
                        "def f():\n    import p2ptarot.peer.game\n",
        "app/table.py": "", "peer/game.py": ""})
    graph = edges(root)[0]
    assert graph["p2ptarot.net.probe"] == {"p2ptarot.app.table", "p2ptarot.peer.game"}
    assert violations(graph) == ["p2ptarot.net.probe imports p2ptarot.app.table",
                                 "p2ptarot.net.probe imports p2ptarot.peer.game"]


def test_the_scanner_sees_layer_module_importlib_and_lazy_names(tmp_path: Path) -> None:
    """The cycle issue 32 names: present/screen -> presenter -(layer_module)-> sinople -> screen."""
    root = _tree(tmp_path, {
        "games/sinople/rules.py": "",
        "present/screen.py": "from .presenter import presenter\n",
        "present/presenter.py": "from p2ptarot.engine import layer_module\n"
                                "def presenter(game):\n    return layer_module(game, 'present')\n",
        "present/sinople.py": "def f():\n    from .screen import name_seats\n",
        "cli/main.py": "import importlib\nimportlib.import_module(f'{__package__}.play')\n"
                       "importlib.import_module(where())\n",
        "cli/" + "play.py": "",
        "net/__init__.py": "from p2ptarot._lazy import lazy_names\n_EXPORTS = {'Mesh': 'mesh'}\n"
                           "__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)\n",
        "net/" + "mesh.py": ""})
    graph, unresolved = edges(root)
    assert graph["p2ptarot.present.presenter"] >= {"p2ptarot.present.sinople"}
    assert graph["p2ptarot.cli.main"] == {"p2ptarot.cli.play"}
    assert graph["p2ptarot.net"] == {"p2ptarot.net.mesh"}
    assert unresolved == ["p2ptarot/cli/main.py:3: import_module of an unknown module"]
    assert cycles(graph) == [["p2ptarot.present.presenter", "p2ptarot.present.screen",
                              "p2ptarot.present.sinople"]]


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_is_a_package(layer: str) -> None:
    assert (PACKAGE / layer / "__init__.py").is_file()
