"""The offline verifier: replay a transcript with the engine and every cryptographic check.

It is a `Session` with no seat and no secret, fed the file line by line: every signature, chain
hash, schema, proof, audit and rule is checked exactly as a live peer checks it. The verdict is
valid (with the outcome every seat signed) or the first violation (step, seat, reason).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2ptarot.table.effects import Aborted, Warning
from p2ptarot.table.envelope import EnvelopeError, parse
from p2ptarot.table.session import Session

from .format import Transcript


@dataclass
class Verdict:
    valid: bool
    steps: int
    outcome: dict[str, Any] | None = None
    step: int | None = None
    seat: int | None = None
    reason: str | None = None
    aborted_by_players: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"valid": self.valid, "steps": self.steps, "outcome": self.outcome,
                "violation": None if self.valid else
                {"step": self.step, "seat": self.seat, "reason": self.reason},
                "aborted_by_players": self.aborted_by_players}


def verify_transcript(t: Transcript) -> Verdict:
    """Replay `t` from nothing; the first fault ends the replay."""
    try:
        session = Session(t.charter, seat=None)
    except ValueError as exc:
        return Verdict(False, 0, step=0, seat=None, reason=f"charter: {exc}")
    session.start()
    aborts: list[dict[str, Any]] = []
    for index, line in enumerate(t.messages, start=2):
        try:
            env = parse(line)
        except EnvelopeError as exc:
            return Verdict(False, session.step, step=session.step, seat=None,
                           reason=f"line {index}: {exc}")
        if env.kind == "abort":
            aborts.append({"by": env.seat, **env.body})
        if env.kind != "abort" and session.finished:
            return Verdict(False, session.step, step=env.step, seat=env.seat,
                           reason=f"line {index}: message after the end of the game")
        if env.kind != "abort" and env.step != session.step:
            return Verdict(False, session.step, step=env.step, seat=env.seat,
                           reason=f"line {index}: out of order (expected step {session.step})")
        pending = session.pending_seats()
        if env.kind != "abort" and env.seat in pending and env.seat != pending[0]:
            return Verdict(False, session.step, step=env.step, seat=env.seat,
                           reason=f"line {index}: out of order within step {env.step} "
                                  f"(expected seat {pending[0]} next)")
        for effect in session.receive(line):
            if isinstance(effect, Aborted):
                return Verdict(False, session.step, step=effect.step, seat=effect.blame,
                               reason=effect.reason,
                               aborted_by_players=aborts + _signed_aborts(t, t.messages[index - 1:]))
            if isinstance(effect, Warning):
                return Verdict(False, session.step, step=env.step, seat=env.seat,
                               reason=f"line {index}: {effect.text}")
    if session.outcome is None:
        if aborts:
            first = aborts[0]
            return Verdict(False, session.step, step=first.get("step"), seat=first.get("blame"),
                           reason=f"game aborted by the players: {first.get('reason')}",
                           aborted_by_players=aborts)
        missing = session.pending_seats()
        return Verdict(False, session.step, step=session.step,
                       seat=missing[0] if missing else None,
                       reason="transcript ends before the game does"
                       + (f" (waiting for seat {missing[0]})" if missing else ""))
    return Verdict(True, session.step, outcome=session.outcome.to_json())


def _signed_aborts(t: Transcript, lines: list[bytes]) -> list[dict[str, Any]]:
    """The players' own abort records among `lines` (correctly signed ones only), so a verdict
    found by the verifier also says what the players concluded at the table."""
    out = []
    for line in lines:
        try:
            env = parse(line)
            if env.kind == "abort" and env.seat < len(t.charter.charter.seats):
                env.verify_signature(t.charter.charter.seat_key(env.seat))
                out.append({"by": env.seat, **env.body})
        except EnvelopeError:
            continue
    return out


__all__ = ["Verdict", "verify_transcript"]
