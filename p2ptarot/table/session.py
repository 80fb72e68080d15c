"""The table session: a signed, hash-chained lockstep log that drives the engine and the deck.

Sans-I/O (the h11 pattern): `receive(bytes)`, `act(move)`, `start()` and `abandon()` return
a list of effects (`Send`, `Record`, `NeedMove`, `Progress`, `Finished`, `Aborted`...); the game
pump in `p2ptarot.peer` pumps them. The same class, built with `seat=None` and no identity, is the
offline verifier: it replays a transcript and performs every check a live peer performs.

It is laid out as objects that own their state, around one log:
- `Intake` (`intake.py`) takes received bytes: parsing, checks, duplicates, equivocation, abort
  records; it holds the messages of steps not yet complete and the log of completed ones;
- the move-body codec (`codec.py`) turns moves into signed bodies and back, as pure functions;
- `MentalTable` runs the deck, the engine's `GameState` the rules, `EngineBridge` maps between;
- the session itself walks the steps (`steps.py`): a *step* is one round of messages. The seats
  it expects follow from the deck (keys, a shuffle, shares, re-encryptions, audit shares) or, when
  the deck is idle, from the head of the queue of *pending work* (`ApplyMove`, `ResolveReveals`,
  a `DrawRound`, a `BlindRound`...) and, once that queue is empty, from the engine's turn. A step
  completes when every expected seat has spoken; its messages are then processed in seat order
  by the handler of its kind, so every honest peer builds the same log. One table, `_STEPS`,
  gives each `StepKind` its two handlers: how a completed step is processed, and how this seat
  speaks in it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any, Callable, NamedTuple

from p2ptarot.crypto.signing import Identity
from p2ptarot.engine import (Commit, EngineError, GameState, IllegalMove, Move, Open, Outcome,
                             RandomChoice, Shuffle, Turn, TurnKind, create)
from p2ptarot.mental.errors import MentalError, MentalViolation
from p2ptarot.mental.events import Expectation
from p2ptarot.mental.randomness import RandomSource
from p2ptarot.mental.table import MentalTable

from . import canonical, codec, rounds
from .bodies import STAND_IN, AbortBody, ResultBody
from .bridge import CommittedSecret, EngineBridge
from .charter import SignedCharter
from .digest import MAX_WANTS, HaveEntry, have_entries, make_frame, parse_frame
from .effects import (Aborted, DigestTo, Effect, Finished, Forward, Found, NeedMove, Notice,
                      Progress, Record, ResendTo, Send)
from .envelope import Envelope, chain_next, chain_start, seal
from .errors import MoveRefused, TableUsageError, Violation
from .evidence import StoppedSeat
from .intake import MAX_STEPS_AHEAD, Intake
from .rounds import BlindRound, DrawRound, SeatSecrets
from .secrets import EpochKeySource
from .steps import (MENTAL_KINDS, MOVE_STEP_KINDS, ApplyMove, FinishAudit, Pending,
                    ResolveChance, ResolveReveals, SignResult, StepKind, StepSpec, SyncKnown)
from p2ptarot.i18n.message import tr

__all__ = ["MAX_STEPS_AHEAD", "MENTAL_KINDS", "MOVE_STEP_KINDS", "Session", "StepKind",
           "StepSpec", "Violation"]


class Session:
    """One seat's (or an observer's) copy of a table's lockstep log."""

    def __init__(self, signed: SignedCharter, seat: int | None, identity: Identity | None = None,
                 seed: bytes | None = None, test_rng: RandomSource | None = None) -> None:
        """`test_rng` (tests and benchmarks only): the source of the seat's permutations and
        re-encryption factors instead of the OS, for a repeatable deal."""
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
        self._keys = EpochKeySource(seed, self.table_id, test_rng) if seed is not None else None
        self._secrets = SeatSecrets(seed, self.table_id) if seed is not None else None
        self.game: GameState = create(self.charter.game, self.n, self.charter.variant,
                                      self.charter.options, viewer=seat, omniscient=False)
        self.mental = MentalTable(self.table_id, self.n, seat, self._keys)
        self.bridge = EngineBridge()
        self.intake = Intake(self.charter, seat)
        self.step = 0
        self.chain = chain_start(self.table_id)
        self._spec: StepSpec | None = None
        self._pending: deque[Pending] = deque()
        self._draws = 0  # joint draws started so far (each one's index)
        self.outcome: Outcome | None = None
        self.aborted: Aborted | None = None
        #: faults the rules punished without ending the game (the engine's findings), with evidence
        self.findings: list[Found] = []
        self._out: list[Effect] = []
        self._advancing = False  # inside `_advance`: a completed step returns to its loop
        self._digested = -1  # the step whose stall digest went out

    # ---- public API ---------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.outcome is not None or self.aborted is not None

    @property
    def log(self) -> list[Envelope]:
        """The messages of every completed step, in log order."""
        return self.intake.log

    @property
    def aborts(self) -> list[Envelope]:
        """Every correctly signed abort record this peer holds (its own included)."""
        return self.intake.ledger.records

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
        `by="bot"`: the seat's stand-in bot chose it (marked in the body, informational).
        Raises `TableUsageError` (`MoveRefused` with the engine's reason for a move the rules
        refuse) and changes nothing when the move cannot be made."""
        spec = self._spec
        if (self.seat is None or spec is None or spec.kind not in MOVE_STEP_KINDS
                or self.seat not in spec.seats):
            raise TableUsageError(tr("it is not this seat's turn to move"))
        if self.seat in self.intake.held(self.step):
            raise TableUsageError(tr("this seat already moved in this step"))
        if by not in (None, STAND_IN):
            raise TableUsageError(tr("a move is marked by {mark} or not at all, not {by}",
                                     mark=repr(STAND_IN), by=repr(by)))
        try:
            self.game.check(self.seat, move)
        except IllegalMove as exc:
            raise MoveRefused(exc.reason) from exc
        except (EngineError, LookupError, TypeError, ValueError) as exc:
            raise MoveRefused(str(exc)) from exc
        assert self._secrets is not None
        body = codec.wire_move(move, by, self._secrets, self.table_id, self.step, self.seat,
                               self.bridge.secrets)
        if spec.kind is StepKind.MOVE_COMMIT:
            body = codec.seal_move(body, self._secrets, self.table_id, self.step, self.seat)
        self._run(lambda: self._send(spec.kind, body))
        return self._flush()

    def pending_seats(self) -> tuple[int, ...]:
        """Seats the current step still waits for: no message, or one chained to another history."""
        if self._spec is None or self.finished:
            return ()
        have = self.intake.chained(self.step, self.chain)
        return tuple(s for s in self._spec.seats if s not in have)

    def abandon(self, since: str = "") -> list[Effect]:
        """The step waited past the table's limit: end the table as abandoned, convicting nobody
        (PROTOCOL §8, silence). Silence proves nothing: a withheld message and a lost link look
        the same to every peer and to the verifier, so network trouble never convicts. The record
        says what this seat waited for — `since` (the driver's clock, e.g. "21:04 UTC") — and no
        more: a seat that signed an abort record stopped (anyone may be waiting on it); a seat
        whose message chains to another history is waiting itself (a split view), so it is not
        named as awaited; this seat's own pending move is its driver's business."""
        def go() -> None:
            if self.finished:
                return
            stop = self.intake.ledger.first()
            if stop is not None:
                self._abandon(stop)
                return
            missing = [s for s in self.pending_seats() if s != self.seat]
            if not missing:
                return
            have = self.intake.held(self.step)
            awaited = [s for s in missing if s not in have]
            what = tr("step {step} ({label})", step=self.step,
                      label=self._spec.label if self._spec else "")
            if not awaited:
                self._abort(None, tr(
                    "abandoned: {what} cannot complete: {who}'s message chains to another history "
                    "than this seat's (some seat showed peers different messages, and both "
                    "versions never reached this seat); nobody is convicted", what=what,
                    who=f"seat {missing[0]}"), ())
                return
            who = " and ".join(f"seat {s}" for s in awaited)
            self._abort(None, tr(
                "abandoned: {what} waited past the table's limit, waiting on {who} since {since}; "
                "silence convicts nobody", what=what, who=who, since=since) if since else tr(
                "abandoned: {what} waited past the table's limit, waiting on {who}; silence "
                "convicts nobody", what=what, who=who), ())
        self._run(go)
        return self._flush()

    def messages_from(self, step: int) -> list[Envelope]:
        """Log and pending envelopes from `step` on (to serve a peer that is catching up)."""
        return self.intake.messages_from(step)

    @property
    def taken(self) -> int:
        """How many messages of other seats this peer has stored so far (a count that moves
        while the peer works through what it received, even when its step does not)."""
        return self.intake.taken

    def have(self, step: int) -> list[HaveEntry]:
        """What a catch-up request from `step` says this peer stores (PROTOCOL §10): per step of
        the window it stores messages of, their seats and a hash of them, so that an answer
        leaves out what is here already and still brings another version of any of them."""
        return have_entries(self.intake.stored_steps(step, step + MAX_STEPS_AHEAD))

    # ---- digests (PROTOCOL §8): equivocation caught without relaying every body -----------------
    def digest(self) -> list[Effect]:
        """The driver's stall tick: tell every peer, once per step, where this seat is (its step
        and chain hash) and which messages of the current step it lacks. A peer on another
        history answers with its heads, a peer holding what is lacking sends it."""
        if self.seat is None or self.finished or self._digested == self.step:
            return []
        self._digested = self.step
        return [DigestTo(None, make_frame(self.step, self.chain, [], self._lacking()))]

    def receive_digest(self, seat: int, frame: object) -> list[Effect]:
        """A digest control frame from the peer of `seat` (its link is authenticated; the frame
        itself is checked here). Answers with the bodies of the messages it names under another
        digest or asks for, asks in turn for what it names that this seat lacks or holds in
        another version, and shows its own heads to a peer on another history."""
        def go() -> None:
            if self.seat is None or seat == self.seat or not 0 <= seat < self.n:
                return
            got = parse_frame(frame)
            if got is None:
                self._emit(Notice(tr("dropped a malformed digest from seat {seat}", seat=seat)))
                return
            other: list[tuple[int, int]] = []
            for step, author, digest in got.heads:
                env = self.intake.stored(step, author)
                if env is None:
                    if self.step <= step <= self.step + MAX_STEPS_AHEAD:
                        other.append((step, author))  # lost, or still on its way
                elif canonical.b64(env.digest()) != digest:
                    self._resend(seat, env)  # another version: theirs is wanted too
                    other.append((step, author))
            for step, author in got.want:
                env = self.intake.stored(step, author)
                if env is not None:
                    self._resend(seat, env)
            if other:
                self._emit(DigestTo(seat, make_frame(self.step, self.chain, [], other)))
            if (got.step == self.step and got.chain != canonical.b64(self.chain)
                    and self.intake.note_stray(self.step, seat)):
                self._show_heads(seat)
        self._run(go)
        return self._flush()

    def _resend(self, seat: int, env: Envelope) -> None:
        if self.intake.resend_once(env, seat):
            self._emit(ResendTo(seat, env))

    def _lacking(self) -> list[tuple[int, int]]:
        """(step, seat) of the other seats the current step waits for without any message."""
        if self._spec is None:
            return []
        have = self.intake.held(self.step)
        return [(self.step, s) for s in self._spec.seats
                if s != self.seat and s not in have][:MAX_WANTS]

    def _show_heads(self, seat: int) -> None:
        """`seat` showed a history other than this seat's: send it this seat's heads since the
        last step their histories surely agreed, so the step where they part shows two versions
        of one message (the equivocation, which both then convict) or a message one lacks."""
        first = self.intake.agreed_since(seat, self.step)
        heads = self.intake.heads(first, self.step)
        self._emit(DigestTo(seat, make_frame(self.step, self.chain, heads, [])))

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
        stop = self.intake.ledger.blocking(self.step, self.pending_seats())
        if stop is not None:
            self._abandon(stop)

    def _emit(self, effect: Effect) -> None:
        self._out.append(effect)

    def _send(self, kind: StepKind, body: dict[str, Any]) -> None:
        assert self.identity is not None and self.seat is not None
        env = seal(self.identity, self.table_id, self.step, self.seat, self.chain, kind.value, body)
        self.intake.keep_own(env)
        self._emit(Send(env))
        self._try_complete()

    # ---- receiving ----------------------------------------------------------------------------
    def _accept(self, data: bytes, advance: bool = True, trusted: bool = False) -> None:
        taken = self.intake.take(data, self.step, trusted)
        if taken.notice is not None:
            self._emit(Notice(taken.notice))
        env = taken.env
        if env is None:
            return
        if taken.record is not None:  # an abort record: relayed, kept, its evidence re-checked
            if not trusted and env.seat != self.seat:
                self._emit(Forward(env))
            self._emit(Record(env))
            blame = taken.record.blame
            accused = tr("nobody") if blame is None else f"seat {blame}"
            self._emit(Progress(env.step, f"seat {env.seat} stopped the game, accusing "
                                          f"{accused}: {taken.record.reason}"))
            for line in taken.evidence:
                self._accept(line, advance=advance, trusted=trusted)
            return
        if not trusted and env.step > self.step:
            self._ask_for_lacking(env.seat)
        if advance and not trusted and env.step == self.step and env.seat != self.seat:
            self._precheck_deck(env)
        if advance and not self.finished:
            self._try_complete()

    def _precheck_deck(self, env: Envelope) -> None:
        """A deck message for the current step from another seat: its proofs are checked now,
        while the step may still wait on other seats (`MentalTable.precheck`; a message that
        fails is left for the step's own checks, which blame in the step's order)."""
        spec = self._spec
        if spec is None or spec.deck_op is None or env.kind != spec.kind:
            return
        try:
            self._check_deck_header(env)
        except Violation:
            return
        self.mental.precheck(env.seat, env.body)

    def _ask_for_lacking(self, seat: int) -> None:
        """`seat` signed a message for a later step, so it completed the current one: ask it,
        once per step, for the messages of the current step this seat still lacks (one lost on
        its way here is fetched from a peer that has it, instead of every peer relaying it)."""
        lacking = self._lacking()
        if self.seat is not None and lacking and self.intake.ask_once(self.step, seat):
            self._emit(DigestTo(seat, make_frame(self.step, self.chain, [], lacking)))

    def _try_complete(self) -> None:
        while self._spec is not None and not self.finished:
            have = self.intake.chained(self.step, self.chain)
            for seat in self.intake.strays(self.step, self.chain):
                self._emit(Notice(tr("seat {seat}'s message for step {step} chains to another "
                                     "history: comparing digests with it",
                                     seat=seat, step=self.step)))
                if self.seat is not None and seat != self.seat:
                    self._show_heads(seat)
            if not all(s in have for s in self._spec.seats):
                return
            extra = [s for s in have if s not in self._spec.seats]
            if extra:
                raise Violation(extra[0], tr("spoke in step {step} where it was not expected",
                                             step=self.step),
                                (have[extra[0]],))
            envs = [have[s] for s in self._spec.seats]
            for env in envs:
                if env.kind != self._spec.kind:
                    raise Violation(env.seat, tr("step {step}: sent {kind}, expected {value}",
                                                 step=self.step, kind=repr(env.kind),
                                                 value=repr(self._spec.kind.value)), (env,))
            _STEPS[self._spec.kind].process(self, envs)
            self.chain = chain_next(self.chain, envs)
            self.intake.complete(self.step, envs)
            for env in envs:
                self._emit(Record(env))
            self.step += 1
            self._spec = None
            if self._advancing:
                return  # the `_advance` loop below us goes on (no recursion per step)
            self._advance()

    # ---- processing a completed step (the `process` half of `_STEPS`) ---------------------------
    def _on_deck(self, envs: list[Envelope]) -> None:
        for env in envs:
            self._check_deck_header(env)
            try:
                self.mental.receive_dict(env.seat, env.body)
            except MentalViolation as exc:
                raise Violation(exc.seat, str(exc), (env,)) from exc
            except MentalError as exc:
                raise Violation(env.seat, tr("deck protocol: {exc}", exc=exc), (env,)) from exc

    def _on_moves(self, envs: list[Envelope]) -> None:
        assert self._spec is not None and self._spec.turn is not None
        for env in envs:
            self._pending.append(self._decode_move(env, env.body, self._spec.turn, env.step))

    def _on_blind_commits(self, envs: list[Envelope]) -> None:
        blind = self._pending[0]
        assert isinstance(blind, BlindRound)
        digests = tuple(codec.commitment_digest(env) for env in envs)
        self._pending[0] = replace(blind, commits=tuple(envs), digests=digests)

    def _on_blind_openings(self, envs: list[Envelope]) -> None:
        """Every opening must match its seat's commitment (a mismatch blames the opener at once,
        its opening and its commitment as evidence); then the moves are applied in seat order."""
        blind = self._pending.popleft()
        assert isinstance(blind, BlindRound)
        moves = []
        for env in envs:
            committed, digest = blind.commitment_of(env.seat)
            content = codec.check_move_opening(env, committed, digest, self.table_id, blind.step)
            moves.append(self._decode_move(env, content, blind.turn, blind.step))
        self._pending.extendleft(reversed(moves))

    def _on_draw_commits(self, envs: list[Envelope]) -> None:
        draw = self._pending[0]
        assert isinstance(draw, DrawRound)
        digests = tuple(codec.coin_digest(env, draw.request.purpose) for env in envs)
        self._pending[0] = replace(draw, digests=digests)

    def _on_draw_openings(self, envs: list[Envelope]) -> None:
        draw = self._pending.popleft()
        assert isinstance(draw, DrawRound)
        label = rounds.coin_label(self.table_id, draw.request.purpose, draw.index)
        openings = [codec.coin_opening(env, draw.request.purpose, label, draw.digests[env.seat])
                    for env in envs]
        request = draw.request
        value = rounds.draw(openings, request.n, self.table_id + request.purpose.encode())
        self._emit(Progress(self.step, f"joint draw for {request.purpose}: {value}"))
        self._engine(lambda: self.game.resolve_chance(value), None)

    def _on_results(self, envs: list[Envelope]) -> None:
        assert self.outcome is None
        mine = self.game.outcome()
        assert mine is not None
        for env in envs:
            body = codec.body_of(ResultBody, env)
            if body.outcome != mine.to_json():
                raise Violation(env.seat, tr("signed a different outcome"), (env,))
        self._pending.popleft()  # SignResult
        self.outcome = mine
        self._emit(Finished(mine))

    def _check_deck_header(self, env: Envelope) -> None:
        """A deck message must be for the very operation the step expects (the deck layer would
        otherwise route it by its own header, to another open epoch or operation)."""
        spec = self._spec
        assert spec is not None and spec.deck_op is not None
        header = (env.body.get("kind"), env.body.get("deck"), env.body.get("epoch"),
                  env.body.get("op"), env.body.get("seat"))
        if header != (env.kind, *spec.deck_op, env.seat):
            raise Violation(env.seat, tr("step {step}: a {kind} message for another operation than "
                                         "{label}",
                                         step=self.step, kind=env.kind, label=spec.label), (env,))

    def _decode_move(self, env: Envelope, content: dict[str, Any], turn: Turn,
                     origin: int) -> ApplyMove:
        own = self._secrets if env.seat == self.seat else None
        return codec.decode_move(env, content, self.game, turn, origin, self.table_id, own)

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
            raise Violation(exc.seat, tr("illegal: {reason} ({where})",
                                         reason=exc.reason, where=exc.where)
                            if exc.where else tr("illegal: {reason}", reason=exc.reason),
                            evidence) from exc
        except (EngineError, LookupError, TypeError, ValueError) as exc:
            if blame is None:
                raise
            raise Violation(blame, tr("rejected by the rules engine: {reason}",
                                      reason=exc), evidence) from exc

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
                return StepSpec(StepKind(first.kind), seats, f"{first.kind} for {first.deck} "
                                f"epoch {first.epoch} (op {first.op})",
                                (first.deck, first.epoch, first.op))
            if self._pending:
                spec = self._run_pending(self._pending[0])
            elif self.outcome is not None:
                return None
            else:
                spec = self._ask(self.game.turn())
            if spec is not None or self.finished:
                return spec

    # ---- the engine's turn --------------------------------------------------------------------
    def _ask(self, turn: Turn) -> StepSpec | None:
        """What the engine's turn needs: a step, or pending work (None)."""
        match turn.kind:
            case TurnKind.CHANCE:
                return self._ask_chance(turn)
            case TurnKind.REVEAL:
                return self._ask_reveals(turn)
            case TurnKind.SEAT | TurnKind.INTERRUPT:
                return StepSpec(StepKind.MOVE, tuple(turn.seats), f"{turn.kind.value} move by "
                                f"seat(s) {', '.join(str(s) for s in turn.seats)}", turn=turn)
            case TurnKind.SIMULTANEOUS:
                self._pending.append(BlindRound(turn, self.step))
                return None
            case TurnKind.OVER:
                return self._ask_over()
        raise EngineError(f"unknown turn kind {turn.kind!r}")

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
            try:
                self.bridge.open_epoch(chance)
            except ValueError as exc:
                raise EngineError(str(exc)) from exc
            self.mental.open_deck(chance.deck, chance.epoch, chance.cards)
        else:
            try:
                deck, epoch, positions = self.bridge.reshuffle_sources(chance)
            except ValueError as exc:
                raise EngineError(str(exc)) from exc
            _, new = self.mental.reshuffle(deck, epoch, positions)
            try:
                self.bridge.place(chance.handles, deck, epoch, new)
            except ValueError as exc:
                raise EngineError(str(exc)) from exc
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

    def _ask_over(self) -> StepSpec | None:
        """Audit every open epoch, then everyone signs the result."""
        open_epochs = [e for e in self.mental.epochs() if not e.closed]
        if open_epochs:
            for ep in open_epochs:
                self._audit(ep.deck, ep.epoch)
            return None
        if self.game.outcome() is None:  # a void game whose audit proved no seat at fault
            self._abort(None, tr("the game ended void (no outcome) and its audit proved no seat at "
                                 "fault"), ())
            return None
        self._pending.append(SignResult())
        return None

    def _audit(self, deck: str, epoch: int) -> None:
        """Close a deck epoch: open to everyone, by proven decryption shares, exactly the
        handles of that epoch the engine says its claims and rules need (`audit_opens`, public
        bookkeeping: every peer asks the same); every other card of the epoch stays hidden."""
        opens = self.game.audit_opens()
        positions = [pos for h, pos in self.bridge.handles_in(deck, epoch) if h in opens]
        self.mental.audit(deck, epoch, positions)
        self._pending.append(FinishAudit(deck, epoch))

    # ---- pending work -------------------------------------------------------------------------
    def _run_pending(self, item: Pending) -> StepSpec | None:
        """Run the head of the pending work: it finishes (None) or names the step it waits for."""
        match item:
            case ResolveChance():
                self._pending.popleft()
                self._engine(lambda: self.game.resolve_chance({}), None)
            case ResolveReveals():
                self._pending.popleft()
                self._sync_known()
                self._engine(lambda: self.game.resolve_reveals({}), None)
            case FinishAudit():
                self._finish_audit(item)
            case SyncKnown():
                self._pending.popleft()
                self._sync_known()
            case ApplyMove():
                self._apply_move(item)
            case DrawRound():
                kind = StepKind.COIN_OPEN if item.stage == "open" else StepKind.COIN_COMMIT
                return StepSpec(kind, tuple(range(self.n)), f"{kind} for {item.request.purpose}")
            case BlindRound():
                kind = StepKind.MOVE_OPEN if item.stage == "open" else StepKind.MOVE_COMMIT
                what = "commitments to" if item.stage == "commit" else "openings of"
                return StepSpec(kind, tuple(item.turn.seats), f"{what} the blind moves of seat(s) "
                                f"{', '.join(str(s) for s in item.turn.seats)}", turn=item.turn)
            case SignResult():
                return StepSpec(StepKind.RESULT, tuple(range(self.n)), "every seat signs the result")
        return None

    def _finish_audit(self, item: FinishAudit) -> None:
        self._pending.popleft()
        values = self.mental.epoch(item.deck, item.epoch).audit_result()
        for h, pos in self.bridge.handles_in(item.deck, item.epoch):
            if pos in values:  # also a value known before: a claim may wait for it to be public
                self._learn(h, values[pos], audited=True)
        self._emit(Progress(self.step, f"audit of {item.deck} epoch {item.epoch}: every card "
                                       f"the rules needed opened and checked"))

    def _apply_move(self, item: ApplyMove) -> None:
        """Apply one received move. A move that opens cards first asks the deck for their
        shares (the engine's pure check passed first) and is applied once they are in."""
        seat, move, env = item.seat, item.move, item.env
        if item.turn.kind is TurnKind.INTERRUPT and self.game.turn() != item.turn:
            self._pending.popleft()  # the window closed before this answer: it has no effect
            return
        if isinstance(move, Open):
            committed = self.bridge.secrets.get(move.name)
            if committed is not None and committed.owner == seat:
                codec.check_secret_opening(item, committed)
            # an opening of another seat's or an unknown secret is left to the engine to refuse
        if not item.opened:
            by_epoch = self._cards_opened_by(seat, move, env)
            if by_epoch:
                for (deck, epoch), positions in by_epoch.items():
                    self.mental.reveal(deck, epoch, positions)
                self._pending[0] = replace(item, opened=True)
                self._pending.appendleft(SyncKnown())
                return
        self._pending.popleft()
        self.bridge.note_seat(seat, env)
        self._engine(lambda: self.game.apply(seat, move), seat, (env,))
        self.bridge.note_claims(self.game)
        if isinstance(move, Commit) and item.digest is not None:
            label = rounds.secret_label(self.table_id, item.origin, seat, move.name)
            self.bridge.committed(move.name, CommittedSecret(seat, label, item.digest, env))

    def _cards_opened_by(self, seat: int, move: Move, env: Envelope
                         ) -> dict[tuple[str, int], list[int]]:
        """Deck positions, by epoch, that `move` opens and that are not public yet."""
        by_epoch: dict[tuple[str, int], list[int]] = {}
        for r in self._checked_reveals(seat, move, env):
            where = self.bridge.locate(r.handle)
            if where is None:
                raise Violation(seat, tr("move names handle {handle}, which does not exist",
                                         handle=r.handle), (env,))
            deck, epoch, pos = where
            ep = self.mental.epoch(deck, epoch)
            if pos in ep.public_cards():
                continue
            if r.holder not in ep.knowers(pos):
                raise Violation(seat, tr("tried to open handle {handle}, a card it does not hold",
                                         handle=r.handle),
                                (env,))
            by_epoch.setdefault((deck, epoch), []).append(pos)
        return by_epoch

    def _checked_reveals(self, seat: int, move: Move, env: Envelope) -> tuple[Any, ...]:
        """The reveals a move obliges — asked only after the engine's pure check passed, so no
        share is ever published for a move the rules refuse: a seat may open only a card it
        holds, never one it was merely shown (High Priestess), or the honest holder would publish
        the last share of its own hidden card (PROTOCOL §5)."""
        try:
            self.game.check(seat, move)
            return self.game.move_reveals(seat, move)
        except (LookupError, TypeError, ValueError) as exc:
            raise Violation(seat, tr("malformed move: {exc}", exc=repr(exc)), (env,)) from exc
        except IllegalMove as exc:
            raise Violation(seat, tr("illegal: {reason}", reason=exc.reason), (env,)) from exc
        except EngineError as exc:
            raise Violation(seat, tr("rejected by the rules engine: {reason}",
                                     reason=exc), (env,)) from exc

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

    def _learn(self, handle: int, card: str, audited: bool = False) -> None:
        """Tell the engine a card value (`audited`: the audit opened it to everyone); a claim it
        disproves blames the seat that made it, with that seat's signed message as evidence."""
        try:
            if audited:
                self.game.audited(handle, card)
            else:
                self.game.learn(handle, card)
        except IllegalMove as exc:
            raise Violation(exc.seat, tr("false claim: {reason}", reason=exc.reason),
                            self.bridge.claim_evidence(exc.claim)) from exc

    # ---- speaking (the `speak` half of `_STEPS`) ----------------------------------------------
    def _speak_if_due(self) -> None:
        spec = self._spec
        if spec is None or self.seat is None or self.seat not in spec.seats:
            return
        if self.seat in self.intake.held(self.step):
            return  # already said (resume): reuse, never make a second version
        _STEPS[spec.kind].speak(self, spec)

    def _say_deck(self, spec: StepSpec) -> None:
        assert spec.deck_op is not None and self.seat is not None
        deck, epoch, op = spec.deck_op
        msg = self.mental.epoch(deck, epoch).make(Expectation(deck, epoch, op, spec.kind.value,
                                                              self.seat))
        self._send(StepKind(msg.KIND), msg.to_dict())

    def _ask_local_move(self, spec: StepSpec) -> None:
        assert self.seat is not None
        legal = tuple(self.game.legal_moves(self.seat))
        self._emit(NeedMove(self.seat, legal, self.game.view(self.seat)))

    def _open_own_move(self, spec: StepSpec) -> None:
        """Open this seat's blind move from its own signed commitment."""
        blind = self._pending[0]
        assert isinstance(blind, BlindRound) and self._secrets is not None and self.seat is not None
        committed, _ = blind.commitment_of(self.seat)
        self._send(spec.kind, codec.open_move(committed, self._secrets, self.table_id, blind.step))

    def _say_draw(self, spec: StepSpec) -> None:
        draw = self._pending[0]
        assert isinstance(draw, DrawRound) and self._secrets is not None
        commit_body, open_body = codec.coin_bodies(self._secrets, self.table_id,
                                                   draw.request.purpose, draw.index)
        self._send(spec.kind, commit_body if spec.kind is StepKind.COIN_COMMIT else open_body)

    def _sign_result(self, spec: StepSpec) -> None:
        mine = self.game.outcome()
        assert mine is not None
        self._send(spec.kind, ResultBody(outcome=mine.to_json()).model_dump())

    # ---- faults -------------------------------------------------------------------------------
    def _abandon(self, stop: StoppedSeat) -> None:
        """The game needs a seat that signed it stopped: end it, convicting nobody."""
        self._abort(None, stop.describe(), ())

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
            self.intake.keep_own_record(env, blame, reason[:500])
            self._emit(Send(env))
            self._emit(Record(env))
        self._emit(self.aborted)

    def _record_step_in_progress(self) -> None:
        """A fault found while a complete step is processed: put that step's messages in the
        transcript (seat order) before the abort record, so the verifier re-checks the very step
        and reaches the verdict itself."""
        spec = self._spec
        have = self.intake.chained(self.step, self.chain)
        if spec is None or not all(s in have for s in spec.seats):
            return
        order = list(spec.seats) + sorted(s for s in have if s not in spec.seats)
        for s in order:
            self._emit(Record(have[s]))


class _Step(NamedTuple):
    """The two handlers of a step kind: `process` a completed step's messages (in seat order),
    and `speak`: make this seat's own message in it (or ask its player for a move)."""

    process: Callable[[Session, list[Envelope]], None]
    speak: Callable[[Session, StepSpec], None]


_DECK = _Step(Session._on_deck, Session._say_deck)
_STEPS: dict[StepKind, _Step] = {
    **dict.fromkeys(MENTAL_KINDS, _DECK),
    StepKind.MOVE: _Step(Session._on_moves, Session._ask_local_move),
    StepKind.MOVE_COMMIT: _Step(Session._on_blind_commits, Session._ask_local_move),
    StepKind.MOVE_OPEN: _Step(Session._on_blind_openings, Session._open_own_move),
    StepKind.COIN_COMMIT: _Step(Session._on_draw_commits, Session._say_draw),
    StepKind.COIN_OPEN: _Step(Session._on_draw_openings, Session._say_draw),
    StepKind.RESULT: _Step(Session._on_results, Session._sign_result),
}
assert set(_STEPS) == set(StepKind), "every step kind has its two handlers"
