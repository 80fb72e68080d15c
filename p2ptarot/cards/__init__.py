"""Card identities and decks for every game.

Cards are plain ``str`` ids (JSON-native, hashable, what the mental layer hashes); each deck
family has a table of frozen, slotted attribute records so an engine gets a card's suit, class or
value with one dict look-up. ``deck(name)`` returns the ordered :class:`Deck` the rules fix.
"""

from p2ptarot.cards.deck import Deck
from p2ptarot.cards.errors import CardError, UnknownCardError, UnknownDeckError
from p2ptarot.cards.registry import DECKS, deck, deck_names
from p2ptarot.cards.roses import ROSES, ROSES_96, ROSES_CARDS, THREE_ROSES, RosesCard, roses_card
from p2ptarot.cards.sinople import (
    SINOPLE,
    SINOPLE_39,
    SINOPLE_CARDS,
    SINOPLE_FIGURES_9,
    SINOPLE_NUMERIC_30,
    SinopleCard,
    sinople_card,
)
from p2ptarot.cards.standard52 import (
    STANDARD_52X2,
    StandardCard,
    standard_52_copy,
    standard_52x,
    standard_by_index,
    standard_card,
)
from p2ptarot.cards.tarot78 import (
    ARCANOID,
    ARCANUM,
    PHYSICAL,
    PHYSICAL_CARDS,
    PhysicalCard,
    TarotCard,
    TarotNaming,
    arcanoid_to_arcanum,
    arcanum_to_arcanoid,
    convert,
)

__all__ = [
    "ARCANOID",
    "ARCANUM",
    "DECKS",
    "PHYSICAL",
    "PHYSICAL_CARDS",
    "ROSES",
    "ROSES_96",
    "ROSES_CARDS",
    "SINOPLE",
    "SINOPLE_39",
    "SINOPLE_CARDS",
    "SINOPLE_FIGURES_9",
    "SINOPLE_NUMERIC_30",
    "STANDARD_52X2",
    "THREE_ROSES",
    "CardError",
    "Deck",
    "PhysicalCard",
    "RosesCard",
    "SinopleCard",
    "StandardCard",
    "TarotCard",
    "TarotNaming",
    "UnknownCardError",
    "UnknownDeckError",
    "arcanoid_to_arcanum",
    "arcanum_to_arcanoid",
    "convert",
    "deck",
    "deck_names",
    "roses_card",
    "sinople_card",
    "standard_52_copy",
    "standard_52x",
    "standard_by_index",
    "standard_card",
]
