"""Property: in a random deal, one seat reneges once (plays a card its true hand forbids) and
everyone plays truthfully otherwise. Every state that cannot see the liar's hand accepts the lie
as claims and later blames exactly the liar, at the lie, when the denied card opens — never an
honest seat, never later than the end of the deal. States that see the hand refuse it at once."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.engine import IllegalMove, RandomDealer, TurnKind, create
from p2ptarot.cards.roses_tables import ID, INDEX
from p2ptarot.games.trois_roses.moves import Play
from p2ptarot.games.trois_roses.legal import denials, legal_cards

from tests.games.support import all_modes


def _deal(players: int, seed: int):
    omni = create("trois-roses", players, "single-deal")
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    others = [create("trois-roses", players, "single-deal", **m) for m in all_modes(players)[1:]]
    omni.resolve_chance(dealer.choice(omni.turn().chance))
    for s in others:
        s.resolve_chance(omni.dealer)
    omni.resolve_chance(dealer.shuffle(omni, omni.turn().chance))
    for s in others:
        s.resolve_chance({})
    reveals = omni.turn().reveals
    omni.resolve_reveals()
    for s in others:
        s.resolve_reveals({r.handle: omni.cards[r.handle] for r in reveals if r.to == s.viewer})
    return omni, others, rng


def _truthful(state, truth: list[str], rng: random.Random, lie: bool) -> tuple[int, Play, bool]:
    """The seat to play and a move: legal by its true hand, or (when `lie` and possible) not."""
    seat = state.turn().seats[0]
    hand = {INDEX[truth[h]]: h for h in state.hands[seat]}
    trick = [c for _, _, c in state.trick]
    legal = legal_cards(trick, list(hand))
    illegal = sorted(set(hand) - set(legal))
    card = rng.choice(illegal) if lie and illegal else rng.choice(sorted(legal))
    return seat, Play(hand[card], ID[card]), lie and bool(illegal)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32), lie_after=st.integers(0, 60))
def test_one_renege_is_always_pinned_on_the_liar(players: int, seed: int, lie_after: int) -> None:
    omni, states, rng = _deal(players, seed)
    truth = list(omni.cards)
    decisions = 0
    while omni.turn().kind is TurnKind.SEAT:  # honest play until a renege is possible
        seat, move, lying = _truthful(omni, truth, rng, lie=decisions >= lie_after)
        decisions += 1
        if lying:
            break
        omni.apply(seat, move)
        for s in states:
            s.apply(seat, move)
    else:  # no renege was possible after `lie_after` decisions: an honest deal
        assert all(s.outcome() == omni.outcome() and s.pending_claims() == [] for s in states)
        return
    liar, lie_where = seat, omni._where()
    lie_kinds = {d.kind for d in denials([c for _, _, c in omni.trick], INDEX[move.card])}
    for sees_the_hand in [omni] + [s for s in states if s.viewer == liar]:  # refused at once
        with pytest.raises(IllegalMove) as exc:
            sees_the_hand.apply(liar, move)
        assert exc.value.seat == liar and exc.value.claim is None
    live = [s for s in states if s.viewer != liar]
    for s in live:  # accepted where the liar's hand is hidden: only claims
        s.apply(liar, move)
        assert {c.kind for c in s.pending_claims() if c.seat == liar} >= lie_kinds
    caught: dict[int, IllegalMove] = {}
    while len(caught) < len(live):
        ref = next(s for i, s in enumerate(live) if i not in caught)
        assert ref.turn().kind is TurnKind.SEAT, "the deal ended with the renege undetected"
        seat, move, _ = _truthful(ref, truth, rng, lie=False)
        for i, s in enumerate(live):
            if i in caught:
                continue
            try:
                s.apply(seat, move)
            except IllegalMove as exc:  # only the liar, only for the lie, never an honest seat
                assert exc.seat == liar and exc.where == lie_where, exc
                assert exc.claim is not None and s.claim_log[exc.claim].kind in lie_kinds
                caught[i] = exc
