"""Test helpers: stacked deals, a truth-driven driver for every knowledge mode, record/replay."""

from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

from p2ptarot.engine import (PUBLIC, GameState, Pass, RandomChoice, Shuffle, TurnKind, create)
from tests.games.support import all_modes, record, replay  # noqa: F401 - the sinople tests import them from here
from p2ptarot.games.sinople.moves import Play, Show
from p2ptarot.games.sinople.rules import FIGURE_DECK, FIGURE_IDS, HAND_SIZE, NUMERIC_DECK, NUMERIC_IDS


def card(short: str) -> str:
    """'B7' -> 'num-b-7'."""
    return f"num-{short[0].lower()}-{short[1:]}"


def cards(text: str) -> list[str]:
    return [card(s) for s in text.split()]


def fill_hands(n: int, fixed: dict[int, list[str]], surplus: Sequence[str] = (),
               avoid: dict[int, str] | None = None) -> list[list[str]]:
    """Complete hands: seats keep `fixed` cards; the rest is dealt in id order to seats with room,
    skipping classes a seat must `avoid` (e.g. {1: "a"}: seat 1 gets no further class-A card)."""
    avoid = avoid or {}
    hands = [list(fixed.get(s, [])) for s in range(n)]
    used = {c for h in hands for c in h} | set(surplus)
    rest = [c for c in NUMERIC_IDS if c not in used]
    h = HAND_SIZE[n]
    for c in rest:
        for s in range(n):
            if len(hands[s]) < h and c.split("-")[1] not in avoid.get(s, ""):
                hands[s].append(c)
                break
        else:
            raise ValueError(f"cannot place {c}")
    return hands


def deal_order(hands: list[list[str]], dealer: int, surplus: Sequence[str] = ()) -> list[str]:
    """The shuffled-deck order that deals `hands` (R9: position i -> seat dealer + 1 + i)."""
    n = len(hands)
    order = [hands[(dealer + 1 + i) % n][i // n] for i in range(n * len(hands[0]))]
    return order + list(surplus)


class Truth:
    """Drives any state (omniscient, seat view, observer) from a known stacked game.

    `figures` is the figure pile order; `deals[r]` the numeric deck order of round r (missing
    rounds are random from `rng`). Values are handed to the state only as its mode allows.
    """

    def __init__(self, state: GameState, figures: Sequence[str], first_dealer: int,
                 deals: dict[int, Sequence[str]] | None = None, seed: int = 0) -> None:
        self.state = state
        self.figures = list(figures)
        self.first_dealer = first_dealer
        self.deals = dict(deals or {})
        self.rng = random.Random(seed)
        self.truth: dict[int, str] = {}

    def advance(self) -> None:
        """Resolve chance and reveals until a seat must act or the game is over."""
        st = self.state
        while True:
            turn = st.turn()
            if turn.kind is TurnKind.CHANCE:
                ch = turn.chance
                if isinstance(ch, RandomChoice):
                    st.resolve_chance(self.first_dealer)
                    continue
                assert isinstance(ch, Shuffle)
                if ch.deck == FIGURE_DECK:
                    order = self.figures
                else:
                    assert ch.deck == NUMERIC_DECK
                    order = list(self.deals.get(ch.epoch) or self.rng.sample(NUMERIC_IDS, 30))
                mapping = dict(zip(ch.handles, order))
                self.truth.update(mapping)
                st.resolve_chance(mapping if st.omniscient else {})
            elif turn.kind is TurnKind.REVEAL:
                v = st.viewer
                st.resolve_reveals({r.handle: self.truth[r.handle] for r in turn.reveals
                                    if st.omniscient or r.to == PUBLIC or r.to == v})
            else:
                return

    def handle_of(self, seat: int, card_id: str) -> int:
        for h in self.state.hands[seat]:
            if self.truth[h] == card_id:
                return h
        raise AssertionError(f"seat {seat} does not hold {card_id}")

    def honest_card(self, seat: int) -> str:
        """A legal card for `seat` by the true hand: the first of the led class, else the first."""
        held = [self.truth[h] for h in self.state.hands[seat]]
        led = self.state.led
        follow = [c for c in held if led >= 0 and c.split("-")[1] == "abc"[led]]
        return (follow or held)[0]

    def search(self, liars: Iterable[int] = ()) -> int:
        """Run the opener search truthfully except for `liars` (who pass while holding); returns
        the opener."""
        st = self.state
        liars = set(liars)
        while st.turn().kind is TurnKind.INTERRUPT:
            turn = st.turn()
            for seat in turn.seats:
                if st.turn() != turn:
                    break
                target = f"num-{st.view(None)['round_class']}-{st.search_value}"
                held = [h for h in st.hands[seat] if self.truth[h] == target]
                if held and seat not in liars:
                    st.apply(seat, Show(held[0], target))
                else:
                    st.apply(seat, Pass())
            if st.turn() != turn:
                break
        self.advance()
        return st.opener

    def play(self, *card_ids: str, seat: int | None = None) -> None:
        """Play these cards in order, each by the seat whose turn it is (checked against `seat`)."""
        for c in card_ids:
            st = self.state
            to_play = st.turn().seats[0]
            assert seat is None or seat == to_play, (seat, to_play)
            st.apply(to_play, Play(self.handle_of(to_play, c), c))
        self.advance()


def start(players: int, figures: Sequence[str], dealer: int, deals: dict[int, Sequence[str]],
          viewer: int | None = None, omniscient: bool | None = None) -> Truth:
    t = Truth(create("sinople", players, viewer=viewer, omniscient=omniscient), figures, dealer, deals)
    t.advance()
    return t


def figures_with(first: str, *more: str) -> list[str]:
    head = [first, *more]
    return head + [f for f in FIGURE_IDS if f not in head]


