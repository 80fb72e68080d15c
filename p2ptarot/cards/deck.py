"""The :class:`Deck` value: a named, ordered tuple of card ids.

Card ids are plain ``str`` everywhere (JSON-native, hashable, what the mental layer hashes into a
curve point); a deck adds the order the rules documents fix and O(1) membership / position.
A card's *canonical index* is an attribute of the card in its family's table; a deck's
*position* is where the id sits in this tuple. They coincide for every full deck and differ for
sub-decks such as ``sinople-figures-9``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from p2ptarot.cards.errors import UnknownCardError


@dataclass(frozen=True, slots=True)
class Deck:
    """An immutable ordered collection of unique card ids with a registry name."""

    name: str
    ids: tuple[str, ...]
    _positions: Mapping[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        positions = {cid: i for i, cid in enumerate(self.ids)}
        if len(positions) != len(self.ids):
            raise ValueError(f"deck {self.name!r} has duplicate card ids")
        object.__setattr__(self, "_positions", MappingProxyType(positions))

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __contains__(self, card_id: object) -> bool:
        return isinstance(card_id, str) and card_id in self._positions

    def __getitem__(self, position: int) -> str:
        return self.ids[position]

    def position(self, card_id: str) -> int:
        """Position of ``card_id`` in this deck; :class:`UnknownCardError` if absent."""
        try:
            return self._positions[card_id]
        except (KeyError, TypeError):
            raise UnknownCardError(card_id, f"deck {self.name}") from None

    def check(self, card_id: object) -> str:
        """Return ``card_id`` unchanged if it belongs to this deck, else raise UnknownCardError."""
        if isinstance(card_id, str) and card_id in self._positions:
            return card_id
        raise UnknownCardError(card_id, f"deck {self.name}")
