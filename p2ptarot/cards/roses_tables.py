"""Card attribute tables by canonical index (spec/games/roses.md, rules §1.7), for the engines'
hot paths.

Engines keep card indices (0–95, -1 for a value this state does not know) in plain lists, so a
rule is a couple of tuple look-ups instead of parsing ids.
"""

from __future__ import annotations

from p2ptarot.cards.roses import FAMILIES, ROSES, ROSES_96, ROSES_CARDS, THREE_ROSES, WORLD

DECK = ROSES_96.name
DECK_IDS: tuple[str, ...] = ROSES_96.ids

MINOR, MAJOR, DIVINE = 0, 1, 2
CATEGORY_NAMES: tuple[str, ...] = ("minor", "major", "divine")

#: canonical index -> card id
ID: tuple[str, ...] = tuple(c.id for c in ROSES_CARDS)
#: card id -> canonical index
INDEX: dict[str, int] = {cid: card.index for cid, card in ROSES.items()}
#: canonical index -> MINOR / MAJOR / DIVINE
CATEGORY: tuple[int, ...] = tuple(CATEGORY_NAMES.index(c.category) for c in ROSES_CARDS)
#: canonical index -> family index 0–4 for minors, -1 otherwise
FAMILY: tuple[int, ...] = tuple(c.family_index for c in ROSES_CARDS)
#: canonical index -> *Trois roses* trick value (minor rank, major 1–24, divine 1–11; World 0)
TRICK_VALUE: tuple[int, ...] = tuple(c.trick_value or 0 for c in ROSES_CARDS)
#: canonical index -> *Paris divins* strength 1–96
STRENGTH: tuple[int, ...] = tuple(c.strength for c in ROSES_CARDS)
#: canonical index -> *Trois roses* card points
POINTS: tuple[int, ...] = tuple(c.points for c in ROSES_CARDS)
#: canonical index -> one of the three roses (rose-upright, rose-inverted, the World)
IS_ROSE: tuple[bool, ...] = tuple(c.id in THREE_ROSES for c in ROSES_CARDS)
WORLD_INDEX = INDEX[WORLD]
FAMILY_NAMES = FAMILIES


def is_numbered_major(index: int) -> bool:
    """A major other than the World (the only majors that set an overtrump threshold)."""
    return CATEGORY[index] == MAJOR and index != WORLD_INDEX

