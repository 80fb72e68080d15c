"""Every file the repository names exists inside the repository (issue 25 item 4).

Scans the code, the specification, the protocol files, the benchmarks, the tests and the README
for file references — paths such as `spec/PROTOCOL.md`, `p2ptarot/table/rounds.py`,
`../shared/rules/roses.md` and bare names such as `verify_cmd.py` or `CRYPTO-NOTES.md` — and fails
on any whose target is missing or lies outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("p2ptarot", "spec", "protocol", "benchmarks", "tests", "README.md")
#: prose and code; not JSON (a schema's `$id` is a name, not a path)
TEXT = {".py", ".md", ".js", ".html", ".css", ".toml", ".txt", ""}
EXT = r"(?:md|py|json|js|html|css|toml|sh|txt)"
#: a path with at least one slash, or a bare file name
REF = re.compile(
    r"(?<![\w./:@{}-])((?:\.\./|\./)*(?:[A-Za-z_][\w.-]*/)+[\w-][\w.-]*\." + EXT
    + r"|[A-Za-z_][\w-]*(?:\.[\w-]+)*\." + EXT + r")(?![\w/-])")
#: names the project writes that are not files of this repository: the Python attributes and
#: modules of other projects, URL tails and names a test builds on purpose
NOT_FILES = re.compile(
    r"(?:^|/)results/|"  # what a benchmark writes when it runs
    r"(?:^|/)(?:tmp|var|proc|etc|usr|dev|home|run)/")  # system paths
#: a section of a project document named without its ending (`PROTOCOL §7`, `DESIGN §9`)
DOC_SECTION = re.compile(r"\b([A-Z][A-Z-]{2,})\s?§")
#: in code a bare `name.ext` is usually an attribute (`args.json`, `page.js`): there a bare name
#: counts only in backticks or as a Markdown document
CODE_BARE = re.compile(r"`([\w-]+(?:\.[\w-]+)*\." + EXT + r")`|(?<![\w./:@-])([\w-]+\.md)(?![\w/-])")


def _files() -> list[Path]:
    found: list[Path] = []
    for name in SCANNED:
        top = ROOT / name
        if top.is_file():
            found.append(top)
            continue
        for path in sorted(top.rglob("*")):
            if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts \
                    and "results" not in path.relative_to(ROOT).parts[:2]:
                found.append(path)
    return found


def _basenames() -> set[str]:
    names: set[str] = set()
    for path in ROOT.rglob("*"):
        if ".git" not in path.parts and ".venv" not in path.parts:
            names.add(path.name)
    return names


def _exists(ref: str, where: Path, names: set[str]) -> bool:
    if "/" not in ref:
        return ref in names
    for base in (where.parent, ROOT):
        target = (base / ref).resolve()
        if target.is_relative_to(ROOT) and target.exists():
            return True
    if ref.startswith("."):
        return False
    # a path written from its package or folder (`arcana/fool.py` in spec/games/arcanoid.md)
    return any(not {".git", ".venv"} & set(p.parts) for p in ROOT.glob("**/" + ref))


def dangling() -> list[str]:
    """`file:line: reference` for every reference whose target is missing."""
    names = _basenames()
    missing: list[str] = []
    for path in _files():
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            refs = REF.findall(line)
            if path.suffix == ".py":
                refs = [r for r in refs if "/" in r]
                refs += [a or b for a, b in CODE_BARE.findall(line)]
            refs += [f"{name}.md" for name in DOC_SECTION.findall(line)]
            for ref in refs:
                if NOT_FILES.search(ref) or _exists(ref, path, names):
                    continue
                missing.append(f"{path.relative_to(ROOT)}:{number}: {ref}")
    return missing


def test_every_referenced_file_exists() -> None:
    assert dangling() == []


def test_a_missing_file_is_caught(tmp_path: Path) -> None:
    names = _basenames()
    assert not _exists("spec/NOWHERE.md", ROOT / "README.md", names)
    assert not _exists("../shared/rules/roses.md", ROOT / "spec" / "games" / "roses.md", names)
    assert _exists("spec/PROTOCOL.md", ROOT / "README.md", names)
    assert REF.findall("see `CRYPTO-NOTES.md` and shared/rules/roses.md §3") == [
        "CRYPTO-NOTES.md", "shared/rules/roses.md"]
    assert DOC_SECTION.findall("(DESIGN §9; PROTOCOL §7)") == ["DESIGN", "PROTOCOL"]
    assert not _exists("DESIGN.md", ROOT / "README.md", names)
    line = OTHER_DOC.sub("", "PROTOCOL §7.2; rules §4.13, R20, PD-T3, P1")
    assert SECTION.findall(line) == ["4.13"]
    assert [x for x in LABEL.findall(line) if not NOT_RULINGS.match(x)] == ["R20", "PD-T3"]


#: each game package and the spec page that quotes the rules sections its code cites
GAME_SPECS = {"sinople": "sinople", "arcanoid": "arcanoid", "arcanum": "arcanum", "eleusis": "eleusis",
              "trois_roses": "roses", "paris_divins": "roses"}
#: `§n` of another document (PROTOCOL §7, spec/ENGINE.md §1): not the rules'
OTHER_DOC = re.compile(r"(?:PROTOCOL|SECURITY|ENGINE|MENTAL|APP|ERL|\.md),?\s?§\s?[\d.]+")
SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)")
#: a ruling or case label: R10, A57, TR6, PD-T3, K1
LABEL = re.compile(r"\b([A-Z]{1,2}(?:-[A-Z])?\d+)\b")
#: labels in code that are not the rules': seats (P1…), a linter's rule number
NOT_RULINGS = re.compile(r"^(?:P\d+|C901)$")


def uncited(package: str) -> list[str]:
    """The rules sections and labels the package's code cites that its spec page never names."""
    spec = (ROOT / "spec" / "games" / f"{GAME_SPECS[package]}.md").read_text(encoding="utf-8")
    named = set(SECTION.findall(spec)) | set(LABEL.findall(spec))
    missing: set[str] = set()
    for path in sorted((ROOT / "p2ptarot" / "games" / package).rglob("*.py")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = OTHER_DOC.sub("", line.split("# noqa")[0])
            missing |= {f"§{s}" for s in SECTION.findall(line) if s not in named}
            missing |= {x for x in LABEL.findall(line) if x not in named and not NOT_RULINGS.match(x)}
    return sorted(missing)


@pytest.mark.parametrize("package", sorted(GAME_SPECS))
def test_every_rules_citation_is_quoted_in_the_spec(package: str) -> None:
    assert uncited(package) == []
