"""`ArcanumState`: the Arcanum engine behind the shared GameState contract.

The game (turn.py) is a generator; this class pumps it: the pending request is `turn()`, `_check`
judges a move (pure) and `_apply` sends it in. Inputs are logged so `clone()` rebuilds the state by
replay (generators cannot be deep-copied).
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine import (PUBLIC, Claim, GameState, IllegalMove, Move, Outcome, Reveal, Turn)

from . import legal
from .board import load_board
from .components import MINOR, kind_of
from .core import Core
from .driver import Ask, Ctx, Done, Request, turn_of
from .moves import MOVES, Swap
from .rules import rules_for
from .turn import game
from .view import public_view


class ArcanumState(Core, GameState):
    NAME = "arcanum"
    MOVES = MOVES

    def __init__(self, players: int, variant: str | None = None,
                 options: Mapping[str, Any] | None = None, omniscient: bool = True,
                 viewer: int | None = None) -> None:
        super().__init__(players, variant or "STANDARD", options or {}, omniscient, viewer)
        self.rules = rules_for(self.variant, self.options, players)
        self.board = load_board(self.rules.board)
        self._init_core()
        self.phase = "setup"
        self._claims_by_handle: dict[int, list[Claim]] = {}
        self._log: list[tuple] = []
        self._busy = 0
        self._flow = game(self)
        self._req: Request = next(self._flow)

    def _send(self, value: Any) -> None:
        self._req = self._flow.send(value)

    # ---- contract ----------------------------------------------------------------------------
    def turn(self) -> Turn:
        return turn_of(self._req)

    def ctx(self) -> Ctx | None:
        return self._req.ctx if isinstance(self._req, Ask) else None

    def legal_moves(self, seat: int) -> list[Move]:
        """The seat's move space from its own knowledge (spec/games/arcanum.md R-A5)."""
        req = self._req
        if not isinstance(req, Ask) or seat not in req.seats or seat in req.ctx.answers:
            return []
        out = []
        for move in legal.candidates(self, seat, req.ctx):
            try:
                legal.check(self, seat, move, req.ctx)
            except IllegalMove:
                continue
            out.append(move)
        return out

    def _check(self, seat: int, move: Move) -> None:
        """Pure: judged from this state's knowledge (a card it does not know passes, §10)."""
        req = self._req
        assert isinstance(req, Ask)
        legal.check(self, seat, move, req.ctx)

    def apply(self, seat: int, move: Move, *, listed: bool = False) -> None:
        self._log.append(("m", seat, move))
        self._busy += 1
        try:
            super().apply(seat, move, listed=listed)
        finally:
            self._busy -= 1

    def _apply(self, seat: int, move: Move) -> None:
        self._send((seat, move))

    def resolve_chance(self, result: Any) -> None:
        self._log.append(("c", dict(result) if isinstance(result, Mapping) else result))
        self._busy += 1
        try:
            super().resolve_chance(result)
        finally:
            self._busy -= 1

    def resolve_reveals(self, values: Mapping[int, str] | None = None) -> None:
        self._log.append(("r", dict(values or {})))
        self._busy += 1
        public = [r.handle for r in self.turn().reveals if r.to == PUBLIC]
        try:
            super().resolve_reveals(values)
            for h in public:
                if self.cards[h] is not None:
                    self._on_public(h, self.cards[h])  # type: ignore[arg-type]
        finally:
            self._busy -= 1

    def learn(self, handle: int, card: str) -> None:
        if not self._busy:
            self._log.append(("l", handle, card))
        super().learn(handle, card)

    def _resolve_chance(self, result: Any) -> None:
        self._send(result)

    def _resolve_reveals(self) -> None:
        self._send(None)

    def move_reveals(self, seat: int, move: Move) -> tuple[Reveal, ...]:
        """Cards a move turns face up (played, discarded, exposed by the Sun, a Fool swapped in)."""
        if hasattr(move, "card"):
            pairs = [(move.handle, move.card)]  # type: ignore[attr-defined]
        elif hasattr(move, "cards"):
            handles = move.give if isinstance(move, Swap) else move.handles  # type: ignore[attr-defined]
            pairs = list(zip(handles, move.cards))  # type: ignore[attr-defined]
        else:
            pairs = []
        return tuple(Reveal(h, PUBLIC, seat) for h, c in pairs
                     if c and 0 <= h < len(self.seen) and PUBLIC not in self.seen[h])

    def clone(self) -> "ArcanumState":
        copy = type(self)(self.players, self.variant, self.options, self.omniscient, self.viewer)
        for entry in self._log:
            tag = entry[0]
            if tag == "m":
                copy.apply(entry[1], entry[2])
            elif tag == "c":
                copy.resolve_chance(entry[1])
            elif tag == "r":
                copy.resolve_reveals(entry[1])
            else:
                copy.learn(entry[1], entry[2])
        return copy

    def __deepcopy__(self, memo: dict) -> "ArcanumState":
        return self.clone()

    # ---- hidden areas and claims (§10) ---------------------------------------------------------
    def face_down(self, seat: int) -> list[int]:
        return [h for h in self.z.hidden[seat] if h not in self.face_up]

    def _claim_card(self, seat: int, kind: str, handle: int) -> None:
        """§10: a claim about one card, decided when its value is learnt — at once where it is
        known to the claimant (its own state), to everyone (public) or to an omniscient state.
        A third seat that knows it privately (the giver of a Wheel card) does not act on that
        private knowledge: the claim waits until the card opens to everyone (a scoring, a play,
        the audit, which opens it for this claim), so every peer and the verifier convict the
        liar together (A10)."""
        claim = self._claim(seat, kind, (("handle", handle),), self.where())
        self._watch_for_audit((handle,))
        self._claims_by_handle.setdefault(handle, []).append(claim)
        card = self.cards[handle]
        if card is not None and (self.omniscient or seat == self.viewer
                                 or PUBLIC in self.seen[handle]):
            self._judge(claim, card)

    def _on_public(self, handle: int, card: str) -> None:
        """A card this state may have known privately is open to everyone: decide the claims
        that waited for it."""
        for claim in self._claims_by_handle.get(handle, ()):
            if claim in self.claims:
                self._judge(claim, card)

    def _judge(self, claim: Claim, card: str) -> None:
        minor = kind_of(card) == MINOR
        false = {"minor": not minor, "not-minor": minor}[claim.kind]
        if false:
            raise self._false_claim(claim, f"claim {claim.kind!r} about card "
                                           f"{dict(claim.detail)['handle']} was false: it is {card}")
        self._settle_claim(claim)

    def _on_learn(self, handle: int, card: str) -> None:
        for claim in self._claims_by_handle.get(handle, ()):
            self._judge(claim, card)

    def on_hidden(self, seat: int, handle: int) -> None:
        if self.kind[handle] is None:
            self._claim_card(seat, "minor", handle)
            self.kind[handle] = MINOR

    def on_swapped_in(self, seat: int, handle: int) -> None:
        """Temperance: a card entering the hidden area face down is a minor (the Fool would have
        been opened, R25), which the omniscient check enforces at once."""
        if self.kind[handle] is None and PUBLIC not in self.seen[handle]:
            self._claim_card(seat, "minor", handle)

    def on_wheel(self, giver: int, receiver: int, handle: int) -> None:
        if self.rules.wheel_hides_kind and PUBLIC not in self.seen[handle]:
            self.kind[handle] = None

    def on_opened(self, seat: int, handle: int) -> None:
        card = self.cards[handle]
        if card is not None:
            self.kind[handle] = kind_of(card)

    def claim_no_minor(self, seat: int, why: str) -> None:
        for h in self.z.hands[seat]:
            if self.kind[h] is None:
                self._claim_card(seat, "not-minor", h)

    # ---- views and outcome -------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return public_view(self, seat)

    def outcome(self) -> Outcome | None:
        if not isinstance(self._req, Done):
            return None
        best = max(self.vp)
        top = [s for s in range(self.players) if self.vp[s] == best]
        most = max(len(self.z.hands[s]) for s in top)
        winners = tuple(s for s in top if len(self.z.hands[s]) == most)  # R42
        return Outcome(tuple(self.vp), winners,
                       {"vp": list(self.vp), "hand": [len(h) for h in self.z.hands],
                        "scorings": [dict(s) for s in self.scorings]})


def factory(players: int, variant: str | None, options: Mapping[str, Any], viewer: int | None,
            omniscient: bool) -> ArcanumState:
    return ArcanumState(players, variant, options, omniscient, viewer)
