"""The record of a pending decision (rules §4): what the flow (`engine.flow`, turn.py) asks.

Why a generator flow: an Arcanum activation nests effects (a minor's location effect, a major's
move-and-activate that triggers a location, hand-limit discards after every draw); straight-line
generators keep each rule next to its paragraph (spec/ENGINE.md, the generator flow).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Ctx:
    """What the pending decision is about; legality and checks dispatch on `name`."""

    name: str
    actor: int = -1
    data: dict[str, Any] = field(default_factory=dict)
    answers: dict[int, Any] = field(default_factory=dict)
