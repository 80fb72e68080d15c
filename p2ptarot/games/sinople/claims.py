"""Deferred claims (rules §9): "I do not hold num-K-v" and "I hold no card of class X".

A claim watches the claimant's hand handles whose values were unknown when it was made. Each time
one of them is learnt the claim is checked; it is proven false (IllegalMove blaming the claimant,
located where it was made) or, once every watched handle is known, confirmed and dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2ptarot.engine.errors import IllegalMove
from p2ptarot.engine.types import Claim

from .tables import CLASS_NAMES, CLS, ID

NOT_HOLDING = "not-holding"
VOID_IN = "void-in"


@dataclass(slots=True)
class _Pending:
    claim: Claim
    card: int  # NOT_HOLDING: the card denied; VOID_IN: -1
    cls: int  # VOID_IN: the class denied; NOT_HOLDING: -1
    watched: set[int] = field(default_factory=set)


class ClaimBook:
    """Pending claims indexed by the handles they watch."""

    def __init__(self) -> None:
        self._by_handle: dict[int, list[_Pending]] = {}
        self.pending: list[Claim] = []

    @staticmethod
    def violates(card: int, cls: int, value: int) -> bool:
        """Whether a hand card `value` contradicts a claim on (`card`, `cls`)."""
        return value == card if card >= 0 else CLS[value] == cls

    def add_not_holding(self, seat: int, card: int, unknown: list[int], where: str) -> None:
        claim = Claim(seat, NOT_HOLDING, (("card", ID[card]),), where)
        self._add(_Pending(claim, card, -1, set(unknown)))

    def add_void_in(self, seat: int, cls: int, unknown: list[int], where: str) -> None:
        claim = Claim(seat, VOID_IN, (("class", CLASS_NAMES[cls]),), where)
        self._add(_Pending(claim, -1, cls, set(unknown)))

    def _add(self, p: _Pending) -> None:
        self.pending.append(p.claim)
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
                exc = IllegalMove(c.seat, f"false {c.kind} claim: {what} but held {ID[value]}",
                                  where=c.where)
                if proven_false is None:
                    raise exc
                proven_false.append(exc)
                self._drop(p, handle)
                continue
            p.watched.discard(handle)
            if not p.watched:
                self.pending.remove(p.claim)

    def _drop(self, p: _Pending, learnt: int) -> None:
        """Forget a decided claim everywhere it still watches."""
        p.watched.discard(learnt)
        for h in p.watched:
            if h in self._by_handle:
                self._by_handle[h] = [x for x in self._by_handle[h] if x is not p]
        p.watched.clear()
        self.pending.remove(p.claim)
