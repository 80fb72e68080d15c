"""The coroutine driver: the game is written as generators that yield what they wait for (a chance
event, reveals, one or several seats' decisions) and receive the answer.

Why: an Arcanum activation nests effects (a minor's location effect, a major's move-and-activate
that triggers a location, hand-limit discards after every draw). Straight-line generators keep each
rule next to its paragraph. The requests are the generic ones of `p2ptarot.engine.flow`; this
module adds Arcanum's decision context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2ptarot.engine.flow import Ask, AskChance, AskReveal, Done, Flow, Request, turn_of


@dataclass
class Ctx:
    """What the pending decision is about; legality and checks dispatch on `name`."""

    name: str
    actor: int = -1
    data: dict[str, Any] = field(default_factory=dict)
    answers: dict[int, Any] = field(default_factory=dict)


__all__ = ["Ask", "AskChance", "AskReveal", "Ctx", "Done", "Flow", "Request", "turn_of"]
