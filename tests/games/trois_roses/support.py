"""Stacked trois roses deals driven in several knowledge modes at once."""

from __future__ import annotations

from typing import Any, Sequence

from p2ptarot.engine import PUBLIC, GameState, RandomChoice, StackedDealer, TurnKind, create
from p2ptarot.cards.roses_tables import DECK, DECK_IDS, FAMILY_NAMES, INDEX, CATEGORY, FAMILY, MINOR
from p2ptarot.games.trois_roses.moves import Play
from p2ptarot.games.trois_roses.rules import TROIS_ROSES


def fill_hands(n: int, fixed: dict[int, list[str]], surplus: Sequence[str] = (),
               avoid: dict[int, set[str]] | None = None) -> list[list[str]]:
    """Complete hands: seats keep `fixed` cards; the rest goes in deck order to seats with room
    (the most constrained first), never giving a seat a card whose family (or "major") it must `avoid`."""
    avoid = avoid or {}
    size = TROIS_ROSES.hand_size[n]
    hands = [list(fixed.get(s, [])) for s in range(n)]
    used = {c for h in hands for c in h} | set(surplus)
    for c in (c for c in DECK_IDS if c not in used):
        idx = INDEX[c]
        kind = FAMILY_NAMES[FAMILY[idx]] if CATEGORY[idx] == MINOR else ("major" if CATEGORY[idx] == 1 else "divine")
        room = [s for s in range(n) if len(hands[s]) < size and kind not in avoid.get(s, set())]
        if not room:
            raise ValueError(f"cannot place {c}")
        # the most constrained seat first: the others can still take anything
        hands[max(room, key=lambda s: (len(avoid.get(s, ())), -s))].append(c)
    return hands


def deal_order(hands: list[list[str]], dealer: int, surplus: Sequence[str] = ()) -> list[str]:
    """The shuffled deck order that deals `hands` (TR4: position i -> seat dealer + 1 + i)."""
    n = len(hands)
    return [hands[(dealer + 1 + i) % n][i // n] for i in range(n * len(hands[0]))] + list(surplus)


class Deal:
    """One stacked deal (variant single-deal) run in the omniscient state and in `modes`."""

    def __init__(self, hands: list[list[str]], dealer: int, surplus: Sequence[str] = (),
                 modes: Sequence[dict[str, Any]] = ()) -> None:
        n = len(hands)
        self.players = n
        self.dealer = StackedDealer(orders={(DECK, 0): deal_order(hands, dealer, surplus)}, choices=[dealer])
        self.truth = create("trois-roses", n, "single-deal")
        self.states: list[GameState] = [create("trois-roses", n, "single-deal", **m) for m in modes]
        self.advance()

    def advance(self) -> None:
        """Resolve chance and reveals in every state until a seat must play."""
        t = self.truth
        while True:
            turn = t.turn()
            if turn.kind is TurnKind.CHANCE:
                if isinstance(turn.chance, RandomChoice):
                    result: Any = self.dealer.choice(turn.chance)
                    t.resolve_chance(result)
                    for s in self.states:
                        s.resolve_chance(result)
                else:
                    t.resolve_chance(self.dealer.shuffle(t, turn.chance))
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

    def move(self, card: str) -> tuple[int, Play]:
        seat = self.truth.turn().seats[0]
        handle = next(h for h in self.truth.hands[seat] if self.truth.cards[h] == card)
        return seat, Play(handle, card)

    def play(self, *cards: str) -> None:
        """Play `cards` in turn order in every state (each must accept them)."""
        for card in cards:
            seat, move = self.move(card)
            self.truth.apply(seat, move)
            for s in self.states:
                s.apply(seat, move)
            self.advance()

    def legal(self, state: GameState | None = None) -> list[str]:
        st = state or self.truth
        return sorted(m.card for m in st.legal_moves(st.turn().seats[0]))  # type: ignore[attr-defined]
