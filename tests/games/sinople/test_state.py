"""Random legal play for 2–5 players: conservation of cards, 9 rounds, figures won + removed = 9,
every class point in play, the two-player child never removed. Replay determinism, clones and
the agreement of every partial-knowledge state are the generic contract test's
(tests/engine/test_contract.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.bots import RandomBot
from p2ptarot.engine import RandomDealer, TurnKind, create
from p2ptarot.games.sinople.rules import FIGURE_IDS, HAND_SIZE, NUMERIC_IDS

from .support import record


def random_game(players: int, seed: int):
    state = create("sinople", players)
    rng = random.Random(seed)
    events = record(state, [RandomBot(rng) for _ in range(players)], RandomDealer(rng))
    return state, events


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_cards_conserved_and_game_shape(players: int, seed: int) -> None:
    state, events = random_game(players, seed)
    assert state.turn().kind is TurnKind.OVER
    assert len(state.history) == 9
    h = HAND_SIZE[players]
    plays = [ev[2] for ev in events if ev[0] == "move" and ev[2].KIND == "play"]
    assert len(plays) == 9 * players * h
    numeric_handles = len(state.cards) - 9
    assert numeric_handles == 9 * 30
    for r in range(9):
        handles = range(9 + 30 * r, 9 + 30 * (r + 1))
        assert sorted(state.cards[x] for x in handles) == sorted(NUMERIC_IDS)
        played = [m.card for m in plays[r * players * h:(r + 1) * players * h]]
        assert len(set(played)) == players * h
        won = [c for pile in state.history[r]["won"] for c in pile]
        assert sorted(won) == sorted(played)
        surplus = set(NUMERIC_IDS) - set(played)
        assert len(surplus) == 30 - players * h
    outcome = state.outcome()
    assert outcome is not None
    figures = [f for figs in outcome.detail["figures"] for f in figs] + outcome.detail["removed"]
    assert sorted(figures) == sorted(FIGURE_IDS)
    assert sum(outcome.scores) + len(outcome.detail["removed"]) == 9
    if players != 4:  # §7: all class points are in play
        assert all(sum(r["points"]) == 45 for r in state.history)
    assert state.pending_claims() == []


def test_two_player_child_is_never_removed() -> None:
    for seed in range(20):
        state, _ = random_game(2, seed)
        for r in state.history:
            if r["figure"].endswith("child"):
                assert r["winner"] is not None
