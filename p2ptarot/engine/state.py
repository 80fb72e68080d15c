"""The contract every game's state implements (DESIGN.md §5, spec/ENGINE.md).

One class serves two uses. *Omniscient* (simulation, tests, the audit): every handle's card is
known. *Partial* (one peer's view over the network): only the handles this peer has seen are known;
a legality question that depends on an unknown card becomes a recorded `Claim` that is checked
when the card opens (at the latest at the audit). Games therefore write every rule in terms of
"what is known", and the same code runs in both modes.

A *handle* is an integer naming one card slot for the whole game. Its value (a card id) may be
unknown; who holds it, and who has seen it, is public bookkeeping.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Iterable, Mapping

from .errors import EngineError, IllegalMove, NotYourTurn
from .types import PUBLIC, Claim, Move, Outcome, Reveal, Turn, TurnKind, move_from_json


class GameState(ABC):
    """Mutable game state with a deterministic, pure transition function.

    Subclasses set `NAME` and `MOVES` and implement the abstract methods. Values of handles live
    in `self.cards` (handle -> card id, or None when unknown to this state); `self.seen` records,
    per handle, which seats have been shown the card (PUBLIC when everyone has).
    """

    NAME: ClassVar[str] = ""
    MOVES: ClassVar[Mapping[str, type[Move]]] = {}

    def __init__(self, players: int, variant: str | None, options: Mapping[str, Any],
                 omniscient: bool, viewer: int | None) -> None:
        self.players = players
        self.variant = variant
        self.options = dict(options)
        self.omniscient = omniscient
        #: the seat whose knowledge this state models (None: omniscient or a pure observer)
        self.viewer = viewer
        self.cards: list[str | None] = []
        self.seen: list[set[int]] = []
        self.claims: list[Claim] = []

    # ---- the contract -------------------------------------------------------------------------
    @abstractmethod
    def turn(self) -> Turn:
        """Who must act now, or which chance/reveal the game waits for."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Move]:
        """The moves `seat` may make now, computed only from what `seat` knows."""

    @abstractmethod
    def _apply(self, seat: int, move: Move) -> None:
        """Apply a move already checked to come from an expected seat; raise IllegalMove."""

    @abstractmethod
    def _resolve_chance(self, result: Any) -> None:
        """Consume the result of the pending CHANCE turn (see `resolve_chance`)."""

    @abstractmethod
    def _resolve_reveals(self) -> None:
        """Advance past the pending REVEAL turn (values were already recorded by `learn`)."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON view for `seat` (None = public observer): only what that seat may know."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the turn kind is OVER, else None."""

    def move_reveals(self, seat: int, move: Move) -> tuple[Reveal, ...]:
        """Reveals a move carries with it (e.g. a card played face up). Default: none."""
        return ()

    def _on_learn(self, handle: int, card: str) -> None:
        """Hook: a value became known; games check pending claims here."""

    # ---- shared machinery ---------------------------------------------------------------------
    def apply(self, seat: int, move: Move) -> None:
        """Apply `seat`'s move, or raise `IllegalMove` (blaming `seat`) and leave state unchanged
        in the sense that the game must be aborted: callers never continue after an IllegalMove.
        """
        turn = self.turn()
        if turn.kind not in (TurnKind.SEAT, TurnKind.SIMULTANEOUS, TurnKind.INTERRUPT):
            raise NotYourTurn(seat, f"the game waits for {turn.kind.value}, not for a move")
        if seat not in turn.seats:
            raise NotYourTurn(seat, "it is not this seat's turn")
        if type(move).KIND not in self.MOVES or self.MOVES[type(move).KIND] is not type(move):
            raise IllegalMove(seat, f"{type(move).__name__} is not a move of {self.NAME}")
        self._apply(seat, move)

    def resolve_chance(self, result: Any) -> None:
        """Feed the pending chance: for a Shuffle, a mapping handle -> card of the values this
        state may know (all of them when omniscient, none for a peer); for a RandomChoice, the int.
        """
        if self.turn().kind is not TurnKind.CHANCE:
            raise EngineError("no chance event is pending")
        self._resolve_chance(result)

    def resolve_reveals(self, values: Mapping[int, str] | None = None) -> None:
        """Complete the pending REVEAL turn, recording the values this state learnt."""
        turn = self.turn()
        if turn.kind is not TurnKind.REVEAL:
            raise EngineError("no reveal is pending")
        for r in turn.reveals:
            self._mark_seen(r.handle, r.to)
        for handle, card in (values or {}).items():
            self.learn(handle, card)
        self._resolve_reveals()

    def learn(self, handle: int, card: str) -> None:
        """Record that `handle` holds `card` (from a reveal or the audit); check claims."""
        known = self.cards[handle]
        if known is not None:
            if known != card:
                raise EngineError(f"handle {handle} is {known}, cannot also be {card}")
            return
        self.cards[handle] = card
        self._on_learn(handle, card)

    def _mark_seen(self, handle: int, to: int) -> None:
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

    def _new_handles(self, count: int) -> tuple[int, ...]:
        start = len(self.cards)
        self.cards.extend([None] * count)
        self.seen.extend(set() for _ in range(count))
        return tuple(range(start, start + count))

    def move_from_json(self, data: Mapping[str, Any]) -> Move:
        """Decode one of this game's moves from its JSON form."""
        return move_from_json(self.MOVES, data)

    def clone(self) -> "GameState":
        """An independent deep copy (bots' look-ahead, replay checks)."""
        return copy.deepcopy(self)

    def is_over(self) -> bool:
        return self.turn().kind is TurnKind.OVER

    def pending_claims(self) -> list[Claim]:
        return list(self.claims)


def handles_of(seat_cards: Iterable[int]) -> list[int]:
    """Sorted handles, a stable order for views and legal-move lists."""
    return sorted(seat_cards)
