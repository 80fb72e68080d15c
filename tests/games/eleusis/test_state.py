"""Random games of 4–8 participants that also play runs (legal but never listed, so the generic
contract test, which plays listed moves only, never reaches them): every knowledge mode agrees at
every step, no state knows a card it was not shown, a seat knows its own hand, the rule text is
the dealer's own until it opens, cards are conserved, scores follow §4.15 and the deal rotates
(replay determinism and clones: tests/engine/test_contract.py)."""

from __future__ import annotations

import json
import random
from collections import Counter

from .support import Tables
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.engine import PUBLIC, TurnKind
from p2ptarot.games.eleusis.moves import DeclareSage, Pass, Play


def live_cards(state) -> list[str]:
    cards = [state.cards[h] for hand in state.hands for h in hand]
    cards += [p.card for p in state.layout.main]
    cards += [p.card for col in state.layout.side for block in col for p in block]
    cards += [state.cards[h] for h in state.stock]
    if state.phase_name() in ("judge", "sage-call", "dealer-answer") and not state.pending.no_play:
        cards += list(state.pending.cards)
    return cards


def entitled(t: Tables) -> None:
    for seat, view in enumerate(t.views):
        if view in t.dropped:
            continue
        for h, card in enumerate(view.cards):
            if card is not None:
                assert PUBLIC in view.seen[h] or seat in view.seen[h], (seat, h)
        for h in view.hands[seat]:
            assert view.cards[h] is not None
    for h, card in enumerate(t.observer.cards):
        if card is not None:
            assert PUBLIC in t.observer.seen[h]
    omni = t.omni
    if omni.phase_name() not in ("over", "first-dealer") and omni.committed:
        for seat, view in enumerate(t.views):  # the rule text: the dealer's own until it opens
            shown = view.view(seat)["rule"]
            assert shown == (omni.rule_text if seat == omni.dealer else None)
        assert t.observer.view(None)["rule"] is None and t.observer.rule_text is None


def random_run(state, seat: int, rng: random.Random) -> Play:
    hand = list(state.hands[seat])
    chosen = rng.sample(hand, min(len(hand), rng.randint(2, 4)))
    return Play(tuple(chosen), tuple(state.cards[h] for h in chosen))


def play_random(players: int, seed: int, rounds: int, sage_rate: float = 0.3,
                check_every: int = 15) -> Tables:
    t = Tables(players, {"rounds": rounds}, seed=seed)
    rng = random.Random(seed)
    t.auto()
    steps = 0
    while t.ref.turn().kind is not TurnKind.OVER:
        seat = t.seat()
        legal = t.views[seat].legal_moves(seat)
        assert legal, (t.ref.phase_name(), seat)
        if t.ref.phase_name() == "sage-window":
            move = DeclareSage() if rng.random() < sage_rate else Pass()
        elif t.ref.phase_name() == "play" and rng.random() < 0.4:
            move = random_run(t.views[seat], seat, rng)  # runs are legal but not listed
            t.views[seat].check(seat, move)
        else:
            move = rng.choice(legal)
        assert t.ref.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        t.move(seat, move)
        steps += 1
        if steps % check_every == 0:
            t.agree()
            entitled(t)
            omni = t.omni
            if not omni.ended and omni.phase_name() != "over":
                cards = live_cards(omni)
                assert all(c is not None for c in cards)
                assert not [c for c, k in Counter(cards).items() if k > 1]
    t.agree()
    entitled(t)
    return t


@settings(max_examples=12, deadline=None)
@given(players=st.integers(4, 8), seed=st.integers(0, 2**32 - 1))
def test_random_games_agree_in_every_mode(players: int, seed: int) -> None:
    t = play_random(players, seed, rounds=2)
    outcomes = {json.dumps(st.outcome().to_json(), sort_keys=True) for st in t.all()}
    assert len(outcomes) == 1
    omni = t.omni
    for record in omni.records:
        scores = record.scores
        assert len(scores) == players and scores[record.dealer] >= 0
        best = max(s for i, s in enumerate(scores) if i != record.dealer)
        assert scores[record.dealer] <= best
        if record.sage < 0:
            assert scores[record.dealer] == best
        assert min(s for i, s in enumerate(scores) if i != record.dealer) >= 0
    assert sum(omni.dealt) == 2
    json.dumps(omni.view(0))


@settings(max_examples=8, deadline=None)
@given(players=st.integers(4, 8), seed=st.integers(0, 2**32 - 1))
def test_full_games_rotate_the_deal(players: int, seed: int) -> None:
    t = play_random(players, seed, rounds=players, check_every=60)
    omni = t.omni
    assert [r.dealer for r in omni.records] == [(omni.records[0].dealer + i) % players
                                                for i in range(players)]
    assert all(omni.dealt)
    assert list(omni.outcome().scores) == [sum(r.scores[s] for r in omni.records)
                                           for s in range(players)]
