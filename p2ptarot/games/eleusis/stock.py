"""The stock and the automatic effects of a play (rules §4.7, §4.8; R11, R12).

Penalty cards are dealt from the front of the stock, each revealed to its receiver only; an empty
stock first receives a fresh deck with the next copy index (its own deck name, so its epoch is
independent); a returned "no play" hand goes back into its own deck's part of the stock, and each
part that received cards is reshuffled (a verified reshuffle stays within one deck epoch, L7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.cards.standard52 import standard_52_copy
from p2ptarot.engine.types import NOBODY, Reveal, Shuffle, Turn, TurnKind

from .rules import EFFECTS

if TYPE_CHECKING:  # pragma: no cover
    from .records import Effect


class StockEffects:
    """Mixin of `EleusisState`: the queue of deals, added decks and reshuffles."""

    if TYPE_CHECKING:  # what the state class that inherits this mixin provides
        def _alloc(self, count: int, group: tuple[str, int]) -> tuple[int, ...]: ...
        _deck_order: dict[str, int]
        def _finish(self) -> None: ...
        _group: dict[int, tuple[str, int]]
        _holder: list[int]
        _known_card: dict[str, int]
        _turn: Turn
        cards: list[str | None]
        effects: list[Effect]
        hands: list[list[int]]
        next_copy: int
        phase: int
        round: int
        stock: list[int]

    def _group_key(self, group: tuple[str, int]) -> int:
        """Stock order: the base deck first, then added decks by copy index (R12)."""
        return self._deck_order[group[0]]

    # ---- automatic effects: deals, added decks, reshuffles -------------------------------------
    def _run_effects(self) -> None:
        """Carry out queued effects until one needs a chance or reveal, or a seat must decide."""
        while self.effects:
            e = self.effects[0]
            if e.kind == "deal":
                if e.count == 0:
                    self.effects.pop(0)
                    continue
                if not self.stock:
                    self._add_deck()
                    return
                dealt = self.stock[:e.count]
                del self.stock[:len(dealt)]
                e.count -= len(dealt)
                for h in dealt:
                    self._holder[h] = e.seat
                    self.hands[e.seat].append(h)
                self.phase = EFFECTS
                self._turn = Turn(TurnKind.REVEAL, reveals=tuple(Reveal(h, e.seat, NOBODY) for h in dealt))
                return
            if e.kind == "reshuffle":
                deck, epoch = e.group
                part = [h for h in self.stock if self._group[h] == e.group]
                source = tuple(part) + e.returned
                new = self._alloc(len(source), e.group)
                self.phase = EFFECTS
                self._turn = Turn(TurnKind.CHANCE, chance=Shuffle(deck, epoch, new, source=source))
                return
            self.effects.pop(0)
            self._finish()
            return

    def _add_deck(self) -> None:
        """R12: the stock is empty, a fresh deck with the next copy index becomes the stock."""
        copy = self.next_copy
        self.next_copy += 1
        deck = standard_52_copy(copy)
        self._deck_order[deck.name] = copy
        handles = self._alloc(len(deck), (deck.name, self.round))
        self.phase = EFFECTS
        self._turn = Turn(TurnKind.CHANCE, chance=Shuffle(deck.name, self.round, handles, deck.ids))

    def _after_effect_chance(self, chance: Shuffle) -> None:
        if chance.cards:
            self.stock.extend(chance.handles)
        else:
            e = self.effects.pop(0)
            assert e.kind == "reshuffle"
            old = set(chance.source)
            for h in old:  # those cards now lie somewhere among the new handles
                card = self.cards[h]
                if card is not None and self._known_card.get(card) == h:
                    del self._known_card[card]
            rest = [h for h in self.stock if h not in old]
            key = self._group_key(e.group)
            position = sum(1 for h in rest if self._group_key(self._group[h]) < key)
            self.stock = rest[:position] + list(chance.handles) + rest[position:]
        self._run_effects()
