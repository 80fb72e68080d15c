"""One game shape (issue 25): every registered game's package has the same files with the same
roles, registers itself from an `__init__.py` that does nothing else, and has no import cycle
inside it — counting imports made inside functions, which is where a cycle used to hide.
Imports under `if TYPE_CHECKING:` (annotations only, never run) are not edges."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from p2ptarot.engine import games, layer_module

GAMES_ROOT = Path(__file__).resolve().parents[2] / "p2ptarot" / "games"
#: the files every game has, each with one role (spec/ENGINE.md "The shape of a game")
REQUIRED = ("__init__.py", "rules.py", "moves.py", "state.py", "view.py", "scoring.py")
PACKAGES = sorted(gi.package for gi in games())
#: a role that has one name in every game: the old names it had in some (issue 25) must not return
OLD_NAMES = {"checks.py": "legal.py", "obligations.py": "legal.py", "stakes.py": "legal.py",
             "cardinfo.py": "rules.py or cards/<game>_tables.py", "components.py": "rules.py",
             "tables.py": "rules.py", "phases.py": "rules.py", "winner.py": "scoring.py",
             "driver.py": "model.py", "records.py": "battle.py (arcanoïd)"}
#: where a game's legality is its own module, that module is `legal.py` (sinople's sits in state.py)
LEGAL = ("arcanoid", "arcanum", "eleusis", "paris_divins", "trois_roses")
#: the one form a module cites its rules document in: "rules §4.2" (or the game's spec/games page)
CITATION = re.compile(r"rules §\d|spec/games/\w+\.md")


def test_every_package_under_games_is_a_registered_game() -> None:
    on_disk = sorted(p.name for p in GAMES_ROOT.iterdir() if (p / "__init__.py").exists())
    assert on_disk == PACKAGES


@pytest.mark.parametrize("package", PACKAGES)
def test_the_same_files_with_the_same_roles(package: str) -> None:
    files = {p.name for p in (GAMES_ROOT / package).iterdir()}
    assert [f for f in REQUIRED if f not in files] == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_role_under_an_old_name(package: str) -> None:
    found = {p.name for p in (GAMES_ROOT / package).rglob("*.py")} & set(OLD_NAMES)
    if package == "eleusis":
        found.discard("records.py")  # Eleusis's round records: the name is its role
    assert {name: OLD_NAMES[name] for name in found} == {}


@pytest.mark.parametrize("package", LEGAL)
def test_legality_is_legal_py(package: str) -> None:
    tree = ast.parse((GAMES_ROOT / package / "legal.py").read_text(encoding="utf-8"))
    assert ast.get_docstring(tree)


def test_arcanoid_battle_resolution_is_battle_py() -> None:
    """Rules §4 (battles) has its own module, named after the section; Record lives with it."""
    tree = ast.parse((GAMES_ROOT / "arcanoid" / "battle.py").read_text(encoding="utf-8"))
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert {"Record", "battle_key", "field_winner"} <= names


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_cites_its_section_in_one_form(package: str) -> None:
    """The docstring's first paragraph cites "rules §n" (or the game's spec page), never a bare
    leading "§n"."""
    wrong = []
    for path in sorted((GAMES_ROOT / package).rglob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        head = doc.split("\n\n", 1)[0]
        if not CITATION.search(head) or head.startswith("§"):
            wrong.append(f"{path.relative_to(GAMES_ROOT)}: {head[:70]}")
    assert wrong == []


@pytest.mark.parametrize("package", PACKAGES)
def test_init_only_registers(package: str) -> None:
    tree = ast.parse((GAMES_ROOT / package / "__init__.py").read_text(encoding="utf-8"))
    calls = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Call), ast.unparse(node)
        calls.append(ast.unparse(node.value.func))
    assert calls == ["register"]


@pytest.mark.parametrize("package", PACKAGES)
def test_the_observer_is_view_build_view(package: str) -> None:
    """The observer is one function per game, `view.build_view(state, seat)`; the state's
    `view` only calls it."""
    tree = ast.parse((GAMES_ROOT / package / "view.py").read_text(encoding="utf-8"))
    assert "build_view" in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("package", PACKAGES)
def test_presenter_and_bots_are_found_by_convention(package: str) -> None:
    name = next(gi.name for gi in games() if gi.package == package)
    for layer in ("present", "bots"):
        module = layer_module(name, layer)
        assert module is not None and module.__name__ == f"p2ptarot.{layer}.{package}"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(n) for n in ast.walk(node))
    return hidden


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, game: str,
             modules: set[str]) -> set[str]:
    """The modules of this game that an import statement loads."""
    prefix = f"p2ptarot.games.{game}"
    found: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name == prefix or alias.name.startswith(prefix + "."):
                found.add(alias.name[len(prefix):].lstrip("."))
        return found & modules
    if node.level:
        base = module.split(".") if module else []
        if not is_package:
            base = base[:-1]
        base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
        target = ".".join(base + ([node.module] if node.module else []))
    elif node.module and (node.module == prefix or node.module.startswith(prefix + ".")):
        target = node.module[len(prefix):].lstrip(".")
    else:
        return found
    for alias in node.names:
        sub = f"{target}.{alias.name}".lstrip(".")
        found.add(sub if sub in modules else target)
    return found & modules


def import_graph(game: str) -> dict[str, set[str]]:
    """Module -> the modules of the same game it imports (at top level or inside a function)."""
    root = GAMES_ROOT / game
    paths = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in paths}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hidden = _type_checking_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in hidden:
                graph[module] |= _targets(node, module, path.name == "__init__.py", game,
                                          set(paths)) - {module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_inside_a_game(package: str) -> None:
    assert cycles(import_graph(package)) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_function_level_import_of_the_game_itself(package: str) -> None:
    """An import inside a function is how a cycle hides; a game imports its own modules at the
    top (so the graph above is the whole truth)."""
    root = GAMES_ROOT / package
    inside: list[str] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and (
                        node.level or (node.module or "").startswith(f"p2ptarot.games.{package}")):
                    inside.append(f"{path.relative_to(root)}: {ast.unparse(node)}")
    assert inside == []


def test_the_graph_sees_a_cycle_and_a_function_level_import() -> None:
    """The checker itself: a cycle through a function-level import is found."""
    graph = {"state": {"view"}, "view": {"state"}, "rules": set()}
    assert cycles(graph) == [["state", "view"]]
    tree = ast.parse("def f():\n    from .state import X\n")
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    assert _targets(node, "view", False, "g", {"state", "view"}) == {"state"}
