"""Test driver: one omniscient state, one state per seat and a public observer, each fed exactly
what it may know (as the table protocol does), with stacked deals and the dealer's truthful or
lying statements."""

from __future__ import annotations

import random
from typing import Any, Sequence

from p2ptarot.cards.standard52 import STANDARD_52X2
from p2ptarot.engine import (PUBLIC, Move, Pass, RandomChoice, RandomDealer, Shuffle, StackedDealer,
                             TurnKind, create)
from p2ptarot.games.eleusis.moves import Commit, Hint, Judge, NoPlay, Open, Play
from p2ptarot.games.eleusis.state import BASE_DECK


def cid(short: str, copy: int = 1) -> str:
    """'H3' -> 'hearts-3#1', 'S13' -> 'spades-13#1', 'H2#2' -> 'hearts-2#2'."""
    if "#" in short:
        short, copy_text = short.split("#")
        copy = int(copy_text)
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[short[0]]
    return f"{suit}-{short[1:]}#{copy}"


def stacked_order(players: int, dealer: int, hands: dict[int, Sequence[str]], starter: str,
                  stock: Sequence[str] = ()) -> list[str]:
    """A deck order that deals `hands` (seat -> card ids, completed with other cards), the
    `starter`, then `stock` on top of the stock."""
    order = [(dealer + 1 + i) % players for i in range(players - 1)]
    fixed = {c for cards in hands.values() for c in cards} | {starter} | set(stock)
    rest = [c for c in STANDARD_52X2.ids if c not in fixed]
    full = {s: list(hands.get(s, ())) for s in order}
    for s in order:
        while len(full[s]) < 14:
            full[s].append(rest.pop(0))
    deal = [full[order[i % len(order)]][i // len(order)] for i in range(14 * len(order))]
    return deal + [starter] + list(stock) + rest


class DealOnce(StackedDealer):
    """A stacked deal; reshuffles of a "no play" hand (same deck epoch) are random."""

    def shuffle(self, state, request: Shuffle) -> dict[int, str]:
        if request.source:
            return self.fallback.shuffle(state, request)
        return StackedDealer.shuffle(self, state, request)


class Tables:
    """Every knowledge mode of one game, kept in lockstep."""

    def __init__(self, players: int, options: dict[str, Any] | None = None,
                 dealer: StackedDealer | RandomDealer | None = None) -> None:
        opts = {"first_dealer": 0, **(options or {})}
        self.players = players
        self.omni = create("eleusis", players, options=opts)
        self.views = [create("eleusis", players, options=opts, viewer=s) for s in range(players)]
        self.observer = create("eleusis", players, options=opts, omniscient=False)
        self.dealer = dealer or RandomDealer(random.Random(0))
        #: the omniscient state is not told the rule (it then records claims like a peer)
        self.blind_omniscient = False
        self.dropped: list = []

    def all(self) -> list:
        return [st for st in (self.omni, *self.views, self.observer) if st not in self.dropped]

    def partial(self) -> list:
        return [st for st in (*self.views, self.observer) if st not in self.dropped]

    def auto(self) -> None:
        """Resolve chance and reveals until a seat must move (or the game is over)."""
        while True:
            turn = self.omni.turn()
            if turn.kind is TurnKind.CHANCE:
                chance = turn.chance
                if isinstance(chance, RandomChoice):
                    value = self.dealer.choice(chance)
                    for st in self.all():
                        st.resolve_chance(value)
                else:
                    assert isinstance(chance, Shuffle)
                    self.omni.resolve_chance(self.dealer.shuffle(self.omni, chance))
                    for st in self.partial():
                        st.resolve_chance({})
            elif turn.kind is TurnKind.REVEAL:
                self.omni.resolve_reveals()
                for s, st in enumerate(self.views):
                    if st in self.dropped:
                        continue
                    st.resolve_reveals({r.handle: self.omni.cards[r.handle] for r in turn.reveals
                                        if r.to in (PUBLIC, s)})
                self.observer.resolve_reveals({r.handle: self.omni.cards[r.handle]
                                               for r in turn.reveals if r.to == PUBLIC})
            else:
                return

    def move(self, seat: int, move: Move, states: list | None = None) -> None:
        """Apply `seat`'s move to every state (a commitment's value only where it is known)."""
        for st in states if states is not None else self.all():
            m = move
            if isinstance(move, Commit) and st.viewer != seat and (
                    st is not self.omni or self.blind_omniscient):
                m = Commit(move.name, "")
            st.apply(seat, m)
        self.auto()

    def seat(self) -> int:
        return self.omni.turn().seats[0]

    def truthful(self) -> Move:
        """The dealer's (or anyone's) first legal move in the omniscient state."""
        return self.omni.legal_moves(self.seat())[0]

    def start(self, rule: str, hints: tuple[str, ...] = ()) -> None:
        self.auto()
        dealer = self.seat()
        self.move(dealer, Commit(self.omni.secret_name(), rule))
        self.move(dealer, Hint(hints, ""))

    def start_blind(self, rule: str) -> None:
        """Start with a rule no state but the dealer's own knows; the dealer's own peer (which
        would refuse a lie) leaves the lockstep."""
        self.blind_omniscient = True
        self.start(rule)
        self.dropped.append(self.views[self.omni.dealer])

    def play_first(self) -> None:
        """The current player plays the first card of his hand."""
        seat = self.seat()
        h = self.omni.hands[seat][0]
        self.move(seat, Play((h,), (self.omni.cards[h],)))

    def play(self, *shorts: str) -> None:
        """The current player plays these cards (by short name, found in his hand)."""
        seat = self.seat()
        handles = tuple(self.handle(seat, s) for s in shorts)
        self.move(seat, Play(handles, tuple(self.omni.cards[h] for h in handles)))

    def no_play(self) -> None:
        seat = self.seat()
        hand = tuple(self.omni.hands[seat])
        self.move(seat, NoPlay(hand, tuple(self.omni.cards[h] for h in hand)))

    def handle(self, seat: int, short: str) -> int:
        base = cid(short).split("#")[0]
        for h in self.omni.hands[seat]:
            if self.omni.cards[h].split("#")[0] == base:
                return h
        raise AssertionError(f"seat {seat} does not hold {short}")

    def judge(self) -> None:
        """The dealer's truthful statement."""
        self.move(self.seat(), self.truthful())

    def decline(self) -> None:
        """The player who just played does not declare himself Sage (if asked)."""
        if self.omni.phase_name() == "sage-window":
            self.move(self.seat(), Pass())

    def open(self) -> None:
        dealer = self.seat()
        self.move(dealer, Open(self.omni.secret_name(), self.omni.rule_text))

    def agree(self) -> None:
        """Every state shows the same public view and each seat the same own view."""
        public = self.omni.view(None)
        for st in self.partial():
            assert st.view(None) == public
            assert st.turn() == self.omni.turn()
        for s, st in enumerate(self.views):
            if st not in self.dropped:
                assert st.view(s) == self.omni.view(s)


def oracle_move(t: Tables, rule: str) -> Move:
    """The dealer's truthful statement, computed from a copy of the observer told the rule."""
    oracle = t.observer.clone()
    oracle._learn_rule(rule)
    return oracle.legal_moves(t.seat())[0]


def finish_round(t: Tables, rule: str, seed: int = 0) -> None:
    """Play on until the rule must open: random plays, truthful dealer, nobody declares."""
    rng = random.Random(seed)
    while t.omni.phase_name() != "open":
        phase = t.omni.phase_name()
        seat = t.seat()
        if phase == "play":
            legal = t.omni.legal_moves(seat)
            singles = [m for m in legal if isinstance(m, Play) and len(m.handles) == 1]
            t.move(seat, rng.choice(singles))
        elif phase == "sage-window":
            t.move(seat, Pass())
        else:
            t.move(seat, oracle_move(t, rule))


def opened(state) -> bool:
    return state.phase_name() != "open" and state.ended


__all__ = ["BASE_DECK", "Judge", "Tables", "cid", "stacked_order"]
