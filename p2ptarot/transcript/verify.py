"""The offline verifier: replay a transcript with the engine and every cryptographic check.

It is a `Session` with no seat and no secret, fed the file line by line: every signature, chain
hash, schema, proof, audit and rule is checked exactly as a live peer checks it. The evidence of
every abort record in the file is re-checked the same way (fed to the replay as messages). The
verdict is valid (with the outcome every seat signed), a conviction (the fault the replay itself
found, quoting the signed evidence), or incomplete/inconsistent with no seat named: only a valid
signature on a message the replay proves wrong implicates a seat — never a players' accusation,
an unsigned or misplaced line, or a file that simply stops.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


from p2ptarot.table import canonical
from p2ptarot.table.bodies import abort_record
from p2ptarot.table.effects import Aborted, Notice
from p2ptarot.table.envelope import Envelope, EnvelopeError, parse
from p2ptarot.table.bodies import envelope_of
from p2ptarot.table.evidence import cite
from p2ptarot.table.session import Session

from .format import Transcript
from p2ptarot.i18n.message import Message, joined, tr


#: a conviction's reason followed by the signed evidence it quotes
QUOTING = "{reason} — evidence: {quoted}"


@dataclass
class Verdict:
    valid: bool
    steps: int
    outcome: dict[str, Any] | None = None
    step: int | None = None
    seat: int | None = None
    reason: str | None = None
    aborted_by_players: list[dict[str, Any]] = field(default_factory=list)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    #: faults the rules punished while play went on (an Eleusis void round), proven by the replay
    findings: list[dict[str, Any]] = field(default_factory=list)

    @property
    def kind(self) -> str:
        """The verdict's class (PROTOCOL §9.2): `valid`, `convicted` (a seat's signed message
        proven wrong), `incomplete` (the file stops early) or `inconsistent` (the file is not one
        consistent log); all but `valid` exit 1."""
        if self.valid:
            return "valid"
        if self.seat is not None:
            return "convicted"
        return "incomplete" if (self.reason or "").startswith("incomplete") else "inconsistent"

    @property
    def cause(self) -> str | None:
        """The reason without the evidence it quotes (a front end lists the evidence apart)."""
        if isinstance(self.reason, Message) and self.reason.id == QUOTING:
            return self.reason.fields["reason"]
        return self.reason

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.kind, "valid": self.valid, "steps": self.steps,
                "outcome": self.outcome,
                "violation": None if self.valid else
                {"step": self.step, "seat": self.seat, "reason": self.reason,
                 "evidence": self.evidence},
                "findings": self.findings,
                "aborted_by_players": self.aborted_by_players}


def verify_transcript(t: Transcript) -> Verdict:
    """Replay `t` from nothing; the first fault ends the replay. Whatever the verdict, it lists
    the faults the rules punished while play went on (`findings`), each with its evidence."""
    try:
        session = Session(t.charter, seat=None)
    except ValueError as exc:
        return Verdict(False, 0, step=0, seat=None, reason=tr("charter: {exc}", exc=exc))
    verdict = _replay(t, session)
    verdict.findings = [{"step": f.step, "seat": f.blame, "reason": f.reason,
                         "evidence": [cite(e) for e in f.evidence]} for f in session.findings]
    return verdict


def _replay(t: Transcript, session: Session) -> Verdict:
    session.start()
    aborts = _signed_aborts(t)
    # the file's last line, which a crash may have cut (none of them when a framing fault follows)
    last = len(t.messages) + 1 if t.framing is None else -1
    first_seen: dict[bytes, int] = {}
    stopped: dict[int, int] = {}  # seat -> step of the first abort record it signed in the file
    for index, line in enumerate(t.messages, start=2):
        if line in first_seen:  # an honest writer logs each line once
            return _broken(session, aborts, tr("line {index} repeats line {line} verbatim",
                                               index=index, line=first_seen[line]))
        first_seen[line] = index
        try:
            env = parse(line)
        except EnvelopeError as exc:
            if index == last:  # a write cut short by a crash: the file ends early, that is all
                return _incomplete(session, aborts, tr("its last line is cut or unreadable ({exc})",
                                                       exc=exc))
            return _broken(session, aborts, tr("line {index}: {problem}", index=index, problem=exc))
        if env.kind == "abort":
            problem = _bad_abort_line(t, env)
            if problem:
                if index == last and "bad signature" in problem:
                    return _incomplete(session, aborts, tr("its last line is not correctly signed "
                                                           "({problem})",
                                                           problem=problem))
                return _broken(session, aborts, tr("line {index}: {problem}",
                                                   index=index, problem=problem))
            stopped.setdefault(env.seat, env.step)
        else:
            problem = _misplaced(session, env)
            if not problem and env.seat in stopped and env.step > stopped[env.seat]:
                problem = (tr("seat {seat} signed an abort record at step {at} and then a message "
                              "for step {step}",
                              seat=env.seat, at=stopped[env.seat], step=env.step))
            if problem:
                return _broken(session, aborts, tr("line {index}: {problem}",
                                                   index=index, problem=problem))
        for effect in session.receive(line):
            if isinstance(effect, Aborted):
                return _ended(session, effect, aborts)
            if isinstance(effect, Notice) and env.kind != "abort":
                # an unsigned, foreign or unchained line: the file is wrong, nobody is implicated
                if index == last and "bad signature" in effect.text:
                    return _incomplete(session, aborts, tr("its last line is not correctly signed "
                                                           "({problem})",
                                                           problem=effect.text))
                return _broken(session, aborts, tr("line {index}: {problem}",
                                                   index=index, problem=effect.text))
    if t.framing is not None:  # one byte form only (§9): the file, not a seat, is at fault
        number, problem = t.framing
        if t.cut:
            return _incomplete(session, aborts, tr("line {number} {problem}",
                                                   number=number, problem=problem))
        return _broken(session, aborts, tr("line {number} {problem}",
                                           number=number, problem=problem))
    if session.outcome is not None:
        return Verdict(True, session.step, outcome=session.outcome.to_json(),
                       aborted_by_players=aborts)
    return _incomplete(session, aborts, None)


def _incomplete(session: Session, aborts: list[dict[str, Any]], tail: str | None) -> Verdict:
    """The file stops before the game does: nobody is convicted for what is not there."""
    if aborts:
        first = aborts[0]
        accused = tr("nobody") if first.get("blame") is None else f"seat {first.get('blame')}"
        by, why = first["by"], repr(first.get("reason"))
        if tail:
            reason = tr("incomplete: the players stopped the game (seat {by} accused {accused}: "
                        "{reason}), and replaying every message and every piece of evidence in the "
                        "file proves no seat at fault; {note}", by=by, accused=accused, reason=why,
                        note=tail)
        else:
            reason = tr("incomplete: the players stopped the game (seat {by} accused {accused}: "
                        "{reason}), and replaying every message and every piece of evidence in the "
                        "file proves no seat at fault", by=by, accused=accused, reason=why)
        return Verdict(False, session.step, step=session.step, seat=None, reason=reason,
                       aborted_by_players=aborts)
    missing = session.pending_seats()
    seats = ", ".join(str(s) for s in missing)
    if missing:
        reason = tr("incomplete: the transcript ends before the game does (step {step} waits for "
                     "seat(s) {seats}); {note}", step=session.step, seats=seats, note=tail) if tail \
            else tr("incomplete: the transcript ends before the game does (step {step} waits for "
                     "seat(s) {seats})", step=session.step, seats=seats)
    else:
        reason = tr("incomplete: the transcript ends before the game does; {note}", note=tail) \
            if tail else tr("incomplete: the transcript ends before the game does")
    return Verdict(False, session.step, step=session.step, seat=None, reason=reason,
                   aborted_by_players=aborts)


def _bad_abort_line(t: Transcript, env: Envelope) -> str | None:
    """Why an abort line is not a record a seat signed (its evidence is checked by the replay)."""
    if env.table != canonical.b64(t.charter.charter.table_id):
        return tr("an abort record of another table")
    if env.seat >= len(t.charter.charter.seats):
        return tr("an abort record from unknown seat {seat}", seat=env.seat)
    try:
        env.verify_signature(t.charter.charter.seat_key(env.seat))
    except EnvelopeError as exc:
        return tr("abort record: {exc}", exc=exc)
    charter = t.charter.charter
    return abort_record(env, charter.protocol, len(charter.seats))[1]


def _misplaced(session: Session, env: Envelope) -> str | None:
    """Why a log line cannot stand where it is (order is the file's, not the signer's, doing)."""
    if session.finished:
        return tr("message after the end of the game")
    if env.step != session.step:
        return tr("out of order: seat {seat}'s message for step {step} where step {due} is due",
                  seat=env.seat, step=env.step, due=session.step)
    pending = session.pending_seats()
    if env.seat in pending and env.seat != pending[0]:
        return tr("out of order within step {step} (expected seat {seat} next)",
                  step=env.step, seat=pending[0])
    return None


def _broken(session: Session, aborts: list[dict[str, Any]], reason: str) -> Verdict:
    return Verdict(False, session.step, step=session.step, seat=None,
                   reason=tr("{reason} (the file is not a consistent log; no seat is implicated)",
                             reason=reason),
                   aborted_by_players=aborts)


def _ended(session: Session, effect: Aborted, aborts: list[dict[str, Any]]) -> Verdict:
    """The replay itself stopped: a conviction (with the evidence it re-checked) or a void end."""
    cited = [cite(e) for e in effect.evidence]
    why = effect.reason
    if cited:
        quoted = joined([tr("seat {seat}'s signed {kind} of step {step} (digest {digest})",
                             seat=c["seat"], kind=c["kind"], step=c["step"], digest=c["digest"])
                         for c in cited])
        why = tr("{reason} — evidence: {quoted}", reason=why, quoted=quoted)
    return Verdict(False, session.step, step=effect.step, seat=effect.blame, reason=why,
                   aborted_by_players=aborts, evidence=cited)


def _signed_aborts(t: Transcript) -> list[dict[str, Any]]:
    """The players' own abort records in the file (correctly signed ones only): what they
    concluded at the table, listed with every verdict but never adopted as one."""
    out = []
    for line in t.messages:
        try:
            env = parse(line)
            if env.kind == "abort" and env.seat < len(t.charter.charter.seats):
                env.verify_signature(t.charter.charter.seat_key(env.seat))
                record = {"by": env.seat, "at": env.step, **env.body}
                record["evidence"] = [cite(e) for e in _envelopes(env.body.get("evidence"))]
                out.append(record)
        except EnvelopeError:
            continue
    return out


def _envelopes(items: Any) -> list[Envelope]:
    """The readable envelopes among an abort record's evidence items (others prove nothing)."""
    out = []
    for item in items if isinstance(items, list) else []:
        try:
            out.append(envelope_of(item))
        except (EnvelopeError, ValueError, TypeError, RecursionError):
            continue
    return out


__all__ = ["Verdict", "verify_transcript"]
