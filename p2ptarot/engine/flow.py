"""Generator-driven game flow, shared by the games that write their rules as coroutines.

A game's flow is a generator that *yields* what it waits for (a chance event, reveals, one or
several seats' decisions) and receives the answer. Why: rules that interrupt themselves (arcanoïd's
windows and votes, Arcanum's nested activations) stay next to their paragraph in straight-line
code instead of being scattered over a hand-written phase machine. Generators cannot be
deep-copied, so a state built this way clones by replaying its recorded inputs (the engine is
deterministic).
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, Generator, Mapping

from .state import GameState
from .types import PUBLIC, Chance, Move, Reveal, Turn, TurnKind


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


class FlowState(GameState):
    """A `GameState` whose rules are one generator, `_game()`: this class pumps it, once for
    every such game. The pending request is `turn()`; `_apply`, `_resolve_chance` and
    `_resolve_reveals` send the answer in. Every input from outside (moves, chance results,
    reveals, values learnt between them) is logged, so `clone()` rebuilds the state by replaying
    the log into a fresh one; `_busy` tells a value learnt *inside* an input (already replayed
    with it) from one learnt on its own. A subclass sets up its fields, then calls `_start()`.
    """

    def __init__(self, players: int, variant: str | None, options: Mapping[str, Any],
                 omniscient: bool, viewer: int | None) -> None:
        super().__init__(players, variant, options, omniscient, viewer)
        #: ("m", seat, move) | ("c", result) | ("r", values) | ("l", handle, card), in order
        self._log: list[tuple[Any, ...]] = []
        self._busy = 0
        self._req: Request = Done()

    @abstractmethod
    def _game(self) -> Flow:
        """The whole game as one generator of requests."""

    def _start(self) -> None:
        """Run the flow up to its first request (the end of a subclass's `__init__`)."""
        self._flow: Flow = self._game()
        self._req = next(self._flow)

    def _send(self, value: Any) -> None:
        self._req = self._flow.send(value)

    def turn(self) -> Turn:
        return turn_of(self._req)

    def ctx(self) -> Any | None:
        """The game's record of the pending decision (None unless seats are asked)."""
        return self._req.ctx if isinstance(self._req, Ask) else None

    def is_done(self) -> bool:
        return isinstance(self._req, Done)

    def apply(self, seat: int, move: Move, *, listed: bool = False) -> None:
        self._log.append(("m", seat, move))
        self._busy += 1
        try:
            super().apply(seat, move, listed=listed)
        finally:
            self._busy -= 1

    def resolve_chance(self, result: Any) -> None:
        self._log.append(("c", dict(result) if isinstance(result, Mapping) else result))
        self._busy += 1
        try:
            super().resolve_chance(result)
        finally:
            self._busy -= 1

    def resolve_reveals(self, values: Mapping[int, str] | None = None) -> None:
        """Also decides what waited for a card opened to everyone: a value this state knew
        privately is now everyone's (`_on_public`)."""
        self._log.append(("r", dict(values or {})))
        self._busy += 1
        public = [r.handle for r in self.turn().reveals if r.to == PUBLIC]
        try:
            super().resolve_reveals(values)
            for h in public:
                card = self.cards[h]
                if card is not None:
                    self._on_public(h, card)
        finally:
            self._busy -= 1

    def learn(self, handle: int, card: str) -> None:
        if not self._busy:
            self._log.append(("l", handle, card))
        super().learn(handle, card)

    def _apply(self, seat: int, move: Move) -> None:
        self._send((seat, move))

    def _resolve_chance(self, result: Any) -> None:
        self._send(result)

    def _resolve_reveals(self) -> None:
        self._send(None)

    def clone(self) -> "FlowState":
        """Generators cannot be copied: a fresh state replays this one's log (deterministic)."""
        copy = type(self)(self.players, self.variant, self.options, self.omniscient, self.viewer)
        for entry in self._log:
            tag = entry[0]
            if tag == "m":
                copy.apply(entry[1], entry[2])
            elif tag == "c":
                copy.resolve_chance(entry[1])
            elif tag == "r":
                copy.resolve_reveals(entry[1])
            else:
                copy.learn(entry[1], entry[2])
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> "FlowState":
        return self.clone()
