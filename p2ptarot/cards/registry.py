"""Name → :class:`Deck` registry, so configs and transcripts can name a deck by string."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from p2ptarot.cards.deck import Deck
from p2ptarot.cards.errors import UnknownDeckError
from p2ptarot.cards.roses import ROSES_96
from p2ptarot.cards.sinople import SINOPLE_39, SINOPLE_FIGURES_9, SINOPLE_NUMERIC_30
from p2ptarot.cards.standard52 import STANDARD_52X2
from p2ptarot.cards.tarot78 import ARCANOID, ARCANUM

DECKS: Mapping[str, Deck] = MappingProxyType(
    {
        d.name: d
        for d in (
            ARCANOID.deck,
            ARCANUM.deck,
            STANDARD_52X2,
            SINOPLE_39,
            SINOPLE_NUMERIC_30,
            SINOPLE_FIGURES_9,
            ROSES_96,
        )
    }
)


def deck_names() -> tuple[str, ...]:
    """Every registered deck name, in registration order."""
    return tuple(DECKS)


def deck(name: str) -> Deck:
    """The deck registered under ``name``; :class:`UnknownDeckError` otherwise."""
    try:
        return DECKS[name]
    except (KeyError, TypeError):
        raise UnknownDeckError(name, deck_names()) from None
