"""The Tarot des Roses' 96 cards with the attributes both games compare
(spec/games/roses.md, rules §1).

Canonical index (§1.7): minors ``12 × familyIndex + rank − 1`` (0–59), then the nature, role and
concept majors (60–83), the World (84), ``divine-1``…``divine-9`` (85–93), ``rose-inverted`` (94),
``rose-upright`` (95). Values follow the project defaults D2/D3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from p2ptarot.cards.deck import Deck
from p2ptarot.cards.errors import UnknownCardError

FAMILIES: tuple[str, ...] = ("star", "feather", "staff", "cup", "mask")
"""Minor families, weakest first; the position is the family index (D5)."""
FIGURES: tuple[str, ...] = ("child", "guardian", "master", "parent", "ancestor", "god")
"""Id suffixes of minor ranks 7–12."""
MAJOR_GROUPS: tuple[str, ...] = ("nature", "role", "concept")
WORLD = "world"
ROSE_INVERTED = "rose-inverted"
ROSE_UPRIGHT = "rose-upright"
THREE_ROSES: frozenset[str] = frozenset({ROSE_UPRIGHT, ROSE_INVERTED, WORLD})
"""The three "roses" of *Trois roses* (D4: the role majors' printed roses do not count)."""


@dataclass(frozen=True, slots=True)
class RosesCard:
    """Attributes of a Tarot des Roses card.

    ``rank`` is 1–12 for minors (0 otherwise). ``value`` is a major's 1–24 (the World 25, its
    *Paris divins* value) or a divine's 1–11 (0 for minors). ``trick_value`` is the *Trois roses*
    comparison value (minor rank, major value, divine value); ``None`` for the World, which has
    no value there and follows the special rules of §2.5–§2.6. ``strength`` is the *Paris divins*
    total order 1–96; ``points`` the *Trois roses* card points.
    """

    id: str
    index: int
    category: str  # "minor" | "major" | "divine"
    family: str | None  # minors only
    family_index: int  # 0–4 for minors, -1 otherwise
    group: str | None  # majors: nature/role/concept/world; divines: "rose" for the two Roses
    rank: int
    value: int
    trick_value: int | None
    strength: int
    points: int


def _minor_points(rank: int) -> int:
    return rank - 6 if rank > 6 else 0


def _build() -> tuple[RosesCard, ...]:
    cards: list[RosesCard] = []
    for fi, family in enumerate(FAMILIES):
        for rank in range(1, 13):
            suffix = str(rank) if rank <= 6 else FIGURES[rank - 7]
            cards.append(
                RosesCard(
                    f"minor-{family}-{suffix}", 12 * fi + rank - 1, "minor", family, fi, None, rank, 0, rank,
                    5 * (rank - 1) + fi + 1, _minor_points(rank),
                )
            )
    for gi, group in enumerate(MAJOR_GROUPS):
        for n in range(1, 9):
            value = 8 * gi + n
            cards.append(
                RosesCard(f"major-{group}-{n}", 59 + value, "major", None, -1, group, 0, value, value, 60 + value, 0)
            )
    cards.append(RosesCard(WORLD, 84, "major", None, -1, WORLD, 0, 25, None, 85, 8))
    for value in range(1, 10):
        cards.append(RosesCard(f"divine-{value}", 84 + value, "divine", None, -1, None, 0, value, value, 85 + value, 4))
    cards.append(RosesCard(ROSE_INVERTED, 94, "divine", None, -1, "rose", 0, 10, 10, 95, 8))
    cards.append(RosesCard(ROSE_UPRIGHT, 95, "divine", None, -1, "rose", 0, 11, 11, 96, 8))
    return tuple(cards)


ROSES_CARDS: tuple[RosesCard, ...] = _build()
"""All 96 cards, position = canonical index."""
ROSES: Mapping[str, RosesCard] = MappingProxyType({c.id: c for c in ROSES_CARDS})
ROSES_96 = Deck("roses-96", tuple(c.id for c in ROSES_CARDS))


def roses_card(card_id: object) -> RosesCard:
    """Attributes of a Tarot des Roses card id; :class:`UnknownCardError` if unknown."""
    try:
        return ROSES[card_id]  # type: ignore[index]  # any object is looked up: an unhashable or unknown id is the KeyError/TypeError below
    except (KeyError, TypeError):
        raise UnknownCardError(card_id, "roses-96") from None
