"""The 78-card tarot deck, defined once physically, with the arcanoïd and Arcanum namings.

Why two layers: arcanoïd (Marseille order: VIII Justice, XI Strength) and Arcanum (Golden Dawn
order as printed on its deck: VIII Strength, XI Justice) give the same physical card different
numbers. A physical card is therefore identified by its *name* (``"justice"``), never by a
number, and each game's vocabulary (``trump-8`` / ``major-11``) is a naming layered on top.

Canonical indices (spec/games/arcanum.md, rules §2.2–2.3): minors ``14 × suitIndex + rank − 1``
with rank 1–10 for numerals and 11–14 for page/knave, knight, queen, king (0–55); the Fool 56; the
trump numbered N in the naming's own tradition ``56 + N`` (57–77). The arcanoïd rules define no
canonical index, so the project gives arcanoïd the same layout (``fool`` = 56,
``trump-N`` = 56 + N). Justice and Strength therefore have different indices in the two namings,
exactly as they have different numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from p2ptarot.cards.deck import Deck
from p2ptarot.cards.errors import UnknownCardError

SUITS: tuple[str, ...] = ("swords", "wands", "cups", "coins")
"""Suit ids in the fixed order both rules documents use (index 0–3)."""

SUIT_INDEX: Mapping[str, int] = MappingProxyType({s: i for i, s in enumerate(SUITS)})

_SUIT_TITLES = {"swords": "Swords", "wands": "Wands", "cups": "Cups", "coins": "Coins"}
_NUMERAL_TITLES = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")

PHYSICAL_COURTS: tuple[str, ...] = ("page", "knight", "queen", "king")
"""Court ranks 11–14 as the physical layer names them."""

TRUMP_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "magician": "The Magician",
        "high-priestess": "The High Priestess",
        "empress": "The Empress",
        "emperor": "The Emperor",
        "hierophant": "The Hierophant",
        "lovers": "The Lovers",
        "chariot": "The Chariot",
        "justice": "Justice",
        "hermit": "The Hermit",
        "wheel-of-fortune": "The Wheel of Fortune",
        "strength": "Strength",
        "hanged-man": "The Hanged Man",
        "death": "Death",
        "temperance": "Temperance",
        "devil": "The Devil",
        "tower": "The Tower",
        "star": "The Star",
        "moon": "The Moon",
        "sun": "The Sun",
        "judgement": "Judgement",
        "world": "The World",
    }
)
"""The 21 trumps' physical keys (their names) with an English display name."""

FOOL = "fool"
"""Physical key of the Fool (not a trump in arcanoïd, ``major-0`` in Arcanum)."""


def _order_with(swap: bool) -> tuple[str, ...]:
    order = list(TRUMP_NAMES)
    if swap:
        i, j = order.index("justice"), order.index("strength")
        order[i], order[j] = order[j], order[i]
    return tuple(order)


MARSEILLE_ORDER: tuple[str, ...] = _order_with(swap=False)
"""Physical trump keys numbered 1–21 in the Marseille tradition (8 Justice, 11 Strength)."""

GOLDEN_DAWN_ORDER: tuple[str, ...] = _order_with(swap=True)
"""Physical trump keys numbered 1–21 in the Golden Dawn tradition (8 Strength, 11 Justice)."""


@dataclass(frozen=True, slots=True)
class PhysicalCard:
    """One of the 78 physical cards, independent of any game's naming."""

    key: str
    kind: str  # "minor" | "trump" | "fool"
    suit: str | None
    rank: int  # 1–14 for minors, 0 otherwise
    name: str


def _build_physical() -> tuple[PhysicalCard, ...]:
    cards: list[PhysicalCard] = []
    for suit in SUITS:
        title = _SUIT_TITLES[suit]
        for rank in range(1, 11):
            cards.append(
                PhysicalCard(f"{suit}-{rank}", "minor", suit, rank, f"{_NUMERAL_TITLES[rank - 1]} of {title}")
            )
        for offset, court in enumerate(PHYSICAL_COURTS):
            cards.append(
                PhysicalCard(f"{suit}-{court}", "minor", suit, 11 + offset, f"{court.title()} of {title}")
            )
    cards.append(PhysicalCard(FOOL, "fool", None, 0, "The Fool"))
    cards.extend(PhysicalCard(key, "trump", None, 0, name) for key, name in TRUMP_NAMES.items())
    return tuple(cards)


PHYSICAL_CARDS: tuple[PhysicalCard, ...] = _build_physical()
PHYSICAL: Mapping[str, PhysicalCard] = MappingProxyType({c.key: c for c in PHYSICAL_CARDS})


@dataclass(frozen=True, slots=True)
class TarotCard:
    """Attributes of a tarot card under one naming; look it up once, then read fields.

    ``rank`` is 1–10 for numerals and 11–14 for the courts (page/knave, knight, queen, king),
    which is also Arcanum's scoring value and arcanoïd's pip value for numerals; 0 for the Fool
    and trumps. ``number`` is the trump's number in this naming's tradition; the Fool has 0 in
    Arcanum (``major-0``) and ``None`` in arcanoïd, where it is not a trump.
    """

    id: str
    index: int
    physical: str
    kind: str  # "minor" | "trump" | "fool"
    suit: str | None
    suit_index: int  # 0–3 for minors, -1 otherwise
    rank: int
    numeric: bool  # ace to ten
    court: bool  # page/knave, knight, queen, king
    number: int | None
    name: str


class TarotNaming:
    """One game's vocabulary for the 78 physical cards: ids, canonical indices, conversion."""

    __slots__ = ("name", "deck", "cards", "by_index", "_by_physical")
    name: str
    deck: Deck
    cards: Mapping[str, TarotCard]
    by_index: tuple[TarotCard, ...]
    _by_physical: Mapping[str, TarotCard]

    def __init__(
        self,
        name: str,
        deck_name: str,
        courts: tuple[str, str, str, str],
        trump_order: tuple[str, ...],
        trump_prefix: str,
        fool_id: str,
        fool_number: int | None,
    ) -> None:
        cards: list[TarotCard] = []
        for p in PHYSICAL_CARDS:
            if p.kind == "minor" and p.suit is not None:
                si = SUIT_INDEX[p.suit]
                is_court = p.rank > 10
                label = courts[p.rank - 11] if is_court else str(p.rank)
                title = f"{label.title()} of {_SUIT_TITLES[p.suit]}" if is_court else p.name
                cards.append(
                    TarotCard(
                        f"{p.suit}-{label}", 14 * si + p.rank - 1, p.key, "minor", p.suit, si, p.rank,
                        not is_court, is_court, None, title,
                    )
                )
            elif p.kind == "fool":
                cards.append(TarotCard(fool_id, 56, p.key, "fool", None, -1, 0, False, False, fool_number, p.name))
            else:
                n = trump_order.index(p.key) + 1
                cards.append(
                    TarotCard(f"{trump_prefix}{n}", 56 + n, p.key, "trump", None, -1, 0, False, False, n, p.name)
                )
        cards.sort(key=lambda c: c.index)
        init = object.__setattr__
        init(self, "name", name)
        init(self, "by_index", tuple(cards))
        init(self, "cards", MappingProxyType({c.id: c for c in cards}))
        init(self, "_by_physical", MappingProxyType({c.physical: c for c in cards}))
        init(self, "deck", Deck(deck_name, tuple(c.id for c in cards)))

    def __setattr__(self, attr: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def card(self, card_id: object) -> TarotCard:
        """Attributes of ``card_id``; :class:`UnknownCardError` if it is not in this naming."""
        try:
            return self.cards[card_id]  # type: ignore[index]  # any object is looked up: an unhashable or unknown id is the KeyError/TypeError below
        except (KeyError, TypeError):
            raise UnknownCardError(card_id, f"tarot-78 naming {self.name}") from None

    def physical_of(self, card_id: str) -> PhysicalCard:
        """The physical card an id of this naming denotes."""
        return PHYSICAL[self.card(card_id).physical]

    def from_physical(self, key: str) -> TarotCard:
        """This naming's card for a physical key (``"justice"``, ``"swords-page"``, ``"fool"``)."""
        try:
            return self._by_physical[key]
        except (KeyError, TypeError):
            raise UnknownCardError(key, "tarot-78 physical cards") from None

    def __repr__(self) -> str:
        return f"TarotNaming({self.name!r})"


ARCANOID = TarotNaming(
    "arcanoid", "tarot-78/arcanoid", ("page", "knight", "queen", "king"), MARSEILLE_ORDER, "trump-", "fool", None
)
"""arcanoïd's naming (spec/games/arcanoid.md, rules §1.1):
``swords-page``, ``trump-8`` = Justice, ``fool``."""

ARCANUM = TarotNaming(
    "arcanum", "tarot-78/arcanum", ("knave", "knight", "queen", "king"), GOLDEN_DAWN_ORDER, "major-", "major-0", 0
)
"""Arcanum's naming (spec/games/arcanum.md, rules §2.2–2.3):
``swords-knave``, ``major-11`` = Justice, ``major-0``."""


def convert(card_id: str, source: TarotNaming, target: TarotNaming) -> str:
    """Rename ``card_id`` from ``source``'s vocabulary to ``target``'s (same physical card)."""
    return target.from_physical(source.card(card_id).physical).id


def arcanoid_to_arcanum(card_id: str) -> str:
    """``trump-8`` (Justice) → ``major-11``; ``swords-page`` → ``swords-knave``; ``fool`` → ``major-0``."""
    return convert(card_id, ARCANOID, ARCANUM)


def arcanum_to_arcanoid(card_id: str) -> str:
    """Inverse of :func:`arcanoid_to_arcanum`."""
    return convert(card_id, ARCANUM, ARCANOID)
