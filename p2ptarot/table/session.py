"""The table session: a signed, hash-chained lockstep log that drives the engine and the deck.

Sans-I/O (the h11 pattern): `receive(bytes)`, `act(move)`, `start()` and `blame_silence()` return
a list of effects (`Send`, `Record`, `NeedMove`, `Progress`, `Finished`, `Aborted`); the runner in
`p2ptarot.net` pumps them. The same class, built with `seat=None` and no identity, is the offline
verifier: it replays a transcript and performs every check a live peer performs.

A *step* is one round of messages (`StepSpec`): the seats it expects follow from the mental-poker
layer (keys, a shuffle, shares, re-encryptions, audit keys) or, when the deck is idle, from the
head of the session's queue of *pending work* — typed steps (`ApplyMove`, `ResolveReveals`, a
`DrawRound`, a `BlindRound`...) each run by its handler in `_RUN` — and, once that queue is empty,
from the engine's turn (`_ASK`). A step completes when every expected seat has spoken; its
messages are then processed in seat order by the handler of its kind (`_PROCESS`), so every honest
peer builds the same log. Handles, claims and secrets are mapped onto the wire by the engine
bridge (`bridge.py`); the commit/open rounds live in `rounds.py`.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, replace
from typing import Any, Callable

from p2ptarot.crypto.commitment import check_commitment, commit
from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.signing import Identity
from p2ptarot.engine import (Commit, EngineError, GameState, IllegalMove, Move, Open, Outcome,
                             RandomChoice, Shuffle, Turn, TurnKind, create)
from p2ptarot.mental.errors import MentalError, MentalViolation
from p2ptarot.mental.events import Expectation
from p2ptarot.mental.table import MentalTable
from pydantic import ValidationError

from . import canonical, rounds
from .bodies import (STAND_IN, AbortBody, CommitBody, MoveBody, MoveOpenBody, OpenBody,
                     ResultBody, SealedCommitment, SecretSalt)
from .bridge import CommittedSecret, EngineBridge
from .charter import SignedCharter
from .effects import (Aborted, Effect, Finished, Forward, Found, NeedMove, Progress, Record,
                      Send, Warning)
from .envelope import Envelope, EnvelopeError, chain_next, chain_start, parse, seal
from .evidence import AbortLedger, StoppedSeat, evidence_lines, is_equivocation
from .rounds import BlindRound, DrawRound, SeatSecrets
from .secrets import EpochKeySource

MAX_STEPS_AHEAD = 64
MENTAL_KINDS = ("mental.key", "mental.shuffle", "mental.shares", "mental.reencrypt",
                "mental.reveal-key")
#: step kinds in which the local seat chooses a move (`NeedMove`, then `act`)
MOVE_STEP_KINDS = ("move", "move.commit")


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
    turn: Turn | None = None  # the engine turn a `move` step answers


# ---- pending work: typed steps, run in order once the deck is idle ------------------------------
@dataclass(frozen=True)
class ResolveChance:
    """The deck carried out the engine's shuffle: tell the engine."""


@dataclass(frozen=True)
class ResolveReveals:
    """The deck carried out the engine's reveals: feed the values learnt, then tell the engine."""


@dataclass(frozen=True)
class FinishAudit:
    """The audit of one deck epoch is in: feed the engine every value it did not know."""

    deck: str
    epoch: int


@dataclass(frozen=True)
class SyncKnown:
    """A move's reveal shares are in: feed the engine the values now known."""


@dataclass(frozen=True)
class ApplyMove:
    """A received move, applied in its step's seat order. `opened`: the cards it opens were
    revealed already. `origin`: the step where the move was signed first (its commitment step in
    a blind turn)."""

    seat: int
    move: Move
    env: Envelope
    turn: Turn
    origin: int
    opened: bool = False
    digest: bytes | None = None  # a `Commit`'s commitment
    salt: bytes | None = None  # an `Open`'s salt


@dataclass(frozen=True)
class SignResult:
    """The game is over and every epoch audited: every seat signs the outcome."""


Pending = (ResolveChance | ResolveReveals | FinishAudit | SyncKnown | ApplyMove | DrawRound
           | BlindRound | SignResult)


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
        self._secrets = SeatSecrets(seed, self.table_id) if seed is not None else None
        self.game: GameState = create(self.charter.game, self.n, self.charter.variant,
                                      self.charter.options, viewer=seat, omniscient=False)
        self.mental = MentalTable(self.table_id, self.n, seat, self._keys)
        self.bridge = EngineBridge()
        self.step = 0
        self.chain = chain_start(self.table_id)
        self.log: list[Envelope] = []
        self._logged: dict[tuple[int, int], Envelope] = {}  # (step, seat) -> its logged message
        self._ledger = AbortLedger()
        self._seen: set[bytes] = set()  # hashes of every frame taken in (duplicates cost nothing)
        self._other_history: set[tuple[int, int]] = set()  # (step, seat) already warned about
        self._inbox: dict[int, dict[int, Envelope]] = {}
        self._spec: StepSpec | None = None
        self._pending: deque[Pending] = deque()
        self._draws = 0  # joint draws started so far (each one's index)
        self.outcome: Outcome | None = None
        self.aborted: Aborted | None = None
        #: faults the rules punished without ending the game (the engine's findings), with evidence
        self.findings: list[Found] = []
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

    def act(self, move: Move, by: str | None = None) -> list[Effect]:
        """The local seat's move for the current move step (in a blind turn: its commitment).
        `by="bot"`: the seat's stand-in bot chose it (marked in the body, informational)."""
        spec = self._spec
        if (self.seat is None or spec is None or spec.kind not in MOVE_STEP_KINDS
                or self.seat not in spec.seats):
            raise EngineError("it is not this seat's turn to move")
        if self.seat in self._inbox.get(self.step, {}):
            raise EngineError("this seat already moved in this step")
        if by not in (None, STAND_IN):
            raise EngineError(f"a move is marked by {STAND_IN!r} or not at all, not {by!r}")
        self.game.check(self.seat, move)  # IllegalMove with the engine's reason
        body = self._wire_move(move, by)
        if spec.kind == "move":
            self._run(lambda: self._send("move", body))
        else:
            assert self._secrets is not None
            label = rounds.move_label(self.table_id, self.step, self.seat)
            plain = canonical.encode(body)
            digest, _ = commit(label, plain, self._secrets.salt(label))
            try:
                sealed = self._secrets.seal(label, plain)
            except ValueError as exc:
                raise EngineError(f"this move is too large to commit: {exc}") from exc
            commitment = SealedCommitment(digest=canonical.b64(digest), sealed=canonical.b64(sealed))
            self._run(lambda: self._send("move.commit", commitment.model_dump()))
        return self._flush()

    def _wire_move(self, move: Move, by: str | None = None) -> dict[str, Any]:
        """The body of a local move: an engine secret is committed (its value replaced by "" and
        sealed to this seat) or opened (with the salt of its commitment)."""
        assert self._secrets is not None and self.seat is not None
        secret: SealedCommitment | SecretSalt | None = None
        if isinstance(move, Commit):
            if not move.value:
                raise EngineError("a secret value is never empty")
            label = rounds.secret_label(self.table_id, self.step, self.seat, move.name)
            value = move.value.encode("utf-8")
            digest, _ = commit(label, value, self._secrets.salt(label))
            try:
                sealed = self._secrets.seal(label, value)
            except ValueError as exc:
                raise EngineError(f"secret {move.name!r} is too long: {exc}") from exc
            secret = SealedCommitment(digest=canonical.b64(digest), sealed=canonical.b64(sealed))
            move = Commit(move.name, "")
        elif isinstance(move, Open):
            committed = self.bridge.secrets.get(move.name)
            if committed is None or committed.owner != self.seat:
                raise EngineError(f"this seat committed no secret {move.name!r}")
            secret = SecretSalt(salt=canonical.b64(self._secrets.salt(committed.label)))
        return MoveBody(move=move.to_json(), shares=[], secret=secret, by=by).wire()

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


    # ---- processing a completed step (dispatch on its kind) -----------------------------------
    def _process(self, envs: list[Envelope]) -> None:
        kind = self._spec.kind if self._spec else ""
        handler = self._PROCESS.get(kind)
        if handler is None:
            raise Violation(envs[0].seat, f"unknown message kind {kind!r}", (envs[0],))
        handler(self, envs)

    def _on_deck(self, envs: list[Envelope]) -> None:
        for env in envs:
            self._check_deck_header(env)
            try:
                self.mental.receive_dict(env.seat, env.body)
            except MentalViolation as exc:
                raise Violation(exc.seat, str(exc), (env,)) from exc
            except MentalError as exc:
                raise Violation(env.seat, f"deck protocol: {exc}", (env,)) from exc

    def _on_moves(self, envs: list[Envelope]) -> None:
        assert self._spec is not None and self._spec.turn is not None
        for env in envs:
            self._pending.append(self._decode_move(env, env.body, self._spec.turn, env.step))

    def _on_blind_commits(self, envs: list[Envelope]) -> None:
        blind = self._pending[0]
        assert isinstance(blind, BlindRound)
        digests = tuple(self._bytes(env, self._body(SealedCommitment, env).digest, "digest", 32)
                        for env in envs)
        self._pending[0] = replace(blind, commits=tuple(envs), digests=digests)

    def _on_blind_openings(self, envs: list[Envelope]) -> None:
        """Every opening must match its seat's commitment (a mismatch blames the opener at once,
        its opening and its commitment as evidence); then the moves are applied in seat order."""
        blind = self._pending.popleft()
        assert isinstance(blind, BlindRound)
        moves = []
        for env in envs:
            body = self._body(MoveOpenBody, env)
            committed, digest = blind.commitment_of(env.seat)
            content = {k: v for k, v in env.body.items() if k != "salt"}
            try:
                check_commitment(rounds.move_label(self.table_id, blind.step, env.seat), digest,
                                 canonical.encode(content), self._bytes(env, body.salt, "salt", 32))
            except CryptoError as exc:
                raise Violation(env.seat, f"its move does not match the commitment it signed in "
                                          f"step {blind.step}: {exc}", (env, committed)) from exc
            moves.append(self._decode_move(env, content, blind.turn, blind.step))
        self._pending.extendleft(reversed(moves))

    def _on_draw_commits(self, envs: list[Envelope]) -> None:
        draw = self._pending[0]
        assert isinstance(draw, DrawRound)
        digests = []
        for env in envs:
            body = self._body(CommitBody, env)
            if body.purpose != draw.request.purpose:
                raise Violation(env.seat, "commitment for another draw", (env,))
            digests.append(self._bytes(env, body.digest, "digest", 32))
        self._pending[0] = replace(draw, digests=tuple(digests))

    def _on_draw_openings(self, envs: list[Envelope]) -> None:
        draw = self._pending.popleft()
        assert isinstance(draw, DrawRound)
        label = rounds.coin_label(self.table_id, draw.request.purpose, draw.index)
        openings = []
        for env in envs:
            body = self._body(OpenBody, env)
            value = self._bytes(env, body.value, "value", 32)
            try:
                check_commitment(label, draw.digests[env.seat], value,
                                 self._bytes(env, body.salt, "salt", 32))
            except CryptoError as exc:
                raise Violation(env.seat, f"opening does not match its commitment: {exc}",
                                (env,)) from exc
            openings.append(value)
        request = draw.request
        value = rounds.draw(openings, request.n, self.table_id + request.purpose.encode())
        self._emit(Progress(self.step, f"joint draw for {request.purpose}: {value}"))
        self._engine(lambda: self.game.resolve_chance(value), None)

    def _on_results(self, envs: list[Envelope]) -> None:
        assert self.outcome is None
        mine = self.game.outcome()
        assert mine is not None
        for env in envs:
            body = self._body(ResultBody, env)
            if body.outcome != mine.to_json():
                raise Violation(env.seat, "signed a different outcome", (env,))
        self._pending.popleft()  # SignResult
        self.outcome = mine
        self._emit(Finished(mine))

    _PROCESS: dict[str, Callable[["Session", list[Envelope]], None]] = {
        **dict.fromkeys(MENTAL_KINDS, _on_deck),
        "move": _on_moves,
        "move.commit": _on_blind_commits,
        "move.open": _on_blind_openings,
        "coin.commit": _on_draw_commits,
        "coin.open": _on_draw_openings,
        "result": _on_results,
    }

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

    def _body(self, model: type, env: Envelope, body: Any = None) -> Any:
        try:
            return model.model_validate(env.body if body is None else body)
        except ValidationError as exc:
            raise Violation(env.seat, f"malformed {env.kind} body: {exc.errors()[0]['msg']}",
                            (env,)) from exc

    def _bytes(self, env: Envelope, text: str, what: str, size: int | None = None) -> bytes:
        """A base64url field of `env`'s body; a non-canonical one is its author's fault."""
        try:
            return canonical.unb64(text, what, size)
        except canonical.CanonicalError as exc:
            raise Violation(env.seat, f"malformed {env.kind} body: {exc}", (env,)) from exc

    def _decode_move(self, env: Envelope, content: dict[str, Any], turn: Turn,
                     origin: int) -> ApplyMove:
        """A move body as the engine will see it. A `commit` must hide its value and carry its
        commitment (the owner's own session unseals the value for its own engine); an `open`
        carries its salt; no other move carries a `secret`."""
        body = self._body(MoveBody, env, content)
        try:
            move = self.game.move_from_json(body.move)
        except (EngineError, TypeError, ValueError) as exc:
            raise Violation(env.seat, f"unreadable move: {exc}", (env,)) from exc
        if "secret" in content and content["secret"] is None:
            raise Violation(env.seat, "malformed move body: a null secret", (env,))
        if "by" in content and content["by"] is None:  # one byte form: absent, never null
            raise Violation(env.seat, "malformed move body: a null by", (env,))
        digest = salt = None
        if isinstance(move, Commit):
            if move.value != "":
                raise Violation(env.seat, f"committed secret {move.name!r} with its value in the "
                                          f"clear", (env,))
            if not isinstance(body.secret, SealedCommitment):
                raise Violation(env.seat, f"committed secret {move.name!r} without its "
                                          f"commitment", (env,))
            digest = self._bytes(env, body.secret.digest, "digest", 32)
            if env.seat == self.seat and self._secrets is not None:
                label = rounds.secret_label(self.table_id, origin, env.seat, move.name)
                try:
                    value = self._secrets.unseal(label, self._bytes(env, body.secret.sealed,
                                                                   "sealed")).decode("utf-8")
                except ValueError as exc:  # UnicodeDecodeError is a ValueError
                    raise Violation(env.seat, f"its own sealed secret {move.name!r} cannot be "
                                              f"read back: {exc}", (env,)) from exc
                move = Commit(move.name, value)  # this seat's own secret
        elif isinstance(move, Open):
            if not isinstance(body.secret, SecretSalt):
                raise Violation(env.seat, f"opened secret {move.name!r} without its salt", (env,))
            salt = self._bytes(env, body.secret.salt, "salt", 32)
        elif body.secret is not None:
            raise Violation(env.seat, f"a {move.KIND} move carries a secret", (env,))
        return ApplyMove(env.seat, move, env, turn, origin, digest=digest, salt=salt)

    def _engine(self, fn: Callable[[], None], blame: int | None,
                evidence: tuple[Envelope, ...] = ()) -> None:
        """Run an engine transition; an IllegalMove blames its seat, other errors `blame`. A
        disproved claim cites the claimant's own signed message."""
        try:
            fn()
            self._note_findings(evidence)
        except IllegalMove as exc:
            if exc.claim is not None:
                # a claim proven false (even by its author's own later move, e.g. an Eleusis
                # dealer opening his rule): cite the signed message that made it
                evidence = self.bridge.claim_evidence(exc.claim) or evidence
            elif not evidence or evidence[0].seat != exc.seat:
                # another seat's lie came to light: cite its own signed answer, not this move
                evidence = self.bridge.evidence_against(exc.seat, exc.claim)
            raise Violation(exc.seat, f"illegal: {exc.reason}" + (f" ({exc.where})" if exc.where else ""),
                            evidence) from exc
        except (EngineError, LookupError, TypeError, ValueError) as exc:
            if blame is None:
                raise
            raise Violation(blame, f"rejected by the rules engine: {exc}", evidence) from exc

    def _note_findings(self, evidence: tuple[Envelope, ...]) -> None:
        """Faults the engine found and punished in play (ENGINE.md §6): each is kept with its
        evidence — the false claim's signed message, else the move that revealed the fault — and
        reported; the game goes on."""
        for f in self.game.findings[len(self.findings):]:
            cited = self.bridge.claim_evidence(f.claim) or evidence[:1]
            step = cited[0].step if cited else self.step
            found = Found(f.seat, f"{f.reason} ({f.where})", step, cited)
            self.findings.append(found)
            self._emit(found)

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

    def _next_spec(self) -> StepSpec | None:
        """The next step (PROTOCOL §5): the deck's next operation; else the head of the pending
        work (a handler either finishes its item or names the step it waits for); else the
        engine's turn."""
        while True:
            expected = self.mental.expected()
            if expected:
                first = expected[0]
                seats = tuple(sorted(e.seat for e in expected
                                     if (e.deck, e.epoch, e.op) == (first.deck, first.epoch, first.op)))
                return StepSpec(first.kind, seats, f"{first.kind} for {first.deck} epoch "
                                                   f"{first.epoch} (op {first.op})",
                                (first.deck, first.epoch, first.op))
            if self._pending:
                item = self._pending[0]
                spec = self._RUN[type(item)](self, item)
            elif self.outcome is not None:
                return None
            else:
                turn = self.game.turn()
                spec = self._ASK[turn.kind](self, turn)
            if spec is not None or self.finished:
                return spec

    # ---- the engine's turn (dispatch on its kind) ----------------------------------------------
    def _ask_chance(self, turn: Turn) -> StepSpec | None:
        chance = turn.chance
        if isinstance(chance, RandomChoice):
            self._pending.append(DrawRound(chance, self._draws))
            self._draws += 1
            return None
        assert isinstance(chance, Shuffle)
        if chance.cards:
            previous = self.bridge.epoch_of_deck.get(chance.deck)
            if previous is not None and not self.mental.epoch(chance.deck, previous).closed:
                self._audit(chance.deck, previous)
                return None  # the audit runs first; the shuffle is asked again afterwards
            if self._keys is not None:
                self._keys.arm(chance.deck, chance.epoch)
            self.mental.open_deck(chance.deck, chance.epoch, chance.cards)
            self.bridge.open_epoch(chance)
        else:
            try:
                deck, epoch, positions = self.bridge.reshuffle_sources(chance)
            except ValueError as exc:
                raise EngineError(str(exc)) from exc
            _, new = self.mental.reshuffle(deck, epoch, positions)
            self.bridge.place(chance.handles, deck, epoch, new)
        self._pending.append(ResolveChance())
        return None

    def _ask_reveals(self, turn: Turn) -> StepSpec | None:
        for (deck, epoch), group in self.bridge.group_reveals(turn.reveals).items():
            if group.deal:
                self.mental.deal(deck, epoch, group.deal)
            if group.public:
                self.mental.reveal(deck, epoch, group.public)
            if group.show:
                self.mental.show(deck, epoch, group.show)
        self._pending.append(ResolveReveals())
        return None

    def _ask_moves(self, turn: Turn) -> StepSpec | None:
        return StepSpec("move", tuple(turn.seats), f"{turn.kind.value} move by seat(s) "
                        f"{', '.join(str(s) for s in turn.seats)}", turn=turn)

    def _ask_blind_moves(self, turn: Turn) -> StepSpec | None:
        self._pending.append(BlindRound(turn, self.step))
        return None

    def _ask_over(self, turn: Turn) -> StepSpec | None:
        """Audit every open epoch, then everyone signs the result."""
        open_epochs = [e for e in self.mental.epochs() if not e.closed]
        if open_epochs:
            for ep in open_epochs:
                self._audit(ep.deck, ep.epoch)
            return None
        if self.game.outcome() is None:  # a void game whose audit proved nobody at fault
            self._abort(None, "the game ended void (no outcome) and its audit proved no seat "
                              "at fault", ())
            return None
        self._pending.append(SignResult())
        return None

    _ASK: dict[TurnKind, Callable[["Session", Turn], StepSpec | None]] = {
        TurnKind.CHANCE: _ask_chance,
        TurnKind.REVEAL: _ask_reveals,
        TurnKind.SEAT: _ask_moves,
        TurnKind.INTERRUPT: _ask_moves,
        TurnKind.SIMULTANEOUS: _ask_blind_moves,
        TurnKind.OVER: _ask_over,
    }

    def _audit(self, deck: str, epoch: int) -> None:
        self.mental.audit(deck, epoch)
        self._pending.append(FinishAudit(deck, epoch))

    # ---- pending work (dispatch on its type) ---------------------------------------------------
    def _run_resolve_chance(self, item: ResolveChance) -> StepSpec | None:
        self._pending.popleft()
        self._engine(lambda: self.game.resolve_chance({}), None)
        return None

    def _run_resolve_reveals(self, item: ResolveReveals) -> StepSpec | None:
        self._pending.popleft()
        self._sync_known()
        self._engine(lambda: self.game.resolve_reveals({}), None)
        return None

    def _run_finish_audit(self, item: FinishAudit) -> StepSpec | None:
        self._pending.popleft()
        values = self.mental.epoch(item.deck, item.epoch).audit_result()
        for h, pos in self.bridge.handles_in(item.deck, item.epoch):
            if pos in values and self.game.cards[h] is None:
                self._learn(h, values[pos])
        self._emit(Progress(self.step, f"audit of {item.deck} epoch {item.epoch}: every card "
                                       f"checked"))
        return None

    def _run_sync_known(self, item: SyncKnown) -> StepSpec | None:
        self._pending.popleft()
        self._sync_known()
        return None

    def _run_apply_move(self, item: ApplyMove) -> StepSpec | None:
        """Apply one received move. A move that opens cards first asks the deck for their
        shares (the engine's pure check passed first) and is applied once they are in."""
        seat, move, env = item.seat, item.move, item.env
        if item.turn.kind is TurnKind.INTERRUPT and self.game.turn() != item.turn:
            self._pending.popleft()  # the window closed before this answer: it has no effect
            return None
        if isinstance(move, Open):
            self._check_opening(item)
        if not item.opened:
            by_epoch = self._cards_opened_by(seat, move, env)
            if by_epoch:
                for (deck, epoch), positions in by_epoch.items():
                    self.mental.reveal(deck, epoch, positions)
                self._pending[0] = replace(item, opened=True)
                self._pending.appendleft(SyncKnown())
                return None
        self._pending.popleft()
        self.bridge.note_seat(seat, env)
        self._engine(lambda: self.game.apply(seat, move), seat, (env,))
        self.bridge.note_claims(self.game)
        if isinstance(move, Commit) and item.digest is not None:
            label = rounds.secret_label(self.table_id, item.origin, seat, move.name)
            self.bridge.committed(move.name, CommittedSecret(seat, label, item.digest, env))
        return None

    def _run_round(self, item: DrawRound | BlindRound) -> StepSpec | None:
        if isinstance(item, DrawRound):
            kind = f"coin.{item.stage}"
            return StepSpec(kind, tuple(range(self.n)), f"{kind} for {item.request.purpose}")
        kind = f"move.{item.stage}"
        what = "commitments to" if item.stage == "commit" else "openings of"
        return StepSpec(kind, tuple(item.turn.seats), f"{what} the blind moves of seat(s) "
                        f"{', '.join(str(s) for s in item.turn.seats)}", turn=item.turn)

    def _run_sign_result(self, item: SignResult) -> StepSpec | None:
        return StepSpec("result", tuple(range(self.n)), "every seat signs the result")

    _RUN: dict[type, Callable[["Session", Any], StepSpec | None]] = {
        ResolveChance: _run_resolve_chance,
        ResolveReveals: _run_resolve_reveals,
        FinishAudit: _run_finish_audit,
        SyncKnown: _run_sync_known,
        ApplyMove: _run_apply_move,
        DrawRound: _run_round,
        BlindRound: _run_round,
        SignResult: _run_sign_result,
    }

    def _check_opening(self, item: ApplyMove) -> None:
        """An `Open` must match the commitment its owner signed, before the engine sees it: a
        mismatch blames the opener at once (its opening and its commitment are the evidence).
        An opening of another seat's or an unknown secret is left to the engine to refuse."""
        move = item.move
        assert isinstance(move, Open)
        committed = self.bridge.secrets.get(move.name)
        if committed is None or committed.owner != item.seat:
            return
        assert item.salt is not None
        try:
            check_commitment(committed.label, committed.digest, move.value.encode("utf-8"),
                             item.salt)
        except (CryptoError, UnicodeEncodeError) as exc:
            raise Violation(item.seat, f"opened secret {move.name!r} to a value that does not "
                                       f"match its commitment of step {committed.envelope.step}",
                            (item.env, committed.envelope)) from exc

    def _cards_opened_by(self, seat: int, move: Move, env: Envelope
                         ) -> dict[tuple[str, int], list[int]]:
        """Deck positions, by epoch, that `move` opens and that are not public yet."""
        by_epoch: dict[tuple[str, int], list[int]] = {}
        for r in self._checked_reveals(seat, move, env):
            where = self.bridge.locate(r.handle)
            if where is None:
                raise Violation(seat, f"move names handle {r.handle}, which does not exist", (env,))
            deck, epoch, pos = where
            ep = self.mental.epoch(deck, epoch)
            if pos in ep.public_cards():
                continue
            if r.holder not in ep.knowers(pos):
                raise Violation(seat, f"tried to open handle {r.handle}, a card it does not hold",
                                (env,))
            by_epoch.setdefault((deck, epoch), []).append(pos)
        return by_epoch

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

    def _sync_known(self) -> None:
        """Feed the engine every card value the deck layer let this seat (or the public) learn."""
        cache: dict[tuple[str, int], dict[int, str]] = {}
        for h, (deck, epoch, pos) in self.bridge.where.items():
            if self.game.cards[h] is not None:
                continue
            known = cache.get((deck, epoch))
            if known is None:
                ep = self.mental.epoch(deck, epoch)
                known = cache[(deck, epoch)] = (ep.known_cards() if self.seat is not None
                                                else ep.public_cards())
            card = known.get(pos)
            if card is not None:
                self._learn(h, card)

    def _learn(self, handle: int, card: str) -> None:
        """Tell the engine a card value; a claim it disproves blames the seat that made it, with
        that seat's signed message as evidence."""
        try:
            self.game.learn(handle, card)
        except IllegalMove as exc:
            raise Violation(exc.seat, f"false claim: {exc.reason}",
                            self.bridge.claim_evidence(exc.claim)) from exc

    # ---- speaking (dispatch on the step's kind) -------------------------------------------------
    def _speak_if_due(self) -> None:
        spec = self._spec
        if spec is None or self.seat is None or self.seat not in spec.seats:
            return
        if self.seat in self._inbox.get(self.step, {}):
            return  # already said (resume): reuse, never make a second version
        self._SPEAK[spec.kind](self, spec)

    def _say_deck(self, spec: StepSpec) -> None:
        assert spec.deck_op is not None and self.seat is not None
        deck, epoch, op = spec.deck_op
        msg = self.mental.epoch(deck, epoch).make(Expectation(deck, epoch, op, spec.kind, self.seat))
        self._send(msg.KIND, msg.to_dict())

    def _ask_local_move(self, spec: StepSpec) -> None:
        assert self.seat is not None
        legal = tuple(self.game.legal_moves(self.seat))
        self._emit(NeedMove(self.seat, legal, self.game.view(self.seat)))

    def _open_own_move(self, spec: StepSpec) -> None:
        """Open this seat's blind move: read it back from its own signed commitment (so a
        restarted seat opens exactly what it committed)."""
        blind = self._pending[0]
        assert isinstance(blind, BlindRound) and self._secrets is not None and self.seat is not None
        committed, _ = blind.commitment_of(self.seat)
        label = rounds.move_label(self.table_id, blind.step, self.seat)
        sealed = SealedCommitment.model_validate(committed.body).sealed
        content = canonical.decode(self._secrets.unseal(label, canonical.unb64(sealed, "sealed")))
        salt = canonical.b64(self._secrets.salt(label))
        self._send("move.open", {**content, "salt": salt})

    def _say_draw(self, spec: StepSpec) -> None:
        draw = self._pending[0]
        assert isinstance(draw, DrawRound) and self._secrets is not None
        value, salt = self._secrets.coin(draw.index)
        purpose = draw.request.purpose
        if spec.kind == "coin.commit":
            digest, _ = commit(rounds.coin_label(self.table_id, purpose, draw.index), value, salt)
            self._send(spec.kind, CommitBody(purpose=purpose, digest=canonical.b64(digest)).model_dump())
        else:
            self._send(spec.kind, OpenBody(purpose=purpose, value=canonical.b64(value),
                                           salt=canonical.b64(salt)).model_dump())

    def _sign_result(self, spec: StepSpec) -> None:
        mine = self.game.outcome()
        assert mine is not None
        self._send("result", ResultBody(outcome=mine.to_json()).model_dump())

    _SPEAK: dict[str, Callable[["Session", StepSpec], None]] = {
        **dict.fromkeys(MENTAL_KINDS, _say_deck),
        "move": _ask_local_move,
        "move.commit": _ask_local_move,
        "move.open": _open_own_move,
        "coin.commit": _say_draw,
        "coin.open": _say_draw,
        "result": _sign_result,
    }

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
