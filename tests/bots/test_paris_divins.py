"""The paris divins heuristic plays from its own view and beats random play (seeded, so stable),
and heuristic bots finish a game at every player count."""

from __future__ import annotations

import random

from p2ptarot.bots import HeuristicBot, RandomBot
from p2ptarot.engine import RandomDealer, create, play


def test_heuristic_beats_random_players() -> None:
    wins = 0
    games = 60
    for i in range(games):
        state = create("paris-divins", 4)
        agents = [HeuristicBot(random.Random(i))] + [RandomBot(random.Random(f"{i}:{s}")) for s in range(1, 4)]
        outcome = play(state, agents, RandomDealer(random.Random(f"deal:{i}")))
        wins += 0 in outcome.winners
    assert wins > games * 0.4  # a random seat wins (or shares) about a third of the time


def test_heuristic_bots_finish_games_at_every_count() -> None:
    for players in range(2, 13):
        state = create("paris-divins", players, None)
        bots = [HeuristicBot(random.Random(f"{players}:{s}")) for s in range(players)]
        assert play(state, bots, RandomDealer(random.Random(players))) is not None
        assert state.outcome() is not None
