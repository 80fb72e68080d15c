"""Playing to a trick (rules §2.5): the demand, and what a play says about the rest of the hand.

A play is legal when the rest of the player's hand holds no card that a *denial* rules out. With
the hand known (the player's own state, an omniscient state) that is checked at once; otherwise
each denial becomes a claim checked when the hidden cards open (§2.10 "claims checkable later").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from p2ptarot.cards.roses_tables import (CATEGORY, DIVINE, FAMILY, FAMILY_NAMES, MAJOR, MINOR,
                                                TRICK_VALUE, WORLD_INDEX, is_numbered_major)

NO_DEMAND, MINOR_DEMAND, MAJOR_DEMAND = 0, 1, 2

NO_FAMILY = "no-family"
NO_MAJOR = "no-major"
NO_HIGHER_MAJOR = "no-higher-major"


@dataclass(frozen=True, slots=True)
class Denial:
    """"I hold no card of this kind": `kind` is one of the three claims of §2.10; `arg` is the
    family index (no-family) or the threshold h (no-higher-major)."""

    kind: str
    arg: int = 0

    def ruled_out(self, card: int) -> bool:
        """Whether holding `card` makes this denial false."""
        if self.kind == NO_FAMILY:
            return CATEGORY[card] == MINOR and FAMILY[card] == self.arg
        if self.kind == NO_MAJOR:
            return CATEGORY[card] == MAJOR
        return is_numbered_major(card) and TRICK_VALUE[card] > self.arg

    def detail(self) -> tuple[tuple[str, object], ...]:
        if self.kind == NO_FAMILY:
            return (("family", FAMILY_NAMES[self.arg]),)
        if self.kind == NO_HIGHER_MAJOR:
            return (("above", self.arg),)
        return ()

    def sentence(self) -> str:
        if self.kind == NO_FAMILY:
            return f"no card of family {FAMILY_NAMES[self.arg]}"
        if self.kind == NO_MAJOR:
            return "no major"
        return f"no numbered major above {self.arg}"


def demand(trick: Sequence[int]) -> tuple[int, int]:
    """(kind, family) set by the first non-divine card (TR9); family is -1 unless a minor demand."""
    for card in trick:
        cat = CATEGORY[card]
        if cat == MINOR:
            return MINOR_DEMAND, FAMILY[card]
        if cat == MAJOR:
            return MAJOR_DEMAND, -1
    return NO_DEMAND, -1


def threshold(trick: Iterable[int]) -> int:
    """h: the highest numbered major in the trick, 0 when none (the World never counts, TR10b)."""
    return max((TRICK_VALUE[c] for c in trick if is_numbered_major(c)), default=0)


def denials(trick: Sequence[int], card: int) -> tuple[Denial, ...]:
    """What playing `card` on `trick` says about the rest of the hand (empty: always legal)."""
    kind, family = demand(trick)
    return _denials(card, kind, family, threshold(trick) if kind != NO_DEMAND else 0)


def _denials(card: int, kind: int, family: int, h: int) -> tuple[Denial, ...]:
    cat = CATEGORY[card]
    if cat == DIVINE or kind == NO_DEMAND:  # TR8: a divine is always legal, never a claim; TR9
        return ()
    out: list[Denial] = []
    if kind == MINOR_DEMAND:
        if cat == MINOR and FAMILY[card] == family:
            return ()
        out.append(Denial(NO_FAMILY, family))
        if cat == MINOR:  # a discard: must trump when possible (TR10a)
            out.append(Denial(NO_MAJOR))
    elif cat == MINOR:  # major demand
        out.append(Denial(NO_MAJOR))
    if cat == MAJOR and card != WORLD_INDEX and h and TRICK_VALUE[card] <= h:
        out.append(Denial(NO_HIGHER_MAJOR, h))  # overtrump duty; the World is exempt (TR10c)
    return tuple(out)


def legal_cards(trick: Sequence[int], hand: Sequence[int]) -> list[int]:
    """The cards of a fully known `hand` that may be played on `trick` (never empty).

    A card is legal when no other card of the hand is ruled out by its denials; each distinct
    denial's count over the hand is computed once (at most three per trick), so this is linear.
    """
    kind, family = demand(trick)
    if kind == NO_DEMAND:
        return list(hand)
    h = threshold(trick)
    held: dict[Denial, int] = {}
    legal = []
    for card in hand:
        ok = True
        for d in _denials(card, kind, family, h):
            count = held.get(d)
            if count is None:
                count = held[d] = sum(1 for other in hand if d.ruled_out(other))
            if count - d.ruled_out(card) > 0:
                ok = False
                break
        if ok:
            legal.append(card)
    return legal
