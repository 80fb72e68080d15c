"""Seat numbers in a presenter's text become the players' names.

A module of its own, below the presenters and the screen: the presenters word their sentences
with it and the screen calls the presenters, so it sits in neither (that was an import cycle)."""

from __future__ import annotations

import re
from typing import Sequence

_SEAT_RE = re.compile(r"\b([Ss])eat (\d+)\b")


def name_seats(text: str, names: Sequence[str]) -> str:
    """'seat 2' (a 0-based seat in a presenter's text) becomes that player's name."""
    def swap(m: re.Match[str]) -> str:
        k = int(m.group(2))
        return names[k] if 0 <= k < len(names) else f"{m.group(1)}eat {k + 1}"
    return _SEAT_RE.sub(swap, text)
