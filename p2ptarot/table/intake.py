"""Intake: everything a peer does with received bytes before the game sees them.

One `Intake` per session owns what this peer has stored: the frames already settled (`seen`), the
messages held for steps not yet complete (by step and seat), the log of completed steps (indexed
by step and seat), and the signed abort records (`AbortLedger`). `take` parses a frame, checks its
table, seat, signature and protocol version, drops what is stale or too far ahead, and convicts an
equivocation (two signed versions of one step message) the moment both versions meet here, before
anything is chained on either. What it keeps it returns; the session decides what a complete step
means.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from . import canonical
from .bodies import AbortBody, abort_record
from .charter import Charter
from .envelope import Envelope, EnvelopeError, parse
from .errors import Violation
from .evidence import AbortLedger, evidence_lines, is_equivocation
from p2ptarot.i18n.message import tr

#: a message for a step further ahead than this is dropped (not stored) until this peer gets closer
MAX_STEPS_AHEAD = 64


@dataclass(frozen=True, slots=True)
class Taken:
    """What one frame brought: a message newly held (`env`: a step message, or an abort record
    with its validated `record` and the `evidence` frames it quotes), or nothing (`notice` says
    why, when it was dropped rather than a duplicate)."""

    env: Envelope | None = None
    notice: str | None = None
    record: AbortBody | None = None
    evidence: tuple[bytes, ...] = ()


_NOTHING = Taken()


class Intake:
    """The received and own messages of one peer, checked and indexed (see the module doc)."""

    def __init__(self, charter: Charter, seat: int | None) -> None:
        self.charter = charter
        self.seat = seat
        self.n = len(charter.seats)
        self._table = canonical.b64(charter.table_id)
        self.log: list[Envelope] = []  # completed steps' messages, in log order
        self.ledger = AbortLedger()
        self._seen: set[bytes] = set()  # hashes of frames whose fate is settled (taken or refused)
        self._held: dict[int, dict[int, Envelope]] = {}  # step -> seat -> message
        self._logged: dict[tuple[int, int], Envelope] = {}  # (step, seat) -> its logged message
        self._strays: set[tuple[int, int]] = set()  # (step, seat) noticed on another history
        self._last_logged: dict[int, int] = {}  # seat -> the last step it has a logged message in
        self._asked: set[tuple[int, int]] = set()  # (step, seat) asked for what this peer lacks
        self._resent: set[tuple[int, int, int]] = set()  # (step, author, to): body sent on demand
        #: messages newly stored so far (a peer taking messages is not stalled, however slowly
        #: its step moves: `peer.stall`)
        self.taken = 0

    # ---- taking frames ------------------------------------------------------------------------
    def take(self, data: bytes, step: int, trusted: bool = False) -> Taken:
        """Check one frame against this peer's position `step`. `trusted`: this seat's own saved
        messages being reloaded (no window). Raises `Violation` for a proven fault."""
        frame = hashlib.sha256(data).digest()
        if frame in self._seen:
            return _NOTHING  # the very same bytes again (a relay, a catch-up): nothing new
        try:
            env = parse(data)
        except EnvelopeError as exc:
            return Taken(notice=tr("dropped a message: {exc}", exc=exc))
        if env.table != self._table:
            return Taken(notice=tr("dropped a message of another table"))
        if env.seat >= self.n:
            return Taken(notice=tr("dropped a message from unknown seat {seat}", seat=env.seat))
        try:
            env.verify_signature(self.charter.seat_key(env.seat))
        except EnvelopeError as exc:
            return Taken(notice=tr("dropped a message: {exc}", exc=exc))
        if env.kind == "abort":  # before the version: a malformed record convicts nobody
            self._seen.add(frame)  # a record's fate never depends on this peer's position
            return self._take_record(env)
        if env.v != self.charter.protocol:
            raise Violation(env.seat, tr("signed a message of protocol version {v} at a table of "
                                         "version {protocol}",
                                         v=env.v, protocol=self.charter.protocol), (env,))
        if env.step < step:
            self._seen.add(frame)  # processed before: its fate is settled
            logged = self._logged.get((env.step, env.seat))
            if logged is not None and is_equivocation(logged, env):
                raise Violation(env.seat, tr("equivocation: two signed messages for step {step}",
                                             step=env.step),
                                (logged, env))
            return _NOTHING  # a duplicate of something already processed
        if env.step > step + MAX_STEPS_AHEAD and not trusted:
            # not marked seen: the same genuine bytes must be taken once this peer gets there
            return Taken(notice=tr("dropped a message for step {step}, too far ahead",
                                   step=env.step))
        self._seen.add(frame)  # only now: its fate no longer depends on where this peer is
        slot = self._held.setdefault(env.step, {})
        known = slot.get(env.seat)
        if known is not None:
            if is_equivocation(known, env):
                raise Violation(env.seat, tr("equivocation: two signed messages for step {step}",
                                             step=env.step),
                                (known, env))
            return _NOTHING
        slot[env.seat] = env
        self.taken += 1
        return Taken(env=env)

    def _take_record(self, env: Envelope) -> Taken:
        """Keep a signed abort record; its evidence is to be re-checked as received messages (the
        record's own `blame` is never adopted: see `p2ptarot.table.evidence`)."""
        body, problem = abort_record(env, self.charter.protocol, self.n)
        if body is None:  # not honoured, relayed, logged nor its evidence re-checked (§9.1)
            return Taken(notice=tr("dropped {problem}", problem=problem))
        if not self.ledger.add(env, body.blame, body.reason):
            return _NOTHING
        self.taken += 1
        return Taken(env=env, record=body, evidence=tuple(evidence_lines(body.evidence)))

    def keep_own(self, env: Envelope) -> None:
        """This seat's own message, just signed for the step in progress."""
        self._held.setdefault(env.step, {})[env.seat] = env
        self._seen.add(hashlib.sha256(env.encoded()).digest())

    def keep_own_record(self, env: Envelope, blame: int | None, reason: str) -> None:
        """This seat's own abort record."""
        self.ledger.add(env, blame, reason)

    # ---- what is held --------------------------------------------------------------------------
    def held(self, step: int) -> dict[int, Envelope]:
        """The messages held for `step` (not yet complete), by seat, whatever they chain to."""
        return self._held.get(step, {})

    def chained(self, step: int, chain: bytes) -> dict[int, Envelope]:
        """The messages held for `step` that chain to the history ending in `chain`."""
        prev = canonical.b64(chain)
        return {s: e for s, e in self._held.get(step, {}).items() if e.prev == prev}

    def note_stray(self, step: int, seat: int) -> bool:
        """Record that `seat` showed another history at `step`; False when already known."""
        if (step, seat) in self._strays:
            return False
        self._strays.add((step, seat))
        return True

    def strays(self, step: int, chain: bytes) -> list[int]:
        """Seats whose message for `step` chains to another history than `chain`, each reported
        once: it convicts nobody by itself (its author saw different messages for an earlier
        step, and the other version will convict that seat, or it signed a wrong hash and never
        completes the step)."""
        prev = canonical.b64(chain)
        new = [s for s, e in self._held.get(step, {}).items()
               if e.prev != prev and (step, s) not in self._strays]
        self._strays.update((step, s) for s in new)
        return new

    def complete(self, step: int, envs: list[Envelope]) -> None:
        """`step` completed with `envs` (seat order): they join the log, the rest held is dropped."""
        self.log.extend(envs)
        self._logged.update(((e.step, e.seat), e) for e in envs)
        self._last_logged.update((e.seat, e.step) for e in envs)
        self._held.pop(step, None)

    # ---- digests (PROTOCOL §8): what is stored, named by hash -----------------------------------
    def stored(self, step: int, seat: int) -> Envelope | None:
        """This peer's message of `seat` for `step`, logged or held."""
        return self._logged.get((step, seat)) or self._held.get(step, {}).get(seat)

    def stored_steps(self, first: int, last: int) -> list[tuple[int, dict[int, Envelope]]]:
        """(step, seat -> message) of every step `first`..`last` this peer stores a message of,
        logged or held (what a catch-up request says it holds: PROTOCOL §10)."""
        out = []
        for step in range(max(0, first), last + 1):
            by_seat = {seat: env for seat in range(self.n)
                       if (env := self.stored(step, seat)) is not None}
            if by_seat:
                out.append((step, by_seat))
        return out

    def heads(self, first: int, last: int) -> list[tuple[int, int, bytes]]:
        """(step, seat, digest) of every stored message of steps `first`..`last`."""
        out = []
        for step in range(max(0, first), last + 1):
            for seat in range(self.n):
                env = self.stored(step, seat)
                if env is not None:
                    out.append((step, seat, env.digest()))
        return out

    def agreed_since(self, seat: int, step: int) -> int:
        """The first step a history shown by `seat` at `step` can differ from this peer's in: its
        last logged message chained to this peer's history (or the window's start)."""
        return max(self._last_logged.get(seat, 0), step - MAX_STEPS_AHEAD, 0)

    def resend_once(self, env: Envelope, to: int) -> bool:
        """True the first time `env` is sent to seat `to` on its demand: a digest draws each body
        at most once per peer, however often it asks (a lost one comes back by catch-up)."""
        key = (env.step, env.seat, to)
        if key in self._resent:
            return False
        self._resent.add(key)
        return True

    def ask_once(self, step: int, seat: int) -> bool:
        """True the first time this peer asks `seat` for what it lacks at `step`."""
        if (step, seat) in self._asked:
            return False
        self._asked.add((step, seat))
        return True

    def messages_from(self, step: int) -> list[Envelope]:
        """Logged and held messages from `step` on, then every abort record (to serve a peer that
        is catching up)."""
        out = [e for e in self.log if e.step >= step]
        for s in sorted(self._held):
            if s >= step:
                out.extend(self._held[s][k] for k in sorted(self._held[s]))
        return out + list(self.ledger.records)
