"""The coroutine driver: the round pipeline is written as generators that *yield* what they wait
for (a chance event, reveals, one or several seats' decisions) and receive the answer.

Why: arcanoïd interrupts itself everywhere (a renewal vote in the middle of a Justice draw, a Fool
window inside an engagement, replays, calls, Hermit gaps). Straight-line generator code keeps each
rule next to its paragraph; a hand-written phase machine would scatter it. Generators cannot be
deep-copied, so `clone()` rebuilds the state by replaying its recorded inputs (the engine is
deterministic).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator

from p2ptarot.engine import Reveal, Turn, TurnKind
from p2ptarot.engine.types import Chance

from .model import Ctx


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
