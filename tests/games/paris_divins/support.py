"""Stacked paris divins games driven in several knowledge modes at once."""

from __future__ import annotations

import random
from typing import Any, Sequence

from p2ptarot.bots import RandomBot
from p2ptarot.engine import PUBLIC, GameState, RandomDealer, StackedDealer, TurnKind, create
from p2ptarot.games.paris_divins.moves import Wager
from p2ptarot.cards.roses_tables import DECK, DECK_IDS

from ..support import record


def deal_order(hands: Sequence[Sequence[str]]) -> list[str]:
    """A deck order dealing `hands` (8 cards each; PD1: position i -> seat i mod n), then the rest."""
    n = len(hands)
    dealt = [hands[i % n][i // n] for i in range(8 * n)]
    return dealt + [c for c in DECK_IDS if c not in set(dealt)]


def fill(hands: Sequence[Sequence[str]]) -> list[list[str]]:
    """Complete each hand to 8 cards with unused cards, in deck order."""
    used = {c for h in hands for c in h}
    rest = iter(c for c in DECK_IDS if c not in used)
    return [list(h) + [next(rest) for _ in range(8 - len(h))] for h in hands]


class Game:
    """A stacked game run in the omniscient state and in `modes`."""

    def __init__(self, hands: Sequence[Sequence[str]], modes: Sequence[dict[str, Any]] = ()) -> None:
        n = len(hands)
        self.players = n
        self.dealer = StackedDealer(orders={(DECK, 0): deal_order(hands)})
        self.truth = create("paris-divins", n)
        self.states: list[GameState] = [create("paris-divins", n, **m) for m in modes]
        self.advance()

    def all(self) -> list[GameState]:
        return [self.truth, *self.states]

    def advance(self) -> None:
        t = self.truth
        while True:
            turn = t.turn()
            if turn.kind is TurnKind.CHANCE:
                t.resolve_chance(self.dealer.shuffle(t, turn.chance))  # type: ignore[arg-type]
                for s in self.states:
                    s.resolve_chance({})
            elif turn.kind is TurnKind.REVEAL:
                values = {r.handle: t.cards[r.handle] for r in turn.reveals}
                t.resolve_reveals()
                for s in self.states:
                    s.resolve_reveals({r.handle: values[r.handle] for r in turn.reveals
                                       if r.to in (PUBLIC, s.viewer)})
            else:
                return

    def wager(self, seat: int, card: str, bet: str) -> Wager:
        handle = next(h for h in self.truth.hands[seat] if self.truth.cards[h] == card)
        return Wager(handle, bet)

    def round(self, choices: dict[int, tuple[str, str]]) -> None:
        """Every active seat's (card, bet), applied in seat order in every state."""
        assert self.truth.turn().kind is TurnKind.SIMULTANEOUS
        assert self.truth.turn().seats == tuple(sorted(choices))
        moves = [(s, self.wager(s, *choices[s])) for s in sorted(choices)]
        for st in self.all():
            for seat, move in moves:
                st.apply(seat, move)
        self.advance()


# spec/games/roses.md, rules §3.10 PD-T3: the hands, then per round
PD_T3_HANDS = [
    "minor-cup-5 major-nature-7 minor-feather-4 major-concept-8 minor-star-6 divine-8 minor-mask-1 major-role-5",
    "major-role-2 minor-mask-god minor-staff-3 divine-1 minor-feather-6 major-concept-6 rose-upright minor-cup-guardian",
    "divine-3 minor-star-2 minor-cup-1 major-nature-1 minor-staff-6 world divine-9 minor-star-parent",
]
# (stakes, {seat: (card, bet)}, winner, supplies after, reserves after)
PD_T3_ROUNDS = [
    ([1, 1, 1], {0: ("minor-cup-5", "minor"), 1: ("major-role-2", "major"), 2: ("divine-3", "divine")},
     0, [6, 5, 5], [2, 0, 0]),
    ([2, 1, 1], {0: ("major-nature-7", "major"), 1: ("minor-mask-god", "major"), 2: ("minor-star-2", "minor")},
     0, [6, 4, 4], [4, 0, 0]),
    ([3, 1, 1], {0: ("minor-feather-4", "divine"), 1: ("minor-staff-3", "major"), 2: ("minor-cup-1", "divine")},
     None, [6, 4, 4], [4, 0, 0]),
    ([3, 1, 1], {0: ("major-concept-8", "major"), 1: ("divine-1", "divine"), 2: ("major-nature-1", "divine")},
     1, [3, 4, 3], [4, 4, 0]),
    ([3, 2, 1], {0: ("minor-star-6", "minor"), 1: ("minor-feather-6", "minor"), 2: ("minor-staff-6", "minor")},
     2, [0, 2, 3], [4, 4, 5]),
    ([0, 2, 2], {1: ("major-concept-6", "major"), 2: ("world", "major")},
     2, [0, 0, 3], [4, 4, 7]),
]


def random_game(players: int, seed: int, bot: Any = None) -> tuple[Any, list[tuple]]:
    """A recorded game of `players` seeded bots (random unless `bot` is given)."""
    state = create("paris-divins", players)
    make = bot or RandomBot
    events = record(state, [make(random.Random(f"{seed}:{s}")) for s in range(players)],
                    RandomDealer(random.Random(seed)))
    return state, events
