"""The table session: a signed, hash-chained lockstep log that drives the engine and the deck.

Sans-I/O (the h11 pattern): `receive(bytes)`, `act(move)`, `start()` and `blame_silence()` return
a list of effects (`Send`, `Record`, `NeedMove`, `Progress`, `Finished`, `Aborted`); the runner in
`p2ptarot.net` pumps them. The same class, built with `seat=None` and no identity, is the offline
verifier: it replays a transcript and performs every check a live peer performs.

A *step* is one round of messages: the seats it expects follow from the mental-poker layer (keys,
a shuffle, shares, re-encryptions, audit keys) or, when the deck is idle, from the engine's turn
(moves, commit/open of a joint draw, the final result). A step completes when every expected seat
has spoken; its messages are then processed in seat order, so every honest peer builds the same log.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from p2ptarot.crypto.commitment import check_commitment, commit
from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.signing import Identity
from p2ptarot.engine import (EngineError, GameState, IllegalMove, Move, Outcome, PUBLIC,
                             RandomChoice, Shuffle, TurnKind, create)
from p2ptarot.mental.errors import MentalError, MentalViolation
from p2ptarot.mental.events import Expectation, Transfer
from p2ptarot.mental.table import MentalTable
from pydantic import ValidationError

from . import canonical, coin
from .bodies import AbortBody, CommitBody, MoveBody, OpenBody, ResultBody
from .charter import SignedCharter
from .effects import (Aborted, Effect, Finished, Forward, NeedMove, Progress, Record, Send,
                      Warning)
from .envelope import Envelope, EnvelopeError, chain_next, chain_start, parse, seal
from .evidence import AbortLedger, StoppedSeat, evidence_lines, is_equivocation
from .secrets import EpochKeySource

MAX_STEPS_AHEAD = 64
MENTAL_KINDS = ("mental.key", "mental.shuffle", "mental.shares", "mental.reencrypt",
                "mental.reveal-key")


class Violation(Exception):
    """A fault attributable to `seat` (the session turns it into an abort)."""

    def __init__(self, seat: int, reason: str, evidence: tuple[Envelope, ...] = ()) -> None:
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason
        self.evidence = evidence


@dataclass(frozen=True)
class StepSpec:
    """Who must speak in the current step, and what kind of message they send."""

    kind: str
    seats: tuple[int, ...]
    label: str
    deck_op: tuple[str, int, int] | None = None  # (deck, epoch, op) of a deck-protocol step


@dataclass
class _Coin:
    """A joint draw in progress (commit round, then open round)."""

    request: RandomChoice
    index: int
    stage: str = "commit"
    digests: dict[int, bytes] | None = None


class Session:
    """One seat's (or an observer's) copy of a table's lockstep log."""

    def __init__(self, signed: SignedCharter, seat: int | None, identity: Identity | None = None,
                 seed: bytes | None = None) -> None:
        signed.verify()
        self.signed = signed
        self.charter = signed.charter
        self.table_id = self.charter.table_id
        self.n = len(self.charter.seats)
        self.seat = seat
        if seat is not None:
            if identity is None or seed is None:
                raise ValueError("a seated session needs its identity and its game seed")
            if identity.public_bytes != self.charter.seat_key(seat):
                raise ValueError(f"this identity is not the one of seat {seat}")
        self.identity = identity
        self._keys = EpochKeySource(seed, self.table_id) if seed is not None else None
        self._seed = seed
        self.game: GameState = create(self.charter.game, self.n, self.charter.variant,
                                      self.charter.options, viewer=seat, omniscient=False)
        self.mental = MentalTable(self.table_id, self.n, seat, self._keys)
        self.step = 0
        self.chain = chain_start(self.table_id)
        self.log: list[Envelope] = []
        self._logged: dict[tuple[int, int], Envelope] = {}  # (step, seat) -> its logged message
        self._ledger = AbortLedger()
        self._seen: set[bytes] = set()  # hashes of every frame taken in (duplicates cost nothing)
        self._other_history: set[tuple[int, int]] = set()  # (step, seat) already warned about
        self._inbox: dict[int, dict[int, Envelope]] = {}
        self._spec: StepSpec | None = None
        self._after_mental: deque[Callable[[], None]] = deque()
        self._moves: deque[tuple[int, Move, Any]] = deque()
        self._coin: _Coin | None = None
        self._coins_drawn = 0
        self._where: dict[int, tuple[str, int, int]] = {}  # engine handle -> (deck, epoch, mental handle)
        self._epoch_of_deck: dict[str, int] = {}
        self._result_due = False
        self._revealing = False
        self._move_turn: Any = None
        self._last_move: dict[int, Envelope] = {}  # seat -> its latest applied move
        self._claim_envs: list[Envelope | None] = []  # claim id i was made by this message
        self.outcome: Outcome | None = None
        self.aborted: Aborted | None = None
        self._out: list[Effect] = []
        self._advancing = False  # inside `_advance`: a completed step returns to its loop

    # ---- public API ---------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.outcome is not None or self.aborted is not None

    @property
    def aborts(self) -> list[Envelope]:
        """Every correctly signed abort record this peer holds (its own included)."""
        return self._ledger.records

    @property
    def spec(self) -> StepSpec | None:
        """The current step's expectations (None once the game is over)."""
        return self._spec

    def start(self) -> list[Effect]:
        """Compute the first step and emit this seat's first messages."""
        self._run(self._advance)
        return self._flush()

    def receive(self, data: bytes) -> list[Effect]:
        """Take one envelope from any peer (or a transcript line) and process what it completes."""
        self._run(lambda: self._accept(data))
        return self._flush()

    def load(self, envelopes: list[bytes]) -> list[Effect]:
        """Resume: store many envelopes first (the own ones included), then advance once, so a
        restarted seat reuses its logged messages instead of making new ones."""
        def go() -> None:
            for data in envelopes:
                self._accept(data, advance=False, trusted=True)
            self._advance()
        self._run(go)
        return self._flush()

    def act(self, move: Move) -> list[Effect]:
        """The local seat's move for the current move step."""
        spec = self._spec
        if self.seat is None or spec is None or spec.kind != "move" or self.seat not in spec.seats:
            raise EngineError("it is not this seat's turn to move")
        if self.seat in self._inbox.get(self.step, {}):
            raise EngineError("this seat already moved in this step")
        self.game.check(self.seat, move)  # IllegalMove with the engine's reason
        self._run(lambda: self._send("move", MoveBody(move=move.to_json(), shares=[]).model_dump()))
        return self._flush()

    def pending_seats(self) -> tuple[int, ...]:
        """Seats the current step still waits for: no message, or one chained to another history."""
        if self._spec is None or self.finished:
            return ()
        have = self._inbox.get(self.step, {})
        chain = canonical.b64(self.chain)
        return tuple(s for s in self._spec.seats if s not in have or have[s].prev != chain)

    def blame_silence(self) -> list[Effect]:
        """The runner's timeout expired. Blame the first other seat the step still waits for —
        unless that silence is explained: a seat that signed an abort record has stopped (anyone
        may be waiting on it), and a seat whose message chains to another history is not silent
        (someone showed us different messages; without both versions nobody can be blamed).
        This seat's own pending move is its runner's business, never a fault of another seat."""
        def go() -> None:
            if self.finished:
                return
            stop = self._ledger.first()
            if stop is not None:
                self._abandon(stop)
                return
            missing = [s for s in self.pending_seats() if s != self.seat]
            if not missing:
                return
            have = self._inbox.get(self.step, {})
            split = [s for s in missing if s in have]
            if split:
                self._abort(None, f"step {self.step} cannot complete: seat {split[0]}'s message "
                                  f"chains to another history than this seat's (some seat showed "
                                  f"peers different messages, and both versions never reached "
                                  f"this seat); nobody can be convicted without them", ())
                return
            self._abort(missing[0], f"silent past the table timeout in step {self.step} "
                                    f"({self._spec.label if self._spec else ''})", ())
        self._run(go)
        return self._flush()

    def messages_from(self, step: int) -> list[Envelope]:
        """Log and pending envelopes from `step` on (to serve a peer that is catching up)."""
        out = [e for e in self.log if e.step >= step]
        for s in sorted(self._inbox):
            if s >= step:
                out.extend(self._inbox[s][k] for k in sorted(self._inbox[s]))
        return out + list(self.aborts)

    # ---- plumbing -----------------------------------------------------------------------------
    def _flush(self) -> list[Effect]:
        out, self._out = self._out, []
        return out

    def _run(self, fn: Callable[[], None]) -> None:
        if self.aborted is not None:
            return
        try:
            fn()
        except Violation as v:
            self._abort(v.seat, v.reason, v.evidence)
        self._settle()

    def _settle(self) -> None:
        """A live seat honours the abort records it holds: once the game needs a seat that
        signed it stopped, the game is over for this seat too — without blaming anyone's silence
        (they may all be waiting on the stopped seat). Convictions come only from own checks,
        which ran first on the record's evidence. The verifier has no clock and simply replays."""
        if self.seat is None or self.finished:
            return
        stop = self._ledger.blocking(self.step, self.pending_seats())
        if stop is not None:
            self._abandon(stop)

    def _emit(self, effect: Effect) -> None:
        self._out.append(effect)

    def _send(self, kind: str, body: dict[str, Any]) -> None:
        assert self.identity is not None and self.seat is not None
        env = seal(self.identity, self.table_id, self.step, self.seat, self.chain, kind, body)
        self._inbox.setdefault(self.step, {})[self.seat] = env
        self._seen.add(hashlib.sha256(env.encoded()).digest())
        self._emit(Send(env))
        self._try_complete()

    # ---- receiving ----------------------------------------------------------------------------
    def _accept(self, data: bytes, advance: bool = True, trusted: bool = False) -> None:
        frame = hashlib.sha256(data).digest()
        if frame in self._seen:
            return  # the very same bytes again (a relay, a catch-up): nothing new
        self._seen.add(frame)
        try:
            env = parse(data)
        except EnvelopeError as exc:
            self._emit(Warning(f"dropped a message: {exc}"))
            return
        if env.table != canonical.b64(self.table_id):
            self._emit(Warning("dropped a message of another table"))
            return
        if env.seat >= self.n:
            self._emit(Warning(f"dropped a message from unknown seat {env.seat}"))
            return
        try:
            env.verify_signature(self.charter.seat_key(env.seat))
        except EnvelopeError as exc:
            self._emit(Warning(f"dropped a message: {exc}"))
            return
        if env.v != self.charter.protocol:
            raise Violation(env.seat, f"signed a message of protocol version {env.v} at a table "
                                      f"of version {self.charter.protocol}", (env,))
        if env.kind == "abort":
            self._on_abort_record(env, advance, trusted)
            return
        if env.step < self.step:
            logged = self._logged.get((env.step, env.seat))
            if logged is not None and is_equivocation(logged, env):
                raise Violation(env.seat, f"equivocation: two signed messages for step {env.step}",
                                (logged, env))
            return  # a duplicate of something already processed
        if env.step > self.step + MAX_STEPS_AHEAD and not trusted:
            self._emit(Warning(f"dropped a message for step {env.step}, too far ahead"))
            return
        slot = self._inbox.setdefault(env.step, {})
        known = slot.get(env.seat)
        if known is not None:
            if is_equivocation(known, env):
                raise Violation(env.seat, f"equivocation: two signed messages for step {env.step}",
                                (known, env))
            return
        slot[env.seat] = env
        if not trusted and env.seat != self.seat:
            self._emit(Forward(env))  # before anything is chained on it (PROTOCOL §8)
        if advance and not self.finished:
            self._try_complete()

    def _on_abort_record(self, env: Envelope, advance: bool, trusted: bool) -> None:
        """Keep and relay a signed abort record, then re-check its evidence as received messages
        (the record's own `blame` is never adopted: see `p2ptarot.table.evidence`)."""
        try:
            body = AbortBody.model_validate(env.body)
        except ValidationError:
            self._emit(Warning(f"dropped a malformed abort record from seat {env.seat}"))
            return
        if not self._ledger.add(env, body.blame, body.reason):
            return
        if not trusted and env.seat != self.seat:
            self._emit(Forward(env))
        self._emit(Record(env))
        accused = "nobody" if body.blame is None else f"seat {body.blame}"
        self._emit(Progress(env.step, f"seat {env.seat} stopped the game, accusing {accused}: "
                                      f"{body.reason}"))
        for line in evidence_lines(body.evidence):
            self._accept(line, advance=advance, trusted=trusted)

    def _try_complete(self) -> None:
        while self._spec is not None and not self.finished:
            chain = canonical.b64(self.chain)
            have = {s: e for s, e in self._inbox.get(self.step, {}).items() if e.prev == chain}
            self._note_other_history()
            if not all(s in have for s in self._spec.seats):
                return
            extra = [s for s in have if s not in self._spec.seats]
            if extra:
                raise Violation(extra[0], f"spoke in step {self.step} where it was not expected",
                                (have[extra[0]],))
            envs = [have[s] for s in self._spec.seats]
            for env in envs:
                if env.kind != self._spec.kind:
                    raise Violation(env.seat, f"step {self.step}: sent {env.kind!r}, expected "
                                              f"{self._spec.kind!r}", (env,))
            self._process(envs)
            self.chain = chain_next(self.chain, envs)
            self.log.extend(envs)
            self._logged.update(((e.step, e.seat), e) for e in envs)
            for env in envs:
                self._emit(Record(env))
            del self._inbox[self.step]
            self.step += 1
            self._spec = None
            if self._advancing:
                return  # the `_advance` loop below us goes on (no recursion per step)
            self._advance()

    def _note_other_history(self) -> None:
        """A message chained to another history than ours convicts nobody by itself: its author
        saw different messages for an earlier step (someone equivocated, and the relayed twin
        will convict that seat) or signed a wrong hash (then it never completes the step)."""
        chain = canonical.b64(self.chain)
        for seat, env in self._inbox.get(self.step, {}).items():
            if env.prev != chain and (self.step, seat) not in self._other_history:
                self._other_history.add((self.step, seat))
                self._emit(Warning(f"seat {seat}'s message for step {self.step} chains to another "
                                   f"history: waiting for the messages that explain it"))

    def _process(self, envs: list[Envelope]) -> None:
        kind = self._spec.kind if self._spec else ""
        if kind in MENTAL_KINDS:
            for env in envs:
                self._check_deck_header(env)
                try:
                    self.mental.receive_dict(env.seat, env.body)
                except MentalViolation as exc:
                    raise Violation(exc.seat, str(exc), (env,)) from exc
                except MentalError as exc:
                    raise Violation(env.seat, f"deck protocol: {exc}", (env,)) from exc
            return
        if kind == "move":
            for env in envs:
                self._moves.append((env.seat, self._decode_move(env), env))
            return
        if kind == "coin.commit":
            assert self._coin is not None
            self._coin.digests = {}
            for env in envs:
                body = self._body(CommitBody, env)
                if body.purpose != self._coin.request.purpose:
                    raise Violation(env.seat, "commitment for another draw", (env,))
                self._coin.digests[env.seat] = canonical.unb64(body.digest, "digest", 32)
            self._coin.stage = "open"
            return
        if kind == "coin.open":
            assert self._coin is not None and self._coin.digests is not None
            openings = []
            label = coin.label(self.table_id, self._coin.request.purpose, self._coin.index)
            for env in envs:
                body = self._body(OpenBody, env)
                value = canonical.unb64(body.value, "value", 32)
                try:
                    check_commitment(label, self._coin.digests[env.seat], value,
                                     canonical.unb64(body.salt, "salt", 32))
                except CryptoError as exc:
                    raise Violation(env.seat, f"opening does not match its commitment: {exc}",
                                    (env,)) from exc
                openings.append(value)
            request = self._coin.request
            value = coin.draw(openings, request.n, self.table_id + request.purpose.encode())
            self._coin = None
            self._coins_drawn += 1
            self._emit(Progress(self.step, f"joint draw for {request.purpose}: {value}"))
            self._engine(lambda: self.game.resolve_chance(value), None)
            return
        if kind == "result":
            assert self.outcome is None
            mine = self.game.outcome()
            assert mine is not None
            for env in envs:
                body = self._body(ResultBody, env)
                if body.outcome != mine.to_json():
                    raise Violation(env.seat, "signed a different outcome", (env,))
            self.outcome = mine
            self._result_due = False
            self._emit(Finished(mine))
            return
        raise Violation(envs[0].seat, f"unknown message kind {kind!r}", (envs[0],))

    def _check_deck_header(self, env: Envelope) -> None:
        """A deck message must be for the very operation the step expects (the deck layer would
        otherwise route it by its own header, to another open epoch or operation)."""
        spec = self._spec
        assert spec is not None and spec.deck_op is not None
        header = (env.body.get("kind"), env.body.get("deck"), env.body.get("epoch"),
                  env.body.get("op"), env.body.get("seat"))
        if header != (env.kind, *spec.deck_op, env.seat):
            raise Violation(env.seat, f"step {self.step}: a {env.kind} message for another "
                                      f"operation than {spec.label}", (env,))

    def _body(self, model: type, env: Envelope) -> Any:
        try:
            return model.model_validate(env.body)
        except ValidationError as exc:
            raise Violation(env.seat, f"malformed {env.kind} body: {exc.errors()[0]['msg']}",
                            (env,)) from exc

    def _decode_move(self, env: Envelope) -> Move:
        body = self._body(MoveBody, env)
        try:
            return self.game.move_from_json(body.move)
        except (EngineError, TypeError, ValueError) as exc:
            raise Violation(env.seat, f"unreadable move: {exc}", (env,)) from exc

    def _engine(self, fn: Callable[[], None], blame: int | None,
                evidence: tuple[Envelope, ...] = ()) -> None:
        """Run an engine transition; an IllegalMove blames its seat, other errors `blame`."""
        try:
            fn()
        except IllegalMove as exc:
            if exc.claim is not None:
                # a claim proven false (even by its author's own later move, e.g. an Eleusis
                # dealer opening his rule): cite the signed message that made it
                evidence = self._claim_evidence(exc.claim) or evidence
            elif not evidence or evidence[0].seat != exc.seat:
                # another seat's lie came to light: cite its own signed answer, not this move
                evidence = self._claim_evidence(exc.claim) or (
                    (self._last_move[exc.seat],) if exc.seat in self._last_move else ())
            raise Violation(exc.seat, f"illegal: {exc.reason}" + (f" ({exc.where})" if exc.where else ""),
                            evidence) from exc
        except (EngineError, LookupError, TypeError, ValueError) as exc:
            if blame is None:
                raise
            raise Violation(blame, f"rejected by the rules engine: {exc}", evidence) from exc

    # ---- advancing ----------------------------------------------------------------------------
    def _advance(self) -> None:
        """Move the engine/deck forward until some seat must speak; emit own messages.

        Iterative: a resumed log of thousands of steps must not recurse once per step."""
        outer = not self._advancing
        self._advancing = True
        try:
            while not self.finished and self._spec is None:
                spec = self._next_spec()
                if spec is None:
                    return
                self._spec = spec
                self._emit(Progress(self.step, spec.label))
                self._speak_if_due()
                self._try_complete()
        finally:
            if outer:
                self._advancing = False

    def _speak_if_due(self) -> None:
        spec = self._spec
        if spec is None or self.seat is None or self.seat not in spec.seats:
            return
        if self.seat in self._inbox.get(self.step, {}):
            return  # already said (resume): reuse, never make a second version
        if spec.kind in MENTAL_KINDS:
            assert spec.deck_op is not None
            deck, epoch, op = spec.deck_op
            msg = self.mental.epoch(deck, epoch).make(Expectation(deck, epoch, op, spec.kind, self.seat))
            self._send(msg.KIND, msg.to_dict())
        elif spec.kind == "move":
            legal = tuple(self.game.legal_moves(self.seat))
            self._emit(NeedMove(self.seat, legal, self.game.view(self.seat)))
        elif spec.kind in ("coin.commit", "coin.open"):
            assert self._coin is not None and self._seed is not None
            value, salt = self._coin_secret(self._coin.index)
            label = coin.label(self.table_id, self._coin.request.purpose, self._coin.index)
            digest, _ = commit(label, value, salt)
            purpose = self._coin.request.purpose
            if spec.kind == "coin.commit":
                self._send(spec.kind, CommitBody(purpose=purpose, digest=canonical.b64(digest)).model_dump())
            else:
                self._send(spec.kind, OpenBody(purpose=purpose, value=canonical.b64(value),
                                               salt=canonical.b64(salt)).model_dump())
        elif spec.kind == "result":
            mine = self.game.outcome()
            assert mine is not None
            self._send("result", ResultBody(outcome=mine.to_json()).model_dump())

    def _coin_secret(self, index: int) -> tuple[bytes, bytes]:
        """Coin value and salt derived from the game seed: a restarted seat opens what it committed."""
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        assert self._seed is not None
        info = b"p2ptarot/coin" + self.table_id + index.to_bytes(8, "big")
        material = HKDF(algorithm=hashes.SHA512(), length=64, salt=None, info=info).derive(self._seed)
        return material[:32], material[32:]

    def _next_spec(self) -> StepSpec | None:
        while True:
            expected = self.mental.expected()
            if expected:
                first = expected[0]
                seats = tuple(sorted(e.seat for e in expected
                                     if (e.deck, e.epoch, e.op) == (first.deck, first.epoch, first.op)))
                return StepSpec(first.kind, seats, f"{first.kind} for {first.deck} epoch "
                                                   f"{first.epoch} (op {first.op})",
                                (first.deck, first.epoch, first.op))
            if self._after_mental:
                self._after_mental.popleft()()
                continue
            if self._coin is not None:
                kind = f"coin.{self._coin.stage}"
                return StepSpec(kind, tuple(range(self.n)),
                                f"{kind} for {self._coin.request.purpose}")
            if self._moves:
                self._apply_next_move()
                continue
            if self._result_due:
                return StepSpec("result", tuple(range(self.n)), "every seat signs the result")
            if self.outcome is not None:
                return None
            turn = self.game.turn()
            kind = turn.kind
            if kind is TurnKind.CHANCE:
                self._chance(turn.chance)
                continue
            if kind is TurnKind.REVEAL:
                self._reveals(turn.reveals)
                continue
            if kind in (TurnKind.SEAT, TurnKind.SIMULTANEOUS, TurnKind.INTERRUPT):
                self._move_turn = turn
                return StepSpec("move", tuple(turn.seats), f"{kind.value} move by seat(s) "
                                f"{', '.join(str(s) for s in turn.seats)}")
            # OVER: audit every open epoch, then everyone signs the result
            open_epochs = [e for e in self.mental.epochs() if not e.closed]
            if open_epochs:
                for ep in open_epochs:
                    self._audit(ep.deck, ep.epoch)
                continue
            if self.game.outcome() is None:  # a void game whose audit proved nobody at fault
                self._abort(None, "the game ended void (no outcome) and its audit proved no seat "
                                  "at fault", ())
                return None
            self._result_due = True

    # ---- engine requests mapped onto the deck protocol -----------------------------------------
    def _chance(self, chance: Any) -> None:
        if isinstance(chance, RandomChoice):
            self._coin = _Coin(chance, self._coins_drawn)
            return
        assert isinstance(chance, Shuffle)
        if chance.cards:
            previous = self._epoch_of_deck.get(chance.deck)
            if previous is not None and not self.mental.epoch(chance.deck, previous).closed:
                self._audit(chance.deck, previous)
                return  # the audit runs first; the shuffle is asked again afterwards
            if self._keys is not None:
                self._keys.arm(chance.deck, chance.epoch)
            self.mental.open_deck(chance.deck, chance.epoch, chance.cards)
            self._epoch_of_deck[chance.deck] = chance.epoch
            for i, h in enumerate(chance.handles):
                self._where[h] = (chance.deck, chance.epoch, i)
        else:
            deck, epoch, _ = self._where[chance.source[0]]
            sources = []
            for h in chance.source:
                d, e, mh = self._where[h]
                if (d, e) != (deck, epoch):
                    raise EngineError("a reshuffle must stay within one deck epoch")
                sources.append(mh)
            _, new = self.mental.reshuffle(deck, epoch, sources)
            for h, mh in zip(chance.handles, new):
                self._where[h] = (deck, epoch, mh)
        self._after_mental.append(lambda: self._engine(lambda: self.game.resolve_chance({}), None))

    def _reveals(self, reveals: tuple) -> None:
        by_epoch: dict[tuple[str, int], dict[str, list]] = {}
        for r in reveals:
            deck, epoch, mh = self._where[r.handle]
            group = by_epoch.setdefault((deck, epoch), {"public": [], "deal": {}, "show": []})
            if r.to == PUBLIC:
                group["public"].append(mh)
            elif r.holder < 0:
                group["deal"][mh] = r.to
            else:
                group["show"].append(Transfer(mh, r.holder, r.to))
        for (deck, epoch), group in by_epoch.items():
            if group["deal"]:
                self.mental.deal(deck, epoch, group["deal"])
            if group["public"]:
                self.mental.reveal(deck, epoch, group["public"])
            if group["show"]:
                self.mental.show(deck, epoch, group["show"])

        def done() -> None:
            self._sync_known()
            self._engine(lambda: self.game.resolve_reveals({}), None)
        self._after_mental.append(done)

    def _audit(self, deck: str, epoch: int) -> None:
        self.mental.audit(deck, epoch)

        def done() -> None:
            values = self.mental.epoch(deck, epoch).audit_result()
            for h, (d, e, mh) in sorted(self._where.items()):
                if (d, e) == (deck, epoch) and mh in values and self.game.cards[h] is None:
                    self._learn(h, values[mh])
            self._emit(Progress(self.step, f"audit of {deck} epoch {epoch}: every card checked"))
        self._after_mental.append(done)

    def _sync_known(self) -> None:
        """Feed the engine every card value the deck layer let this seat (or the public) learn."""
        cache: dict[tuple[str, int], dict[int, str]] = {}
        for h, (deck, epoch, mh) in self._where.items():
            if self.game.cards[h] is not None:
                continue
            known = cache.get((deck, epoch))
            if known is None:
                ep = self.mental.epoch(deck, epoch)
                known = cache[(deck, epoch)] = (ep.known_cards() if self.seat is not None
                                                else ep.public_cards())
            card = known.get(mh)
            if card is not None:
                self._learn(h, card)

    def _learn(self, handle: int, card: str) -> None:
        """Tell the engine a card value; a claim it disproves blames the seat that made it, with
        that seat's signed message as evidence."""
        try:
            self.game.learn(handle, card)
        except IllegalMove as exc:
            raise Violation(exc.seat, f"false claim: {exc.reason}",
                            self._claim_evidence(exc.claim)) from exc

    def _claim_evidence(self, claim: int | None) -> tuple[Envelope, ...]:
        """The signed message by which claim number `claim` was made, if it is known."""
        if claim is None or not 0 <= claim < len(self._claim_envs):
            return ()
        env = self._claim_envs[claim]
        return (env,) if env is not None else ()

    def _apply_next_move(self) -> None:
        """Apply queued moves in seat order; a move that opens cards waits for their shares."""
        seat, move, env = self._moves[0]
        turn = self._move_turn
        if turn is not None and turn.kind is TurnKind.INTERRUPT and self.game.turn() != turn:
            self._moves.popleft()  # the window closed before this answer: it has no effect
            return
        if not self._revealing:
            by_epoch: dict[tuple[str, int], list[int]] = {}
            for r in self._checked_reveals(seat, move, env):
                if r.handle not in self._where:
                    raise Violation(seat, f"move names handle {r.handle}, which does not exist", (env,))
                deck, epoch, mh = self._where[r.handle]
                ep = self.mental.epoch(deck, epoch)
                if mh in ep.public_cards():
                    continue
                if r.holder not in ep.knowers(mh):
                    raise Violation(seat, f"tried to open handle {r.handle}, a card it does not hold",
                                    (env,))
                by_epoch.setdefault((deck, epoch), []).append(mh)
            if by_epoch:
                self._revealing = True
                for (deck, epoch), mhs in by_epoch.items():
                    self.mental.reveal(deck, epoch, mhs)
                self._after_mental.append(self._sync_known)
                return
        self._revealing = False
        self._moves.popleft()
        self._last_move[seat] = env
        self._engine(lambda: self.game.apply(seat, move), seat, (env,))
        # a claim is made by its seat's own answer, even when another seat's move closes the window
        self._claim_envs.extend(self._last_move.get(c.seat)
                                for c in self.game.claim_log[len(self._claim_envs):])

    def _checked_reveals(self, seat: int, move: Move, env: Envelope) -> tuple:
        """The reveals a move obliges — asked only after the engine's pure check passed, so no
        share is ever published for a move the rules refuse: a seat may open only a card it
        holds, never one it was merely shown (High Priestess), or the honest holder would publish
        the last share of its own hidden card (PROTOCOL §5)."""
        try:
            self.game.check(seat, move)
            return self.game.move_reveals(seat, move)
        except (LookupError, TypeError, ValueError) as exc:
            raise Violation(seat, f"malformed move: {exc!r}", (env,)) from exc
        except IllegalMove as exc:
            raise Violation(seat, f"illegal: {exc.reason}", (env,)) from exc
        except EngineError as exc:
            raise Violation(seat, f"rejected by the rules engine: {exc}", (env,)) from exc

    # ---- faults -------------------------------------------------------------------------------
    def _abandon(self, stop: StoppedSeat) -> None:
        """The game needs a seat that signed it stopped: end it, convicting nobody."""
        self._abort(None, f"{stop.describe()}; the evidence it carried proves nothing to this "
                          f"seat's own checks, so nobody is convicted", ())

    def _abort(self, blame: int | None, reason: str, evidence: tuple[Envelope, ...]) -> None:
        if self.aborted is not None:
            return
        step = evidence[0].step if evidence else self.step  # the offending message's step
        self._record_step_in_progress()
        self.aborted = Aborted(blame, reason, step, tuple(evidence[:2]))
        if self.identity is not None and self.seat is not None:
            body = AbortBody.quoting(blame, reason, step, evidence)
            env = seal(self.identity, self.table_id, self.step, self.seat, self.chain, "abort",
                       body.model_dump())
            self._ledger.add(env, blame, reason[:500])
            self._emit(Send(env))
            self._emit(Record(env))
        self._emit(self.aborted)

    def _record_step_in_progress(self) -> None:
        """A fault found while a complete step is processed: put that step's messages in the
        transcript (seat order) before the abort record, so the verifier re-checks the very step
        and reaches the verdict itself."""
        spec = self._spec
        chain = canonical.b64(self.chain)
        have = {s: e for s, e in self._inbox.get(self.step, {}).items() if e.prev == chain}
        if spec is None or not all(s in have for s in spec.seats):
            return
        order = list(spec.seats) + sorted(s for s in have if s not in spec.seats)
        for s in order:
            self._emit(Record(have[s]))
