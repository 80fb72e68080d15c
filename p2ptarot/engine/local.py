"""Local, omniscient play: resolve chance with a random generator (or a stacked deck) and let
agents choose moves. Used by `p2ptarot simulate`, tests and benchmarks; no I/O, no crypto.

Over the network the same loop is run by the table session, with the mental-poker layer in the
dealer's place.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from .errors import EngineError
from .state import GameState
from .types import Move, Outcome, RandomChoice, Shuffle, TurnKind


class Agent(Protocol):
    """A player: chooses among legal moves from its own seat's view only."""

    #: False lets the driver skip building the JSON view (random bots do not read it)
    uses_view: bool

    def choose(self, seat: int, view: Mapping[str, Any] | None, legal: Sequence[Move]) -> Move: ...


class Dealer(Protocol):
    """Resolves chance events for an omniscient state."""

    def shuffle(self, state: GameState, request: Shuffle) -> dict[int, str]: ...

    def choice(self, request: RandomChoice) -> int: ...


class RandomDealer:
    """Uniform shuffles and draws from a seeded `random.Random`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, state: GameState, request: Shuffle) -> dict[int, str]:
        cards = list(request.cards) if request.cards else [_known(state, h) for h in request.source]
        self.rng.shuffle(cards)
        return dict(zip(request.handles, cards))

    def choice(self, request: RandomChoice) -> int:
        return self.rng.randrange(request.n)


@dataclass
class StackedDealer:
    """A dealer with a prearranged deck: `orders[(deck, epoch)]` is the card order dealt into the
    handles of that shuffle; `choices` are consumed in order by random draws. Missing entries fall
    back to `fallback` (random) so a test can stack only what it cares about.
    """

    orders: dict[tuple[str, int], Sequence[str]] = field(default_factory=dict)
    choices: list[int] = field(default_factory=list)
    fallback: RandomDealer = field(default_factory=lambda: RandomDealer(random.Random(0)))

    def shuffle(self, state: GameState, request: Shuffle) -> dict[int, str]:
        order = self.orders.get((request.deck, request.epoch))
        if order is None:
            return self.fallback.shuffle(state, request)
        expected = sorted(request.cards) if request.cards else sorted(
            _known(state, h) for h in request.source)
        if sorted(order) != expected:
            raise EngineError(f"stacked order for {request.deck}/{request.epoch} is not a permutation "
                              "of the cards being shuffled")
        return dict(zip(request.handles, order))

    def choice(self, request: RandomChoice) -> int:
        if self.choices:
            value = self.choices.pop(0)
            if not 0 <= value < request.n:
                raise EngineError(f"stacked choice {value} out of range for {request.purpose}")
            return value
        return self.fallback.choice(request)


def _known(state: GameState, handle: int) -> str:
    card = state.cards[handle]
    if card is None:
        raise EngineError("a local dealer needs an omniscient state")
    return card


Observer = Callable[[GameState, int, Move], None]


def play(state: GameState, agents: Sequence[Agent], dealer: Dealer,
         on_move: Observer | None = None, max_steps: int = 1_000_000) -> Outcome:
    """Drive `state` to its end; returns the outcome. `on_move(state_before, seat, move)`.

    Simultaneous and interrupt turns are collected first (each seat decides on the same state,
    blind to the others), then applied in the listed seat order, exactly as the table protocol does.
    An interrupt window stops applying responses as soon as the turn changes.
    """
    for _ in range(max_steps):
        turn = state.turn()
        kind = turn.kind
        if kind is TurnKind.OVER:
            outcome = state.outcome()
            assert outcome is not None
            return outcome
        if kind is TurnKind.CHANCE:
            chance = turn.chance
            if isinstance(chance, Shuffle):
                state.resolve_chance(dealer.shuffle(state, chance))
            else:
                assert isinstance(chance, RandomChoice)
                state.resolve_chance(dealer.choice(chance))
            continue
        if kind is TurnKind.REVEAL:
            state.resolve_reveals()
            continue
        if kind is TurnKind.SEAT:
            seat = turn.seats[0]
            legal = _legal(state, seat)
            move = _choose(state, agents[seat], seat, legal)
            if on_move:
                on_move(state, seat, move)
            # one of the engine's own objects, listed on this very state: no second check
            state.apply(seat, move, listed=any(m is move for m in legal))
            continue
        # simultaneous and interrupt turns: the earlier answers change the state, so each
        # later one is checked again on the state it is applied to
        decided = [(seat, _choose(state, agents[seat], seat, _legal(state, seat)))
                   for seat in turn.seats]
        for seat, move in decided:
            if kind is TurnKind.INTERRUPT and state.turn() != turn:
                break
            if on_move:
                on_move(state, seat, move)
            state.apply(seat, move)
    raise EngineError("game did not end within max_steps")


def _legal(state: GameState, seat: int) -> list[Move]:
    legal = state.legal_moves(seat)
    if not legal:
        raise EngineError(f"{state.NAME}: seat {seat} must act but has no legal move")
    return legal


def _choose(state: GameState, agent: Agent, seat: int, legal: list[Move]) -> Move:
    view = state.view(seat) if agent.uses_view else None
    return agent.choose(seat, view, legal)
