"""Shared helpers for the arcanoïd tests: random agents, invariant checks, stacked-deck tables."""

from __future__ import annotations

import collections
import random
from typing import Any, Sequence

from p2ptarot.cards.arcanoid_tables import ALL_CARDS
from p2ptarot.engine import Move, RandomDealer, TurnKind, create, play
from p2ptarot.games.arcanoid import ArcanoidState


class RandomAgent:
    uses_view = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, seat: int, view: Any, legal: Sequence[Move]) -> Move:
        return self.rng.choice(list(legal))


def check_conservation(state: ArcanoidState) -> None:
    """Every one of the 78 cards is in exactly one zone."""
    zones = state.zone_map()
    handles = [h for hs in zones.values() for h in hs]
    dup = [h for h, n in collections.Counter(handles).items() if n > 1]
    assert not dup, f"handles in two zones: {dup}"
    assert sorted(state.cards[h] for h in handles) == sorted(ALL_CARDS)


def random_game(players: int, seed: int, check: bool = False, **options: Any) -> ArcanoidState:
    state = create("arcanoid", players, options=options or None)
    rng = random.Random(seed)
    agents = [RandomAgent(rng) for _ in range(players)]

    def on_move(st: Any, seat: int, move: Move) -> None:
        check_conservation(st)

    play(state, agents, RandomDealer(random.Random(seed + 1)), on_move=on_move if check else None)
    assert isinstance(state, ArcanoidState)
    return state


# ---- stacked-deck scenarios -------------------------------------------------------------------
from p2ptarot.engine import StackedDealer  # noqa: E402


class Table:
    """A stacked round driven move by move: hands are dealt as given (seat 0 first), then the pile
    in the given order, then every other card. Chance and reveals resolve automatically."""

    def __init__(self, hands: list[list[str]], pile: Sequence[str] = (), **options: Any) -> None:
        n = len(hands)
        used = [c for h in hands for c in h] + list(pile)
        assert len(set(used)) == len(used) and all(len(h) == 6 for h in hands)
        rest = [c for c in ALL_CARDS if c not in used]
        order = [hands[i % n][i // n] for i in range(6 * n)] + list(pile) + rest
        options.setdefault("first_seat", 0)
        self.dealer = StackedDealer(orders={("tarot-78/arcanoid", 0): order})
        self.state: ArcanoidState = create("arcanoid", n, options=options)  # type: ignore[assignment]
        self.advance()

    def advance(self) -> None:
        st = self.state
        while True:
            kind = st.turn().kind
            if kind is TurnKind.CHANCE:
                chance = st.turn().chance
                st.resolve_chance(self.dealer.shuffle(st, chance))  # type: ignore[arg-type]
            elif kind is TurnKind.REVEAL:
                st.resolve_reveals()
            else:
                return

    def h(self, card: str) -> int:
        """The current handle of `card`."""
        return max(i for i, c in enumerate(self.state.cards) if c == card)

    def do(self, seat: int, move: Move) -> None:
        self.state.apply(seat, move)
        self.advance()

    def hand(self, pid: int) -> list[str]:
        return sorted(self.state.cards[x] or "?" for x in self.state.parts[pid].hand)

    def turn(self) -> tuple[str, tuple[int, ...]]:
        t = self.state.turn()
        return t.kind.value, t.seats

    def pile_cards(self) -> list[str]:
        return [self.state.cards[x] or "?" for x in self.state.pile]


def filler(n: int, exclude: Sequence[str] = ()) -> list[list[str]]:
    """n hands of six harmless numeric cards, avoiding `exclude`."""
    pool = [c for c in ALL_CARDS if c.split("-")[-1].isdigit() and c.split("-")[0] != "trump"
            and c not in exclude and not c.endswith("-1")]
    return [pool[6 * i:6 * i + 6] for i in range(n)]
