"""Sinople's constants (rules §2): the phases of a round and the precomputed card attribute
tables of the hot path.

The engine works on canonical indices (0–29 numeric, 30–38 figures) held in plain lists, so a
legality check is a couple of list look-ups instead of parsing ids or building records.
"""

from __future__ import annotations

from p2ptarot.cards.sinople import ROLES, SINOPLE, SINOPLE_CARDS, SINOPLE_FIGURES_9, SINOPLE_NUMERIC_30

#: deck names given to Shuffle requests: the registered `p2ptarot.cards` decks
FIGURE_DECK = SINOPLE_FIGURES_9.name
NUMERIC_DECK = SINOPLE_NUMERIC_30.name
FIGURE_IDS: tuple[str, ...] = SINOPLE_FIGURES_9.ids
NUMERIC_IDS: tuple[str, ...] = SINOPLE_NUMERIC_30.ids

ROUNDS = 9
#: cards per player = tricks per round (rules §5.2, T1)
HAND_SIZE = {2: 15, 3: 10, 4: 7, 5: 6}
#: child target t by player count (rules §5.5)
CHILD_TARGET = {2: 22, 3: 14, 4: 11, 5: 8}
#: the opener search never needs a value above this in an honest game (R7); see spec S2
MAX_OPENER_VALUE = 9

HUSBAND, WIFE, CHILD = 0, 1, 2

#: card id -> canonical index
INDEX: dict[str, int] = {cid: card.index for cid, card in SINOPLE.items()}
#: canonical index -> card id
ID: tuple[str, ...] = tuple(c.id for c in SINOPLE_CARDS)
#: canonical index -> class index (0, 1, 2)
CLS: tuple[int, ...] = tuple(c.class_index for c in SINOPLE_CARDS)
#: canonical index -> value 0–9 (figures: -1)
VAL: tuple[int, ...] = tuple(-1 if c.value is None else c.value for c in SINOPLE_CARDS)
#: canonical index -> role index for figures (numerics: -1)
ROLE: tuple[int, ...] = tuple(-1 if c.role is None else ROLES.index(c.role) for c in SINOPLE_CARDS)
ROLE_NAMES = ROLES
CLASS_NAMES: tuple[str, ...] = ("a", "b", "c")


def numeric(cls: int, value: int) -> int:
    """Canonical index of the numeric card of class `cls` and value `value`."""
    return 10 * cls + value


def is_numeric(index: int) -> bool:
    return 0 <= index < 30


# phases, in game order
FIG_SHUFFLE, FIRST_DEALER, TURN_UP, NUM_SHUFFLE, DEAL, OPENER, PLAY, OVER, VOID = range(9)
PHASE_NAMES = ("figure-shuffle", "first-dealer", "turn-up", "numeric-shuffle", "deal",
               "opener-search", "play", "over", "void")
