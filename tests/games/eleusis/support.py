"""Test driver: one omniscient state, one state per seat and a public observer, each fed exactly
what it may know (as the table protocol does), with stacked deals and the dealer's truthful or
lying statements."""

from __future__ import annotations

import random
from typing import Any, Sequence

from p2ptarot.cards.standard52 import STANDARD_52X2
from p2ptarot.engine import PUBLIC, Move, Pass, RandomChoice, Shuffle, TurnKind, create
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


class Tables:
    """Every knowledge mode of one game, kept in lockstep."""

    def __init__(self, players: int, options: dict[str, Any] | None = None,
                 orders: dict[tuple[str, int], list[str]] | None = None, seed: int = 0) -> None:
        opts = {"first_dealer": 0, **(options or {})}
        self.players = players
        self.omni = create("eleusis", players, options=opts)
        self.views = [create("eleusis", players, options=opts, viewer=s) for s in range(players)]
        self.observer = create("eleusis", players, options=opts, omniscient=False)
        self.orders = dict(orders or {})
        self.rng = random.Random(seed)
        #: every card value dealt so far, kept by the harness (it plays the mental layer's part)
        self.values: dict[int, str] = {}
        self.dropped: list = []

    @property
    def ref(self):
        """The state whose turn drives the lockstep (the omniscient one while it takes part)."""
        return self.all()[0]

    def drop(self, state) -> None:
        self.dropped.append(state)

    def _shuffle(self, chance: Shuffle) -> dict[int, str]:
        if chance.cards:
            order = self.orders.pop((chance.deck, chance.epoch), None)
            if order is None:
                order = list(chance.cards)
                self.rng.shuffle(order)
            assert sorted(order) == sorted(chance.cards)
        else:
            order = [self.values[h] for h in chance.source]
            self.rng.shuffle(order)
        result = dict(zip(chance.handles, order))
        self.values.update(result)
        return result

    def all(self) -> list:
        return [st for st in (self.omni, *self.views, self.observer) if st not in self.dropped]

    def partial(self) -> list:
        return [st for st in (*self.views, self.observer) if st not in self.dropped]

    def auto(self) -> None:
        """Resolve chance and reveals until a seat must move (or the game is over)."""
        while True:
            turn = self.ref.turn()
            if turn.kind is TurnKind.CHANCE:
                chance = turn.chance
                if isinstance(chance, RandomChoice):
                    value = self.rng.randrange(chance.n)
                    for st in self.all():
                        st.resolve_chance(value)
                else:
                    assert isinstance(chance, Shuffle)
                    result = self._shuffle(chance)
                    for st in self.all():
                        st.resolve_chance(result if st.omniscient else {})
            elif turn.kind is TurnKind.REVEAL:
                for st in self.all():
                    seat = st.viewer
                    st.resolve_reveals({r.handle: self.values[r.handle] for r in turn.reveals
                                        if st.omniscient or r.to == PUBLIC or r.to == seat})
            else:
                return

    def move(self, seat: int, move: Move, states: list | None = None) -> None:
        """Apply `seat`'s move to every state (a commitment's value only where it is known)."""
        for st in states if states is not None else self.all():
            m = move
            if isinstance(move, Commit) and st.viewer != seat and not st.omniscient:
                m = Commit(move.name, "")
            st.apply(seat, m)
        self.auto()

    def seat(self) -> int:
        return self.ref.turn().seats[0]

    def truthful(self) -> Move:
        """The seat's first legal move in its own peer's state (the dealer's: the true one)."""
        seat = self.seat()
        return self.views[seat].legal_moves(seat)[0]

    def start(self, rule: str, hints: tuple[str, ...] = ()) -> None:
        self.auto()
        dealer = self.seat()
        self.move(dealer, Commit(self.omni.secret_name(), rule))
        self.move(dealer, Hint(hints, ""))

    def start_blind(self, rule: str) -> None:
        """Start with only the states that do not know the rule: the omniscient state and the
        dealer's own peer (both would refuse a lie at once) leave the lockstep."""
        self.drop(self.omni)
        self.drop(self.views[self.omni.dealer])
        self.start(rule)

    def play_first(self) -> None:
        """The current player plays the first card of his hand."""
        seat = self.seat()
        h = self.ref.hands[seat][0]
        self.move(seat, Play((h,), (self.values[h],)))

    def play(self, *shorts: str) -> None:
        """The current player plays these cards (by short name, found in his hand)."""
        seat = self.seat()
        handles = tuple(self.handle(seat, s) for s in shorts)
        self.move(seat, Play(handles, tuple(self.values[h] for h in handles)))

    def no_play(self) -> None:
        seat = self.seat()
        hand = tuple(self.ref.hands[seat])
        self.move(seat, NoPlay(hand, tuple(self.values[h] for h in hand)))

    def handle(self, seat: int, short: str) -> int:
        base = cid(short).split("#")[0]
        for h in self.ref.hands[seat]:
            if self.values[h].split("#")[0] == base:
                return h
        raise AssertionError(f"seat {seat} does not hold {short}")

    def judge(self) -> None:
        """The dealer's truthful statement."""
        self.move(self.seat(), self.truthful())

    def decline(self) -> None:
        """The player who just played does not declare himself Sage (if asked)."""
        if self.ref.phase_name() == "sage-window":
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
    while t.ref.phase_name() != "open":
        phase = t.ref.phase_name()
        seat = t.seat()
        if phase == "play":
            legal = t.views[seat].legal_moves(seat)  # the player's own peer
            singles = [m for m in legal if isinstance(m, Play) and len(m.handles) == 1]
            t.move(seat, rng.choice(singles))
        elif phase == "sage-window":
            t.move(seat, Pass())
        else:
            t.move(seat, oracle_move(t, rule))


def opened(state) -> bool:
    return state.phase_name() != "open" and state.ended


__all__ = ["BASE_DECK", "Judge", "Tables", "cid", "stacked_order"]
