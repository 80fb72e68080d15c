"""The LAN and the online carriers share no run of code (issue 32 item 1): what both need lives
once in the link core (`net/linkset.py`) and its asyncio shell (`net/carrier.py`). A run is six
lines in a row that read the same once stripped of indentation, blank lines and comments: the
same behaviour copied into both carriers would drift (it did before the core)."""

from __future__ import annotations

import re
from pathlib import Path

NET = Path(__file__).resolve().parents[2] / "p2ptarot" / "net"
LAN = ("wsmesh.py", "lan.py")
ONLINE = ("online/mesh.py", "online/channels.py", "online/transport.py", "online/rtc.py")
RUN = 6


def _lines(text: str) -> list[tuple[int, str]]:
    """(line number, normalised text) of the lines that are code."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.strip()
        if code and not code.startswith("#"):
            out.append((number, re.sub(r"\s+", " ", code)))
    return out


def _runs(text: str) -> dict[tuple[str, ...], int]:
    lines = _lines(text)
    return {tuple(t for _, t in lines[i:i + RUN]): lines[i][0]
            for i in range(len(lines) - RUN + 1)}


def shared_runs(left: dict[str, str], right: dict[str, str]) -> list[str]:
    """`left-file:line = right-file:line` for every run of `RUN` code lines found on both sides
    (file name -> text)."""
    seen = {run: f"{name}:{line}" for name, text in left.items()
            for run, line in _runs(text).items()}
    return [f"{seen[run]} = {name}:{line}" for name, text in right.items()
            for run, line in _runs(text).items() if run in seen]


def test_the_lan_and_online_carriers_share_no_run_of_six_lines() -> None:
    read = {name: (NET / name).read_text(encoding="utf-8") for name in LAN + ONLINE}
    found = shared_runs({n: read[n] for n in LAN}, {n: read[n] for n in ONLINE})
    assert found == [], "\n".join(found)


def test_a_copied_run_is_found_whatever_its_indentation() -> None:
    body = "\n".join(f"x{i} = f({i})" for i in range(RUN))
    left = {"a.py": f"def a():\n{body.replace(chr(10), chr(10) + '    ').join(['    ', ''])}\n"}
    right = {"b.py": f"class B:\n    # copied\n\n{body}\n"}
    assert shared_runs(left, right) == ["a.py:2 = b.py:4"]
    assert shared_runs(left, {"c.py": body.replace("f(3)", "g(3)")}) == []
