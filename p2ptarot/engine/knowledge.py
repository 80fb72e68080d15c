"""The knowledge model (spec/ENGINE.md §1): what one state knows, apart from the rules.

Why its own object: a game author writes rules; who has seen which handle, which values this
state knows, which claims are pending and which secrets were committed is the same bookkeeping in
every game, and the table, the verifier and the audit read it the same way. A `GameState` holds
one `Knowledge` (`state.knowledge`) and exposes its containers under their usual names
(`state.cards`, `state.seen`, `state.claims`...: the same objects, not copies).

Everything here is public bookkeeping except the values: `cards[h]` (and a secret's value) is
None where this state does not know it.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .errors import EngineError
from .types import PUBLIC, Claim, Finding, Secret


class Knowledge:
    """Handles and their values, who has seen them, claims by id, secrets, findings."""

    def __init__(self) -> None:
        #: handle -> card id, or None when unknown to this state
        self.cards: list[str | None] = []
        #: handle -> the seats shown it ({PUBLIC} once everyone has)
        self.seen: list[set[int]] = []
        #: claims not yet decided (games drop the ones they confirm)
        self.claims: list[Claim] = []
        #: every claim made in this game, in order: claim_log[c.id] is c
        self.claim_log: list[Claim] = []
        #: secrets that are not cards, by name (Commit/Open)
        self.secrets: dict[str, Secret] = {}
        #: faults the rules punish without ending the game, in the order found (ENGINE.md §6)
        self.findings: list[Finding] = []
        #: handles some claim depends on (public bookkeeping: the same in every state)
        self.watched: set[int] = set()

    # ---- handles ------------------------------------------------------------------------------
    def new_handles(self, count: int) -> tuple[int, ...]:
        start = len(self.cards)
        self.cards.extend([None] * count)
        self.seen.extend(set() for _ in range(count))
        return tuple(range(start, start + count))

    def mark_seen(self, handle: int, to: int) -> None:
        if to == PUBLIC:
            self.seen[handle] = {PUBLIC}
        elif PUBLIC not in self.seen[handle]:
            self.seen[handle].add(to)

    def known_to(self, handle: int, seat: int | None) -> bool:
        """Whether `seat` (None = public) has been shown the card at `handle`."""
        s = self.seen[handle]
        return PUBLIC in s or (seat is not None and seat in s)

    def card_for(self, handle: int, seat: int | None) -> str | None:
        """The card at `handle` as `seat` sees it (None when hidden from it or unknown here)."""
        return self.cards[handle] if self.known_to(handle, seat) else None

    def record(self, handle: int, card: str) -> bool:
        """Record the value of `handle`; True when it is news (EngineError on a contradiction)."""
        known = self.cards[handle]
        if known is not None:
            if known != card:
                raise EngineError(f"handle {handle} is {known}, cannot also be {card}")
            return False
        self.cards[handle] = card
        return True

    # ---- claims and findings --------------------------------------------------------------------
    def claim(self, seat: int, kind: str,
              detail: tuple[tuple[str, Any], ...] | Mapping[str, Any], where: str) -> Claim:
        """A numbered claim, pending until the game settles it or proves it false."""
        items = tuple(detail.items()) if isinstance(detail, Mapping) else tuple(detail)
        claim = Claim(seat, kind, items, where, len(self.claim_log))
        self.claim_log.append(claim)
        self.claims.append(claim)
        return claim

    def settle(self, claim: Claim) -> None:
        """A claim decided (true, or punished as a finding): no longer pending."""
        if claim in self.claims:
            self.claims.remove(claim)

    def finding(self, claim: Claim | None, seat: int, reason: str, where: str) -> Finding:
        finding = Finding(seat, reason, where, None if claim is None else claim.id)
        self.findings.append(finding)
        if claim is not None:
            self.settle(claim)
        return finding

    def watch(self, handles: Iterable[int]) -> None:
        """A claim depends on `handles` (a public set): the audit must open them."""
        self.watched.update(handles)

    def audit_opens(self) -> frozenset[int]:
        """The watched handles not public yet (public bookkeeping only: every peer agrees)."""
        return frozenset(h for h in self.watched if PUBLIC not in self.seen[h])

    # ---- secrets --------------------------------------------------------------------------------
    def secret_for(self, name: str, seat: int | None) -> str | None:
        """Secret `name` as `seat` (None = public) sees it: its owner and, once opened, everyone."""
        secret = self.secrets.get(name)
        if secret is None or not (secret.opened or (seat is not None and seat == secret.owner)):
            return None
        return secret.value
