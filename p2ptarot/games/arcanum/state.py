"""`ArcanumState`: the Arcanum engine (spec/games/arcanum.md) behind the GameState contract.

The game (turn.py) is a generator pumped by `engine.flow.FlowState` (replay log, cloning);
this class judges moves (`_check`, pure, from legal.py) and decides the §10 claims.
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine import PUBLIC, Claim, IllegalMove, Move, Outcome, Reveal
from p2ptarot.engine.flow import Ask, Flow, FlowState

from . import legal
from .board import load_board
from .rules import MINOR, kind_of
from .core import Core
from .moves import MOVES, Swap
from .rules import rules_for
from .turn import game
from .view import build_view
from p2ptarot.i18n.message import tr


class ArcanumState(Core, FlowState):
    NAME = "arcanum"
    MOVES = MOVES

    def __init__(self, players: int, variant: str | None = None,
                 options: Mapping[str, Any] | None = None, omniscient: bool = True,
                 viewer: int | None = None) -> None:
        super().__init__(players, variant or "STANDARD", options or {}, omniscient, viewer)
        self.rules = rules_for(self.variant, self.options)
        self.board = load_board(self.rules.board)
        self._init_core()
        self.phase = "setup"
        self._claims_by_handle: dict[int, list[Claim]] = {}
        self._start()

    def _game(self) -> Flow:
        return game(self)

    # ---- contract ----------------------------------------------------------------------------
    def legal_moves(self, seat: int) -> list[Move]:
        """The seat's move space from its own knowledge (spec/games/arcanum.md A5)."""
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

    def move_reveals(self, seat: int, move: Move) -> tuple[Reveal, ...]:
        """Cards a move turns face up (played, discarded, exposed by the Sun, a Fool swapped in)."""
        if hasattr(move, "card"):
            pairs = [(move.handle, move.card)]  # type: ignore[attr-defined]  # probed with hasattr on the line above
        elif hasattr(move, "cards"):
            handles = move.give if isinstance(move, Swap) else move.handles  # type: ignore[attr-defined]  # probed with hasattr on the line above
            pairs = list(zip(handles, move.cards))
        else:
            pairs = []
        return tuple(Reveal(h, PUBLIC, seat) for h, c in pairs
                     if c and 0 <= h < len(self.seen) and PUBLIC not in self.seen[h])

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
            raise self._false_claim(claim, tr("claim {kind} about card {handle} was false: it is "
                                              "{card}",
                                              kind=repr(claim.kind),
                                              handle=dict(claim.detail)['handle'], card=card))
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
        return build_view(self, seat)

    def outcome(self) -> Outcome | None:
        if not self.is_done():
            return None
        best = max(self.vp)
        top = [s for s in range(self.players) if self.vp[s] == best]
        most = max(len(self.z.hands[s]) for s in top)
        winners = tuple(s for s in top if len(self.z.hands[s]) == most)  # R42
        return Outcome(tuple(self.vp), winners,
                       {"vp": list(self.vp), "hand": [len(h) for h in self.z.hands],
                        "scorings": [dict(s) for s in self.scorings]})

