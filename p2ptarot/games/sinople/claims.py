"""Deferred claims (rules §9): "I do not hold num-K-v" and "I hold no card of class X".

A claim watches the claimant's hand handles whose values were unknown when it was made. Each time
one of them is learnt the claim is checked; it is proven false (IllegalMove blaming the claimant,
located where it was made) or, once every watched handle is known, confirmed and dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from p2ptarot.engine.errors import IllegalMove
from p2ptarot.engine.types import Claim

if TYPE_CHECKING:
    from p2ptarot.engine.state import GameState

from .rules import CLASS_NAMES, CLS, ID
from p2ptarot.i18n.message import tr

NOT_HOLDING = "not-holding"
VOID_IN = "void-in"


@dataclass(slots=True)
class _Pending:
    claim: Claim
    card: int  # NOT_HOLDING: the card denied; VOID_IN: -1
    cls: int  # VOID_IN: the class denied; NOT_HOLDING: -1
    watched: set[int] = field(default_factory=set)


class ClaimBook:
    """Pending claims (numbered by the state's `_claim`) indexed by the handles they watch."""

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._by_handle: dict[int, list[_Pending]] = {}

    @staticmethod
    def violates(card: int, cls: int, value: int) -> bool:
        """Whether a hand card `value` contradicts a claim on (`card`, `cls`)."""
        return value == card if card >= 0 else CLS[value] == cls

    def add_not_holding(self, claim: Claim, card: int, unknown: list[int]) -> None:
        self._add(_Pending(claim, card, -1, set(unknown)))

    def add_void_in(self, claim: Claim, cls: int, unknown: list[int]) -> None:
        self._add(_Pending(claim, -1, cls, set(unknown)))

    def _add(self, p: _Pending) -> None:
        for h in p.watched:
            self._by_handle.setdefault(h, []).append(p)

    def learnt(self, handle: int, value: int, proven_false: list[IllegalMove] | None = None) -> None:
        """Check every claim watching `handle`, now known to hold card index `value`. A false
        claim raises IllegalMove — or, given `proven_false`, is added there and dropped (to name
        every liar once all claims are decided)."""
        watching = self._by_handle.pop(handle, None)
        if not watching:
            return
        for p in watching:
            if self.violates(p.card, p.cls, value):
                c = p.claim
                what = (f"denied holding {ID[p.card]}" if p.card >= 0
                        else f"claimed to hold no class-{CLASS_NAMES[p.cls].upper()} card")
                exc = IllegalMove(c.seat, tr("false {kind} claim: {what} but held {value}",
                                             kind=c.kind, what=what, value=ID[value]),
                                  where=c.where, claim=c.id)
                if proven_false is None:
                    raise exc
                proven_false.append(exc)
                self._drop(p)
                continue
            p.watched.discard(handle)
            if not p.watched:
                self._state._settle_claim(p.claim)

    def _drop(self, p: _Pending) -> None:
        """Forget a claim proven false everywhere it still watches."""
        for h in p.watched:
            if h in self._by_handle:
                self._by_handle[h] = [x for x in self._by_handle[h] if x is not p]
        p.watched.clear()
        self._state._settle_claim(p.claim)
