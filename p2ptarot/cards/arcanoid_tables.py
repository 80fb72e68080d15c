"""arcanoïd card vocabulary (rules §1.1): suits/fields, pip values, and the 22 arcana ids.

Card attributes come from `p2ptarot.cards.ARCANOID` (Marseille order: trump-8 Justice,
trump-11 Strength); this module only names what the rules engine asks about a card.
"""

from __future__ import annotations

from functools import lru_cache

from p2ptarot.cards import ARCANOID

#: the four fields, in the fixed suit order of §1.2 (tie-breaks and canonical iteration)
FIELDS: tuple[str, ...] = ("swords", "wands", "cups", "coins")
DECK = "tarot-78/arcanoid"
ALL_CARDS: tuple[str, ...] = ARCANOID.deck.ids

FOOL = "fool"
MAGICIAN, PRIESTESS, EMPRESS, EMPEROR, POPE, LOVERS, CHARIOT = (f"trump-{n}" for n in range(1, 8))
JUSTICE, HERMIT, WHEEL, STRENGTH, HANGED_MAN, DEATH, TEMPERANCE = (f"trump-{n}" for n in range(8, 15))
DEVIL, TOWER, STAR, MOON, SUN, JUDGEMENT, WORLD = (f"trump-{n}" for n in range(15, 22))

#: Pope categories (§6.5): the four suits, the trumps 1–21, or the Fool alone
POPE_CATEGORIES: tuple[str, ...] = FIELDS + ("trumps", "fool")
#: arcana that may leave a Chariot reserve inside an engagement `[7-(1,3,4,6)]`
CHARIOT_PLAYABLE = frozenset({MAGICIAN, EMPRESS, EMPEROR, LOVERS})
MINORS: tuple[str, ...] = tuple(c.id for c in ARCANOID.by_index if c.kind == "minor")
#: majors the Sun may call (§6.19): not Judgement, not the World, not the Fool
SUN_MAJORS: tuple[str, ...] = tuple(f"trump-{n}" for n in range(1, 20))


@lru_cache(maxsize=None)
def suit(card: str) -> str | None:
    return ARCANOID.card(card).suit


@lru_cache(maxsize=None)
def is_numeric(card: str) -> bool:
    """Ace to ten of a suit."""
    return ARCANOID.card(card).numeric


@lru_cache(maxsize=None)
def pip(card: str) -> int:
    """Pip value of a numeric card (ace = 1)."""
    return ARCANOID.card(card).rank if ARCANOID.card(card).numeric else 0


@lru_cache(maxsize=None)
def court(card: str) -> str | None:
    """'page', 'knight', 'queen' or 'king' for an honour, else None."""
    c = ARCANOID.card(card)
    return card.rsplit("-", 1)[1] if c.court else None


def is_ace(card: str) -> bool:
    return is_numeric(card) and pip(card) == 1


def is_trump(card: str) -> bool:
    return card.startswith("trump-")


def in_category(card: str, category: str) -> bool:
    """Pope categories: a suit, 'trumps' (never the Fool) or 'fool'."""
    if category == "trumps":
        return is_trump(card)
    if category == "fool":
        return card == FOOL
    return suit(card) == category


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in ARCANOID.cards
