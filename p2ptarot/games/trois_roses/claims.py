"""§2.10 Claims checkable later: each denial a play makes about hidden hand cards.

A pending claim watches the claimant's hand handles whose values were unknown when it was made.
Each time one of them is learnt, the claim is checked: proven false (IllegalMove blaming the
claimant where it was made) or, once every watched handle is known, settled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from p2ptarot.engine.errors import IllegalMove
from p2ptarot.engine.types import Claim
from p2ptarot.games.roses_common.tables import ID

from .obligations import Denial


@dataclass(slots=True)
class _Pending:
    claim: Claim
    denial: Denial
    watched: set[int] = field(default_factory=set)


#: raises the IllegalMove for a claim proven false (the state adds what its engine contract needs)
Disprove = Callable[[Claim, str], IllegalMove]


class ClaimBook:
    """Pending claims indexed by the hand handles they watch."""

    def __init__(self, disprove: Disprove) -> None:
        self._by_handle: dict[int, list[_Pending]] = {}
        self._disprove = disprove
        self.pending: list[Claim] = []

    def add(self, claim: Claim, denial: Denial, unknown: list[int]) -> None:
        p = _Pending(claim, denial, set(unknown))
        self.pending.append(claim)
        for h in p.watched:
            self._by_handle.setdefault(h, []).append(p)

    def learnt(self, handle: int, card: int) -> None:
        """Check every claim watching `handle`, now known to hold card index `card`."""
        watching = self._by_handle.pop(handle, None)
        if not watching:
            return
        for p in watching:
            if p.denial.ruled_out(card):
                raise self._disprove(p.claim, f"false claim of holding {p.denial.sentence()}: "
                                              f"held {ID[card]}")
            p.watched.discard(handle)
            if not p.watched:
                self.pending.remove(p.claim)
