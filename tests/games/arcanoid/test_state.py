"""Random legal play, 2–10 players: no card duplicated or lost at any move, one winner per field
per round (rules §4). Clones, partial-knowledge replays and hidden hands are the generic contract
test's (tests/engine/test_contract.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .support import random_game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32 - 1))
def test_random_play_conserves_cards_and_ends(players: int, seed: int) -> None:
    state = random_game(players, seed, check=True, rounds=2)
    out = state.outcome()
    assert out is not None and len(out.scores) == players
    assert sum(out.scores) == 4 * 2  # one winner per field per round
    assert len(out.winners) == 1

