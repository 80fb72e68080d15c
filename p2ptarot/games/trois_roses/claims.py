"""Claims checkable later (rules §2.10): each denial a play makes about hidden hand cards.

A pending claim (numbered by the state's `_claim`) watches the claimant's hand handles whose values
were unknown when it was made. Each time one of them is learnt, the claim is checked: proven false
(IllegalMove blaming the claimant where it was made, with the claim's id) or, once every watched
handle is known, settled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from p2ptarot.engine.types import Claim
from p2ptarot.cards.roses_tables import ID

from .legal import Denial
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:
    from p2ptarot.engine.state import GameState


@dataclass(slots=True)
class _Pending:
    claim: Claim
    denial: Denial
    watched: set[int] = field(default_factory=set)


class ClaimBook:
    """Pending claims indexed by the hand handles they watch."""

    def __init__(self, state: "GameState") -> None:
        self._state = state
        self._by_handle: dict[int, list[_Pending]] = {}

    def add(self, claim: Claim, denial: Denial, unknown: list[int]) -> None:
        p = _Pending(claim, denial, set(unknown))
        for h in p.watched:
            self._by_handle.setdefault(h, []).append(p)

    def learnt(self, handle: int, card: int) -> None:
        """Check every claim watching `handle`, now known to hold card index `card`."""
        watching = self._by_handle.pop(handle, None)
        if not watching:
            return
        for p in watching:
            if p.denial.ruled_out(card):
                raise self._state._false_claim(
                    p.claim, tr("false claim of holding {sentence}: held {card}",
                                sentence=p.denial.sentence(), card=ID[card]))
            p.watched.discard(handle)
            if not p.watched:
                self._state._settle_claim(p.claim)
