"""Standard 52-card decks for Eleusis, in as many physical copies as the stock needs.

Ids and canonical index follow spec/games/eleusis.md, rules §2.1: ``<suit>-<rank>#<copy>`` and
``52 × (copy − 1) + 13 × suitIndex + rank − 1``. Two copies make the opening deck; ruling R12
adds copy 3, 4, … whenever the stock runs dry, so the vocabulary is open-ended. Copies up to
:data:`MAX_COPY` are accepted (a bound that keeps the attribute cache finite against hostile
ids; no real game comes near it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from p2ptarot.cards.deck import Deck
from p2ptarot.cards.errors import UnknownCardError

SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
"""Suit ids in canonical order (suitIndex 0–3; ERL ``suitnum`` is suitIndex + 1)."""

SUIT_INDEX: Mapping[str, int] = MappingProxyType({s: i for i, s in enumerate(SUITS)})
RED_SUITS: frozenset[str] = frozenset({"diamonds", "hearts"})
PRIME_RANKS: frozenset[int] = frozenset({2, 3, 5, 7, 11, 13})
BASE_COPIES = 2
"""Copies shuffled together at the start of a round (104 cards)."""
MAX_COPY = 99

_ID_RE = re.compile(r"(clubs|diamonds|hearts|spades)-([1-9]|1[0-3])#([1-9][0-9]?)")


@dataclass(frozen=True, slots=True)
class StandardCard:
    """Attributes of one physical standard card; ``copy`` has no meaning in play (R29)."""

    id: str
    index: int
    suit: str
    suit_index: int
    suitnum: int  # ERL: clubs 1, diamonds 2, hearts 3, spades 4
    rank: int  # 1 ace … 11 jack, 12 queen, 13 king; also the card's value
    copy: int
    color: str  # "red" | "black"
    face: bool
    prime: bool
    base: str  # ``<suit>-<rank>``: equal for interchangeable copies

    @property
    def odd(self) -> bool:
        return self.rank % 2 == 1


_CACHE: dict[str, StandardCard] = {}


def _make(suit: str, rank: int, copy: int) -> StandardCard:
    si = SUIT_INDEX[suit]
    return StandardCard(
        f"{suit}-{rank}#{copy}", 52 * (copy - 1) + 13 * si + rank - 1, suit, si, si + 1, rank, copy,
        "red" if suit in RED_SUITS else "black", rank >= 11, rank in PRIME_RANKS, f"{suit}-{rank}",
    )


def standard_card(card_id: object) -> StandardCard:
    """Attributes of a standard card id of any copy 1…MAX_COPY; UnknownCardError otherwise.

    O(1) after the first look-up of an id (results are cached).
    """
    try:
        return _CACHE[card_id]  # type: ignore[index]  # any object is looked up: an unhashable or unknown id is the KeyError/TypeError below
    except KeyError:
        pass
    except TypeError:
        raise UnknownCardError(card_id, "standard-52") from None
    match = _ID_RE.fullmatch(card_id) if isinstance(card_id, str) else None
    if match is None:
        raise UnknownCardError(card_id, "standard-52")
    card = _make(match[1], int(match[2]), int(match[3]))
    _CACHE[card.id] = card
    return card


def standard_by_index(index: int) -> StandardCard:
    """Inverse of the canonical index (any copy up to MAX_COPY)."""
    if not 0 <= index < 52 * MAX_COPY:
        raise UnknownCardError(index, "standard-52 canonical index")
    copy, rest = divmod(index, 52)
    si, r = divmod(rest, 13)
    return standard_card(f"{SUITS[si]}-{r + 1}#{copy + 1}")


def standard_52_copy(copy: int) -> Deck:
    """The 52 cards of physical copy ``copy`` in canonical order (R12's added decks: 3, 4, …)."""
    if not 1 <= copy <= MAX_COPY:
        raise ValueError(f"copy must be in 1..{MAX_COPY}, got {copy}")
    ids = tuple(standard_card(f"{s}-{r}#{copy}").id for s in SUITS for r in range(1, 14))
    return Deck(f"standard-52#{copy}", ids)


def standard_52x(copies: int) -> Deck:
    """Copies 1…``copies`` together, in canonical order (``standard-52x2`` for Eleusis)."""
    if not 1 <= copies <= MAX_COPY:
        raise ValueError(f"copies must be in 1..{MAX_COPY}, got {copies}")
    ids = tuple(cid for c in range(1, copies + 1) for cid in standard_52_copy(c).ids)
    return Deck(f"standard-52x{copies}", ids)


STANDARD_52X2: Deck = standard_52x(BASE_COPIES)
"""Eleusis's opening deck: 104 cards, canonical indices 0–103."""
