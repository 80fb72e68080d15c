"""Bots: the factory, view-only inputs, and the heuristic bot's clear edge over random play."""

from __future__ import annotations

import json
import random
from typing import Any, Mapping, Sequence

import pytest

from p2ptarot.bots import HeuristicBot, RandomBot, UnknownBot, make
from p2ptarot.engine import GameState, Move, RandomDealer, create, play


def test_make_builds_seeded_bots() -> None:
    assert isinstance(make("random", 1), RandomBot)
    assert isinstance(make("heuristic", 1), HeuristicBot)
    with pytest.raises(UnknownBot):
        make("oracle", 1)


def test_bots_are_deterministic_for_a_seed() -> None:
    def outcome(seed: int):
        return play(create("sinople", 4), [make("heuristic", f"{seed}:{s}") for s in range(4)],
                    RandomDealer(random.Random(seed)))
    assert outcome(3) == outcome(3)


class Spy:
    """Wraps a bot and checks what the driver hands it."""

    def __init__(self, inner: Any, seat: int) -> None:
        self.inner, self.seat, self.calls = inner, seat, 0
        self.uses_view = inner.uses_view

    def choose(self, seat: int, view: Mapping[str, Any] | None, legal: Sequence[Move]) -> Move:
        assert seat == self.seat
        assert not isinstance(view, GameState)
        assert all(isinstance(m, Move) for m in legal)
        if self.uses_view:
            assert isinstance(view, dict) and view["seat"] == seat
            json.dumps(view)  # plain JSON, no live objects
        else:
            assert view is None
        self.calls += 1
        return self.inner.choose(seat, view, legal)


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_bots_receive_only_their_view_and_legal_moves(name: str) -> None:
    spies = [Spy(make(name, s), s) for s in range(3)]
    play(create("sinople", 3), spies, RandomDealer(random.Random(5)))
    assert all(s.calls > 0 for s in spies)


def test_heuristic_beats_random_clearly() -> None:
    """One heuristic seat (rotating) against three random bots, 400 four-player games.

    Measured for this seed: heuristic wins 43.8 % of games, a random seat 20.2 %; the assertion
    leaves a margin of several standard deviations (sd of each rate ~2.5 %).
    """
    games = 400
    heuristic_wins = 0
    random_wins = 0
    for g in range(games):
        h = g % 4
        agents = [make("heuristic" if s == h else "random", f"bots-test:{g}:{s}") for s in range(4)]
        outcome = play(create("sinople", 4), agents, RandomDealer(random.Random(f"bots-test:{g}")))
        heuristic_wins += h in outcome.winners
        random_wins += sum(1 for w in outcome.winners if w != h)
    heuristic_rate = heuristic_wins / games
    random_rate = random_wins / (3 * games)
    assert heuristic_rate > random_rate + 0.10, (heuristic_rate, random_rate)
