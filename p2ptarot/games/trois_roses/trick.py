"""Resolving a trick (rules §2.6): excused cards, the winner
(a cycle: majors > minors > divines > majors)."""

from __future__ import annotations

from typing import Sequence

from p2ptarot.cards.roses_tables import CATEGORY, DIVINE, FAMILY, MAJOR, MINOR, TRICK_VALUE, WORLD_INDEX

from .legal import demand


def excused(cards: Sequence[int]) -> tuple[int, ...]:
    """Positions of the excused cards (step 1, TR15): the World beside another major; a lone
    divine beside any major (the World counts even when itself excused)."""
    majors = [i for i, c in enumerate(cards) if CATEGORY[c] == MAJOR]
    divines = [i for i, c in enumerate(cards) if CATEGORY[c] == DIVINE]
    out: list[int] = []
    if len(majors) >= 2:
        out.extend(i for i in majors if cards[i] == WORLD_INDEX)
    if len(divines) == 1 and majors:
        out.append(divines[0])
    return tuple(sorted(out))


def winner(cards: Sequence[int]) -> int:
    """Position (in play order) of the card that wins the trick (step 2, TR12–TR14, TR16)."""
    majors = [i for i, c in enumerate(cards) if CATEGORY[c] == MAJOR]
    divines = [i for i, c in enumerate(cards) if CATEGORY[c] == DIVINE]
    has_minor = any(CATEGORY[c] == MINOR for c in cards)
    if (len(divines) >= 2 and majors) or (divines and not majors and not has_minor):  # TR9, TR12
        return max(divines, key=lambda i: TRICK_VALUE[cards[i]])
    if len(divines) <= 1 and majors:
        numbered = [i for i in majors if cards[i] != WORLD_INDEX]
        if not numbered:
            return majors[0]  # the World alone with minors (and perhaps an excused divine)
        return max(numbered, key=lambda i: TRICK_VALUE[cards[i]])
    return _minor_rule(cards)


def _minor_rule(cards: Sequence[int]) -> int:
    """The highest card of the demanded family (TR11); other families never win."""
    _, family = demand(cards)
    follow = [i for i, c in enumerate(cards) if CATEGORY[c] == MINOR and FAMILY[c] == family]
    return max(follow, key=lambda i: TRICK_VALUE[cards[i]])
