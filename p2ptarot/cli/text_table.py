"""Plain text tables for the terminal (results, standings, replays): no event loop needed."""

from __future__ import annotations

from typing import Any, Sequence


def table(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> list[str]:
    """A plain text table with aligned columns."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  " + "  ".join("-" * w for w in widths))
    return lines
