"""Property tests over random legal play, 2–10 players: no card duplicated or lost, the game ends,
and a partial-knowledge replay (any viewer, plus the audit) reaches the same outcome."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2ptarot.engine import create

from .helpers import random_game, replay_partial


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32 - 1))
def test_random_play_conserves_cards_and_ends(players: int, seed: int) -> None:
    state = random_game(players, seed, check=True, rounds=2)
    out = state.outcome()
    assert out is not None and len(out.scores) == players
    assert sum(out.scores) == 4 * 2  # one winner per field per round
    assert len(out.winners) == 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32 - 1), viewer=st.integers(-1, 9))
def test_partial_replay_reaches_same_outcome(players: int, seed: int, viewer: int) -> None:
    omni = random_game(players, seed, rounds=2)
    v = None if viewer < 0 else viewer % players
    part = replay_partial(omni, v)
    assert part.outcome() == omni.outcome()
    assert part.view(v)["round_winners"] == omni.view(v)["round_winners"]


def test_clone_replays_to_an_identical_state() -> None:
    state = random_game(4, 7, rounds=1)
    copy = state.clone()
    assert copy.outcome() == state.outcome() and copy.view(0) == state.view(0)
    assert copy is not state


def test_views_hide_other_hands() -> None:
    state = create("arcanoid", 3, options={"first_seat": 0})
    from .helpers import Table  # noqa: F401  (a plain random start is enough here)
    from p2ptarot.engine import RandomDealer, TurnKind
    import random
    dealer = RandomDealer(random.Random(3))
    while state.turn().kind in (TurnKind.CHANCE, TurnKind.REVEAL):
        if state.turn().kind is TurnKind.CHANCE:
            state.resolve_chance(dealer.shuffle(state, state.turn().chance))
        else:
            state.resolve_reveals()
    view = state.view(1)
    hands = {p["pid"]: p["hand"] for p in view["participants"]}
    assert all(c["card"] is not None for c in hands[1])
    assert all(c["card"] is None for c in hands[0] + hands[2])
    import json
    json.dumps(view)
