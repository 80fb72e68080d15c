"""§2.9 invariants over random legal games at every player count, and the one card per deal the
rules never open. Agreement of the omniscient state, every seat's view and the public observer
(outcomes, views, no claim found false after the audit) is the generic contract test's
(tests/engine/test_contract.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from p2ptarot.bots import RandomBot
from p2ptarot.engine import RandomDealer, TurnKind, create
from p2ptarot.cards.roses_tables import INDEX, IS_ROSE, POINTS
from p2ptarot.games.trois_roses import trick
from p2ptarot.games.trois_roses.rules import TROIS_ROSES

from ..support import all_modes, moves_of, record, replay


def random_game(players: int, seed: int, variant: str | None = None):
    state = create("trois-roses", players, variant)
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(f"{seed}:{s}")) for s in range(players)]
    return state, record(state, bots, RandomDealer(rng))


@settings(max_examples=12, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32))
def test_invariants_of_every_deal(players: int, seed: int) -> None:
    state, events = random_game(players, seed)
    assert state.turn().kind is TurnKind.OVER
    size = TROIS_ROSES.hand_size[players]
    plays = [m for _, m in moves_of(events)]
    assert len(plays) == players * players * size  # n deals, every dealt card played
    assert len(state.history) == players
    assert [d["dealer"] for d in state.history] == [(state.history[0]["dealer"] + k) % players
                                                    for k in range(players)]
    for k, deal in enumerate(state.history):
        cards = [INDEX[m.card] for m in plays[k * players * size:(k + 1) * players * size]]
        assert len(set(cards)) == len(cards)
        set_aside = set(range(96)) - set(cards)
        assert len(set_aside) == 96 - players * size  # 5 players: one card, never played
        assert sum(deal["points"]) == 165 - sum(POINTS[c] for c in set_aside)
        assert sum(deal["roses"]) == 3 - sum(1 for c in set_aside if IS_ROSE[c])
        for t in range(size):  # every trick: n cards, at most 2 excused (the World and one divine)
            one = cards[t * players:(t + 1) * players]
            assert len(one) == players and len(trick.excused(one)) <= 2
    outcome = state.outcome()
    assert outcome is not None
    assert list(outcome.scores) == [sum(d["scores"][s] for d in state.history) for s in range(players)]
    assert max(outcome.scores) == outcome.scores[outcome.winners[0]]
    assert state.pending_claims() == []


@settings(max_examples=6, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32))
def test_only_the_set_aside_card_stays_hidden(players: int, seed: int) -> None:
    state, events = random_game(players, seed, "single-deal")
    for mode in all_modes(players)[1:]:
        other = replay(events, create("trois-roses", players, "single-deal", **mode))
        hidden = [h for h, c in enumerate(other.cards) if c is None]
        assert len(hidden) == 96 - players * TROIS_ROSES.hand_size[players], mode


def test_a_full_five_player_match_never_opens_its_five_set_aside_cards() -> None:
    state, events = random_game(5, 11)
    assert len(state.history) == 5
    for mode in all_modes(5)[1:]:
        other = replay(events, create("trois-roses", 5, **mode))
        assert sum(c is None for c in other.cards) == 5, mode
