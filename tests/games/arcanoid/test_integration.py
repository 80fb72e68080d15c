"""Registry, JSON round trips of moves and views, and the view-only heuristic bot."""

from __future__ import annotations

import json
import random

import pytest

from p2ptarot.bots.arcanoid import ArcanoidBot
from p2ptarot.engine import BadConfiguration, RandomDealer, TurnKind, create, info, play
from p2ptarot.games.arcanoid import ArcanoidState

from .support import RandomAgent


def test_registry_entry() -> None:
    gi = info("arcanoid")
    assert (gi.min_players, gi.max_players, gi.default_variant) == (2, 10, "DRESDEN")
    assert gi.variant_names[0] == "DRESDEN" and gi.playable_variants()[:2] == ("DRESDEN", "NASSAU")
    assert gi.decks == ("tarot-78/arcanoid",) and gi.title == "Arcanoïd"
    state = create("arcanoid", 5, options={"first_seat": 2})
    assert isinstance(state, ArcanoidState) and state.first_seat == 2
    with pytest.raises(BadConfiguration):
        create("arcanoid", 11)
    with pytest.raises(BadConfiguration):
        create("arcanoid", 4, "BONN")  # no such variant
    for planned in (v.name for v in gi.variants if not v.playable):
        with pytest.raises(BadConfiguration):
            create("arcanoid", 4, planned)


def test_first_player_from_joint_randomness() -> None:
    state = create("arcanoid", 3)
    turn = state.turn()
    assert turn.kind is TurnKind.CHANCE and turn.chance.n == 3  # type: ignore[union-attr]
    state.resolve_chance(2)
    assert state.first_seat == 2


def test_moves_and_views_round_trip_through_json() -> None:
    state = create("arcanoid", 4, options={"first_seat": 0, "rounds": 1})
    rng = random.Random(5)
    agents = [RandomAgent(rng) for _ in range(4)]
    seen_kinds: set[str] = set()

    def on_move(st, seat, move) -> None:
        for m in st.legal_moves(seat)[:50]:
            assert st.move_from_json(json.loads(json.dumps(m.to_json()))) == m
        seen_kinds.add(move.KIND)
        json.dumps(st.view(seat))
        json.dumps(st.view(None))

    play(state, agents, RandomDealer(random.Random(6)), on_move=on_move)
    assert {"discard", "engage", "abdicate"} <= seen_kinds


def test_heuristic_bot_beats_random_bots() -> None:
    wins = 0
    for i in range(8):
        state = create("arcanoid", 4, options={"first_seat": i % 4})
        agents = [ArcanoidBot(random.Random(i)), RandomAgent(random.Random(i + 1)),
                  ArcanoidBot(random.Random(i + 2)), RandomAgent(random.Random(i + 3))]
        outcome = play(state, agents, RandomDealer(random.Random(i)))
        wins += sum(1 for w in outcome.winners if w in (0, 2))
    assert wins >= 6
