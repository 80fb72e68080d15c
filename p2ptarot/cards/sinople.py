"""The sinople tarot's 39 cards: 30 numeric cards and 9 figures (spec/games/sinople.md, rules §2).

Ids and canonical indices are the rules document's: ``num-<class>-<value>`` =
``10 × classIndex + value`` (0–29) and ``fig-<class>-<role>`` =
``30 + 3 × classIndex + roleIndex`` (30–38). The figures form a separate constraint pile that is
never dealt, hence the two sub-decks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from p2ptarot.cards.deck import Deck
from p2ptarot.cards.errors import UnknownCardError

CLASSES: tuple[str, ...] = ("a", "b", "c")
"""Class ids (ruling R1); the order only numbers the cards."""
ROLES: tuple[str, ...] = ("husband", "wife", "child")
"""Figure roles in index order: husband 0, wife 1, child 2."""


@dataclass(frozen=True, slots=True)
class SinopleCard:
    """Attributes of a sinople card. ``value`` is 0–9 for numerics (also their points), None for figures."""

    id: str
    index: int
    kind: str  # "numeric" | "figure"
    cls: str  # "a" | "b" | "c"
    class_index: int
    value: int | None
    role: str | None  # figures only

    @property
    def points(self) -> int:
        """Points scored by taking this card: its value (figures are never taken in tricks)."""
        return self.value or 0


def _build() -> tuple[SinopleCard, ...]:
    numeric = [
        SinopleCard(f"num-{c}-{v}", 10 * ci + v, "numeric", c, ci, v, None)
        for ci, c in enumerate(CLASSES)
        for v in range(10)
    ]
    figures = [
        SinopleCard(f"fig-{c}-{r}", 30 + 3 * ci + ri, "figure", c, ci, None, r)
        for ci, c in enumerate(CLASSES)
        for ri, r in enumerate(ROLES)
    ]
    return tuple(numeric + figures)


SINOPLE_CARDS: tuple[SinopleCard, ...] = _build()
"""All 39 cards, position = canonical index."""
SINOPLE: Mapping[str, SinopleCard] = MappingProxyType({c.id: c for c in SINOPLE_CARDS})

SINOPLE_39 = Deck("sinople-39", tuple(c.id for c in SINOPLE_CARDS))
SINOPLE_NUMERIC_30 = Deck("sinople-numeric-30", tuple(c.id for c in SINOPLE_CARDS if c.kind == "numeric"))
SINOPLE_FIGURES_9 = Deck("sinople-figures-9", tuple(c.id for c in SINOPLE_CARDS if c.kind == "figure"))


def sinople_card(card_id: object) -> SinopleCard:
    """Attributes of a sinople card id; :class:`UnknownCardError` if unknown."""
    try:
        return SINOPLE[card_id]  # type: ignore[index]  # any object is looked up: an unhashable or unknown id is the KeyError/TypeError below
    except (KeyError, TypeError):
        raise UnknownCardError(card_id, "sinople-39") from None
