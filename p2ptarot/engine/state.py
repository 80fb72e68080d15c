"""The contract every game's state implements (spec/ENGINE.md §1–§3).

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
from .knowledge import Knowledge
from .types import (PUBLIC, Claim, Commit, Finding, Move, Open, Outcome, Reveal, Secret, Turn,
                    TurnKind, bad_field, move_from_json)
from p2ptarot.i18n.message import tr

#: the turn kinds in which a seat makes a move
MOVE_KINDS = (TurnKind.SEAT, TurnKind.SIMULTANEOUS, TurnKind.INTERRUPT)


class GameState(ABC):
    """Mutable game state with a deterministic, pure transition function.

    Subclasses set `NAME` and `MOVES` and implement the abstract methods: the rules. What the
    state knows is its `knowledge` (engine/knowledge.py), whose containers it exposes under their
    own names: `cards` (handle -> card id, or None when unknown to this state), `seen` (per
    handle, the seats shown it; PUBLIC when everyone has), `secrets` (name -> Secret, from
    `Commit`/`Open`), `claim_log` (every claim, by id) and `claims` (the pending ones), `findings`.
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
        self.knowledge = Knowledge()
        # the knowledge's containers under their own names (the same objects: rules read them)
        k = self.knowledge
        self.cards, self.seen, self.secrets = k.cards, k.seen, k.secrets
        self.claims, self.claim_log, self.findings = k.claims, k.claim_log, k.findings

    # ---- the contract -------------------------------------------------------------------------
    @abstractmethod
    def turn(self) -> Turn:
        """Who must act now, or which chance/reveal the game waits for."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Move]:
        """The moves `seat` may make now, computed only from what `seat` knows."""

    @abstractmethod
    def _apply(self, seat: int, move: Move) -> None:
        """Apply a move that passed `check`. May still raise IllegalMove (a claim made by the
        move and decided at once, e.g. in omniscient mode); callers abort the game then."""

    def _check(self, seat: int, move: Move) -> None:
        """Game-specific legality, pure; raise IllegalMove(seat, reason). Called by `check` once
        the turn kind, the seat and the move class are known to be right.

        Default: the move must be one of `legal_moves(seat)`. That is right only for games whose
        moves can all be enumerated from the state's knowledge; a game with hidden hands (another
        seat's card values unknown here) or unbounded moves overrides this.
        """
        if move not in self.legal_moves(seat):
            raise IllegalMove(seat, tr("{json} is not a legal move now", json=move.to_json()))

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

    def audit_opens(self) -> frozenset[int]:
        """The handles an epoch's audit must open to everyone (ENGINE.md §1): those whose values
        a claim or a rule still needs and that are not public yet. Nothing else is ever opened,
        so a card the rules keep hidden (an undealt hand, a set-aside card, a stock) stays hidden.

        Computed from public bookkeeping only — never from a value this state happens to know —
        so every peer asks the same audit. Default: every handle registered by
        `_watch_for_audit` (at each claim, in every state) that is not public yet."""
        return self.knowledge.audit_opens()

    def _watch_for_audit(self, handles: Iterable[int]) -> None:
        """A claim made now depends on `handles` (a public set: e.g. the claimant's hand
        handles that are not public). Call it in every state, whether or not this state can
        decide the claim at once, so that `audit_opens` is the same everywhere."""
        self.knowledge.watch(handles)

    def move_reveals(self, seat: int, move: Move) -> tuple[Reveal, ...]:
        """Reveals a move carries with it (e.g. a card played face up). Default: none."""
        return ()

    def _on_learn(self, handle: int, card: str) -> None:
        """Hook: a card value became known; games decide pending claims here."""

    def _on_public(self, handle: int, card: str) -> None:
        """Hook: `handle`, whose value this state may already have known privately, is now open
        to everyone (the audit; games call it where their rules turn a card face up). A claim
        that only private knowledge could refute (a card a third seat was shown) is decided here,
        so that every peer and the verifier decide it together (ENGINE.md §6)."""

    def audited(self, handle: int, card: str) -> None:
        """The epoch's audit opened `handle` to everyone with value `card`."""
        self.learn(handle, card)
        self._on_public(handle, card)

    def _on_learn_secret(self, name: str, value: str) -> None:
        """Hook: the value of secret `name` became known (its Open, or the owner's own Commit);
        games decide the claims that depended on it here."""

    # ---- legality and moves -------------------------------------------------------------------
    def check(self, seat: int, move: Move) -> None:
        """Raise NotYourTurn / IllegalMove(seat, reason) unless `seat` may make `move` now, as far
        as this state knows. Pure: never changes the state. A move whose legality depends on a
        value this state does not know passes; applying it records a Claim.
        """
        turn = self.turn()
        if turn.kind not in MOVE_KINDS:
            raise NotYourTurn(seat, tr("the game waits for {kind}, not for a move",
                                       kind=turn.kind.value))
        if seat not in turn.seats:
            raise NotYourTurn(seat, tr("it is not this seat's turn"))
        if type(move).KIND not in self.MOVES or self.MOVES[type(move).KIND] is not type(move):
            raise IllegalMove(seat, tr("{name} is not a move of {NAME}",
                                       name=type(move).__name__, NAME=self.NAME))
        wrong = bad_field(move)
        if wrong is not None:
            raise IllegalMove(seat, tr("{KIND} field {wrong} has a value of the wrong type",
                                       KIND=move.KIND, wrong=repr(wrong)))
        self._check(seat, move)

    def apply(self, seat: int, move: Move, *, listed: bool = False) -> None:
        """`check` then apply `seat`'s move. After an `IllegalMove` (blaming the seat it names)
        the game must be aborted: callers never continue with this state.

        `listed=True` says the caller took `move` from `legal_moves(seat)` on this very state
        (the simulator's and a bot's choice): the engine already vouched for it, so the check is
        skipped (it was 12-14% of a simulation). Every move that arrives from outside is checked.
        """
        if not listed:
            self.check(seat, move)
        self._apply(seat, move)

    # ---- claims -------------------------------------------------------------------------------
    def _claim(self, seat: int, kind: str, detail: tuple[tuple[str, Any], ...] | Mapping[str, Any],
               where: str) -> Claim:
        """Allocate a numbered claim made by `seat`, pending until the game decides it (then the
        game removes it from `claims`, or raises `self._false_claim(claim, reason)`)."""
        return self.knowledge.claim(seat, kind, detail, where)

    @staticmethod
    def _false_claim(claim: Claim, reason: str) -> IllegalMove:
        """The error that blames a claim proven false (raise it)."""
        return IllegalMove(claim.seat, reason, claim.where, claim=claim.id)

    def _record_finding(self, claim: Claim | None, seat: int, reason: str, where: str) -> Finding:
        """A fault the rules punish in play instead of by stopping the game (Eleusis §7.7): keep
        it and go on. `claim` (proven false) is dropped from the pending ones."""
        return self.knowledge.finding(claim, seat, reason, where)

    def _settle_claim(self, claim: Claim) -> None:
        """A claim proven true: no longer pending."""
        self.knowledge.settle(claim)

    # ---- secrets (values that are not cards) ---------------------------------------------------
    def _check_commit(self, seat: int, move: Commit) -> None:
        """Pure checks every Commit passes: a fresh name; an omniscient state knows the value."""
        if not move.name:
            raise IllegalMove(seat, tr("a secret needs a name"))
        if move.name in self.secrets:
            raise IllegalMove(seat, tr("secret {name} is already committed", name=repr(move.name)))
        if self.omniscient and not move.value:
            raise IllegalMove(seat, tr("secret {name} committed without its value",
                                       name=repr(move.name)))

    def _check_open(self, seat: int, move: Open) -> None:
        """Pure checks every Open passes: the seat's own, unopened secret, opened to the value
        this state knows (the table already checked the commitment; this catches local play)."""
        secret = self.secrets.get(move.name)
        if secret is None:
            raise IllegalMove(seat, tr("no secret {name} was committed", name=repr(move.name)))
        if secret.owner != seat:
            raise IllegalMove(seat, tr("secret {name} belongs to seat {owner}",
                                       name=repr(move.name), owner=secret.owner))
        if secret.opened:
            raise IllegalMove(seat, tr("secret {name} is already open", name=repr(move.name)))
        if secret.value is not None and secret.value != move.value:
            raise IllegalMove(seat, tr("opened secret {name} to a value it did not commit",
                                       name=repr(move.name)))

    def _record_commit(self, seat: int, move: Commit) -> None:
        """Bookkeeping for a Commit, to call from `_apply`: the value is known here iff the move
        carries it (the owner's own state, an omniscient state)."""
        self._check_commit(seat, move)
        value = move.value or None
        self.secrets[move.name] = Secret(seat, value)
        if value is not None:
            self._on_learn_secret(move.name, value)

    def _record_open(self, seat: int, move: Open) -> None:
        """Bookkeeping for an Open, to call from `_apply`: everyone now knows the value."""
        self._check_open(seat, move)
        learnt = self.secrets[move.name].value is None
        self.secrets[move.name] = Secret(seat, move.value, opened=True)
        if learnt:
            self._on_learn_secret(move.name, move.value)

    def secret_for(self, name: str, seat: int | None) -> str | None:
        """Secret `name` as `seat` (None = public) sees it: its owner and, once opened, everyone."""
        return self.knowledge.secret_for(name, seat)

    # ---- shared machinery ---------------------------------------------------------------------

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
        if self.knowledge.record(handle, card):
            self._on_learn(handle, card)

    def _mark_seen(self, handle: int, to: int) -> None:
        self.knowledge.mark_seen(handle, to)

    def known_to(self, handle: int, seat: int | None) -> bool:
        """Whether `seat` (None = public) has been shown the card at `handle`."""
        return self.knowledge.known_to(handle, seat)

    def card_for(self, handle: int, seat: int | None) -> str | None:
        """The card at `handle` as `seat` sees it (None when hidden from it or unknown here)."""
        return self.knowledge.card_for(handle, seat)

    def _new_handles(self, count: int) -> tuple[int, ...]:
        return self.knowledge.new_handles(count)

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

