"""§2 Components and stable ids: Houses, minor and major cards, court-figure pawns, locations.

Cards come from the shared tarot-78 Arcanum naming (`p2ptarot.cards.tarot78.ARCANUM`); this module
adds what the rules need from them (kind, House, scoring value) with one dict look-up.
"""

from __future__ import annotations

from p2ptarot.cards.tarot78 import ARCANUM

HOUSES: tuple[str, ...] = ("swords", "wands", "cups", "coins")
"""§2.1 canonical house order (used wherever a fixed order is needed; no meaning in play)."""

RANKS: tuple[str, ...] = ("knave", "knight", "queen", "king")
"""Figure types, in the order of §2.4 (court values 11–14)."""

LOCATIONS: tuple[int, ...] = tuple(range(1, 11))
LOCATION_NAMES: dict[int, str] = {
    1: "Mage Tower", 2: "Artisan District", 3: "Harbour", 4: "Throne Room", 5: "Market",
    6: "Fields", 7: "Treasure Vault", 8: "Cathedral", 9: "Ballroom", 10: "Castle"}
#: the same names in the interface's other languages, as data beside the English (spec/APP.md)
LOCATION_TITLES: dict[str, dict[int, str]] = {"fr": {
    1: "Tour du Mage", 2: "Quartier des Artisans", 3: "Port", 4: "Salle du Trône", 5: "Marché",
    6: "Champs", 7: "Salle du Trésor", 8: "Cathédrale", 9: "Salle de Bal", 10: "Château"}}

MINOR, MAJOR = "minor", "major"
FOOL = "major-0"

MINOR_CARDS: tuple[str, ...] = tuple(c.id for c in ARCANUM.by_index if c.kind == "minor")
MAJOR_CARDS: tuple[str, ...] = tuple(c.id for c in ARCANUM.by_index if c.kind != "minor")

FIGURES: tuple[str, ...] = tuple(f"fig-{h}-{r}" for h in HOUSES for r in RANKS)
"""§2.4 the sixteen pawns in canonical order."""


def kind_of(card: str) -> str:
    """'minor' or 'major' (the Fool is a major)."""
    return MINOR if ARCANUM.card(card).kind == "minor" else MAJOR


def house_of(card: str) -> str:
    """The House (suit) of a minor."""
    suit = ARCANUM.card(card).suit
    assert suit is not None, f"{card} has no suit"
    return suit


def value_of(card: str) -> int:
    """§2.2 scoring value: numerals 1–10, knave 11, knight 12, queen 13, king 14; majors 0."""
    return ARCANUM.card(card).rank


def major_number(card: str) -> int:
    """The numeral of a major (`major-13` → 13)."""
    number = ARCANUM.card(card).number
    assert number is not None
    return number


def is_court(card: str) -> bool:
    return ARCANUM.card(card).court


def figure_of_court(card: str) -> str:
    """The pawn a court card names (`cups-queen` → `fig-cups-queen`)."""
    return f"fig-{card}"


def figure_house(fig: str) -> str:
    return fig.split("-")[1]


def figure_rank(fig: str) -> str:
    return fig.split("-")[2]


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in ARCANUM.cards


ARCANUM_CARD = ARCANUM.card
