"""Generator-driven game flow, shared by the games that write their rules as coroutines.

A game's flow is a generator that *yields* what it waits for (a chance event, reveals, one or
several seats' decisions) and receives the answer. Why: rules that interrupt themselves (arcanoïd's
windows and votes, Arcanum's nested activations) stay next to their paragraph in straight-line
code instead of being scattered over a hand-written phase machine. Generators cannot be
deep-copied, so a state built this way clones by replaying its recorded inputs (the engine is
deterministic).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator

from .types import Chance, Reveal, Turn, TurnKind


@dataclass(frozen=True)
class AskChance:
    """Wait for a shuffle or a joint draw."""

    chance: Chance


@dataclass(frozen=True)
class AskReveal:
    """Wait until these handles are known to their receivers."""

    reveals: tuple[Reveal, ...]


@dataclass(frozen=True)
class Ask:
    """Wait for one or several seats' decisions; `ctx` is the game's own record of what about."""

    kind: TurnKind
    seats: tuple[int, ...]
    ctx: Any


@dataclass(frozen=True)
class Done:
    """The flow has ended: the game is over."""


Request = AskChance | AskReveal | Ask | Done
Flow = Generator[Request, Any, Any]


def turn_of(req: Request) -> Turn:
    """The engine `Turn` a pending request stands for."""
    if isinstance(req, AskChance):
        return Turn(TurnKind.CHANCE, chance=req.chance)
    if isinstance(req, AskReveal):
        return Turn(TurnKind.REVEAL, reveals=req.reveals)
    if isinstance(req, Ask):
        return Turn(req.kind, seats=req.seats)
    return Turn(TurnKind.OVER)
