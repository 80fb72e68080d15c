"""§3.8 invariants over random games at every player count (2–12), the deal, and what the rules
never open (undealt cards, unplayed hands, eliminated hands). Agreement between the knowledge
modes, outcomes and views are the generic contract test's (tests/engine/test_contract.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.bots import RandomBot
from p2ptarot.engine import RandomDealer, TurnKind, create


from ..support import all_modes, moves_of, replay
from .support import random_game


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_invariants_hold_at_every_round(players: int, seed: int) -> None:
    state = create("paris-divins", players)
    dealer = RandomDealer(random.Random(seed))
    bots = [RandomBot(random.Random(f"{seed}:{s}")) for s in range(players)]
    total = 6 * players
    last_supply, last_reserve = list(state.supply), list(state.reserve)
    while state.turn().kind is not TurnKind.OVER:
        turn = state.turn()
        if turn.kind is TurnKind.CHANCE:
            state.resolve_chance(dealer.shuffle(state, turn.chance))  # type: ignore[arg-type]
            continue
        if turn.kind is TurnKind.REVEAL:
            state.resolve_reveals()
            continue
        # a round is staked: the stakes on the table make up the difference
        assert sum(state.supply) + sum(state.reserve) + sum(state.stakes.values()) == total
        assert all(state.supply[s] + state.stakes.get(s, 0) <= last_supply[s] for s in range(players))
        assert all(state.reserve[s] >= last_reserve[s] for s in range(players))
        assert {len(state.hands[s]) for s in state.active} == {8 - state.round_no}
        assert set(state.stakes) == set(state.active) == set(turn.seats)
        for s in state.active:
            assert state.stakes[s] == (1, 2, 3)[min(state.rounds_won[s], 2)] and state.supply[s] >= 0
        last_supply = [state.supply[s] + state.stakes.get(s, 0) for s in range(players)]
        last_reserve = list(state.reserve)
        decided = [(s, bots[s].choose(s, None, state.legal_moves(s))) for s in turn.seats]
        for s, m in decided:
            state.apply(s, m)
    outcome = state.outcome()
    assert outcome is not None and sum(outcome.scores) == total and sum(state.supply) == 0
    assert all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
    assert len(state.active) <= 1 or state.round_no == 8
    assert sorted(state.active + state.eliminated) == list(range(players))


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_replay_hides_what_the_rules_never_open(players: int, seed: int) -> None:
    state, events = random_game(players, seed)
    played = {m.handle for _, m in moves_of(events)}
    for mode in all_modes(players)[1:]:
        other = replay(events, create("paris-divins", players, **mode))
        known = {h for h, c in enumerate(other.cards) if c is not None}
        own = set(range(8 * players)[other.viewer::players]) if other.viewer is not None else set()
        assert known == played | own  # undealt cards and unplayed hands stay hidden


def test_twelve_players_deal_the_whole_deck_in_one_shuffle_and_one_reveal() -> None:
    state = create("paris-divins", 12)
    turn = state.turn()
    assert turn.kind is TurnKind.CHANCE and len(turn.chance.handles) == 96
    state.resolve_chance(RandomDealer(random.Random(1)).shuffle(state, turn.chance))
    deal = state.turn()
    assert deal.kind is TurnKind.REVEAL and len(deal.reveals) == 96
    assert sorted(r.to for r in deal.reveals) == sorted(list(range(12)) * 8)
    state.resolve_reveals()
    assert state.turn().kind is TurnKind.SIMULTANEOUS and state.turn().seats == tuple(range(12))


def test_two_players_deal_sixteen_and_leave_eighty_undealt() -> None:
    state = create("paris-divins", 2)
    state.resolve_chance(RandomDealer(random.Random(2)).shuffle(state, state.turn().chance))
    assert len(state.turn().reveals) == 16

