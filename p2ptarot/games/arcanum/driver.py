"""The coroutine driver: the game is written as generators that yield what they wait for (a chance
event, reveals, one or several seats' decisions) and receive the answer.

Why: an Arcanum activation nests effects (a minor's location effect, a major's move-and-activate
that triggers a location, hand-limit discards after every draw). Straight-line generators keep each
rule next to its paragraph. Generators cannot be deep-copied, so `clone()` replays inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generator

from p2ptarot.engine import Reveal, Turn, TurnKind
from p2ptarot.engine.types import Chance


@dataclass
class Ctx:
    """What the pending decision is about; legality and checks dispatch on `name`."""

    name: str
    actor: int = -1
    data: dict[str, Any] = field(default_factory=dict)
    answers: dict[int, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AskChance:
    chance: Chance


@dataclass(frozen=True)
class AskReveal:
    reveals: tuple[Reveal, ...]


@dataclass(frozen=True)
class Ask:
    kind: TurnKind
    seats: tuple[int, ...]
    ctx: Ctx


@dataclass(frozen=True)
class Done:
    pass


Request = AskChance | AskReveal | Ask | Done
Flow = Generator[Request, Any, Any]


def turn_of(req: Request) -> Turn:
    if isinstance(req, AskChance):
        return Turn(TurnKind.CHANCE, chance=req.chance)
    if isinstance(req, AskReveal):
        return Turn(TurnKind.REVEAL, reveals=req.reveals)
    if isinstance(req, Ask):
        return Turn(req.kind, seats=req.seats)
    return Turn(TurnKind.OVER)
