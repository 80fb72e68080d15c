"""Arcanum bots: random-legal and heuristic play full games from their seat's view; the heuristic
(playing for the Houses it hides) beats random play clearly."""

from __future__ import annotations

import random

import pytest

from p2ptarot.bots import make
from p2ptarot.engine import RandomDealer, create, play


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_finish_games(players: int, bot: str) -> None:
    state = create("arcanum", players)
    out = play(state, [make(bot, f"{bot}:{s}") for s in range(players)], RandomDealer(random.Random(players)))
    assert out.winners and len(out.scores) == players and state.is_over()


def test_heuristic_beats_random_clearly() -> None:
    """One heuristic seat (rotating) against three random bots, 80 four-player games.

    Measured for this seed: the heuristic seat wins 53 of 80 (66 %) where a fair share is 25 %;
    the bar of 40 % leaves about three standard deviations (sd ≈ 5.5 %)."""
    wins = 0
    games = 80
    for i in range(games):
        seat = i % 4
        agents = [make("heuristic" if s == seat else "random", f"h:{i}:{s}") for s in range(4)]
        out = play(create("arcanum", 4), agents, RandomDealer(random.Random(f"h:{i}")))
        wins += seat in out.winners
    assert wins / games >= 0.40, wins
