"""§3.8 invariants over random games at every player count (2–12), replay agreement between every
knowledge mode, and what stays hidden (undealt cards, unplayed hands, eliminated hands)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.support import all_modes, moves_of, record, replay

from p2ptarot.bots import HeuristicBot, RandomBot
from p2ptarot.engine import RandomDealer, TurnKind, create


def random_game(players: int, seed: int, bot=RandomBot):
    state = create("paris-divins", players)
    events = record(state, [bot(random.Random(f"{seed}:{s}")) for s in range(players)],
                    RandomDealer(random.Random(seed)))
    return state, events


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
def test_replay_agrees_and_hides_what_the_rules_never_open(players: int, seed: int) -> None:
    state, events = random_game(players, seed)
    played = {m.handle for _, m in moves_of(events)}
    for mode in all_modes(players):
        other = replay(events, create("paris-divins", players, **mode))
        assert other.outcome() == state.outcome(), mode
        assert other.view(None) == state.view(None)
        if other.omniscient:
            continue
        known = {h for h, c in enumerate(other.cards) if c is not None}
        own = set(range(8 * players)[other.viewer::players]) if other.viewer is not None else set()
        assert known == played | own  # undealt cards and unplayed hands stay hidden
        if other.viewer is not None:
            assert other.view(other.viewer) == state.view(other.viewer)


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


def test_heuristic_bots_finish_games_at_every_count() -> None:
    for players in range(2, 13):
        state, _ = random_game(players, players, bot=HeuristicBot)
        assert state.outcome() is not None


#: §3.4 as printed: the categories present -> the winning category
_TABLE = {frozenset({"minor"}): "minor", frozenset({"major"}): "major", frozenset({"divine"}): "divine",
          frozenset({"minor", "major"}): "major", frozenset({"major", "divine"}): "divine",
          frozenset({"minor", "divine"}): "minor", frozenset({"minor", "major", "divine"}): "minor"}


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_every_round_matches_the_printed_rules(players: int, seed: int) -> None:
    """Each recorded round re-derived from §3.3–§3.6 with the card table of p2ptarot.cards."""
    from p2ptarot.cards import ROSES

    state, _ = random_game(players, seed)
    supply, reserve, won = [6] * players, [0] * players, [0] * players
    for r in state.history:
        assert all(supply[s] < (1, 2, 3)[min(won[s], 2)] for s in r["out"])  # PD5
        if not r["played"]:  # PD6: one or no player left
            assert len(state.active) <= 1
            continue
        stakes = {int(s): a for s, a in r["stakes"].items()}
        assert all(a == (1, 2, 3)[min(won[s], 2)] and a <= supply[s] for s, a in stakes.items())
        cards = {int(s): ROSES[c] for s, c in r["cards"].items()}
        category = _TABLE[frozenset(c.category for c in cards.values())]
        assert r["category"] == category
        eligible = [s for s in cards if r["bets"][str(s)] == category]
        winner = max(eligible, key=lambda s: cards[s].strength) if eligible else None
        assert r["winner"] == winner
        if winner is not None:
            won[winner] += 1
            for s, a in stakes.items():
                if s != winner:
                    supply[s] -= a
                    reserve[winner] += a
        assert r["supply"] == supply and r["reserve"] == reserve
    final = [supply[s] + reserve[s] for s in range(players)]
    assert list(state.outcome().scores) == final
