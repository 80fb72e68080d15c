"""Abort records and their evidence: what another seat's accusation may make a peer conclude.

Only a valid signature can implicate a seat, and a peer convicts only on its own checks. An abort
record's `blame` is therefore never adopted as such: the signed envelopes it carries as evidence
are fed back into the session as ordinary received messages, so the session's own checks find the
fault again — at once for an equivocation (two signed versions of one step message), when the step
completes for a bad message, at the audit for a false claim. Evidence that proves nothing convicts
nobody. What an abort record does prove, by its own signature, is that its signer stopped playing
at its step: a peer that later needs that seat ends the game too ("abandoned"), naming nobody,
instead of blaming someone's silence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import canonical
from .envelope import MAX_MESSAGE_BYTES, Envelope
from p2ptarot.i18n.message import tr

#: abort records kept (relayed, written to the transcript) per seat: an honest seat signs one, a
#: cheater signing thousands of different ones must not fill its peers' disks and links
MAX_RECORDS_PER_SEAT = 2
#: base64url of the largest step message an abort record can quote
MAX_EVIDENCE_CHARS = (MAX_MESSAGE_BYTES * 4 + 2) // 3


@dataclass(frozen=True)
class StoppedSeat:
    """A seat whose signed abort record says it stopped at `step` (the record's envelope step)."""

    seat: int
    step: int
    blame: int | None
    reason: str

    def describe(self) -> str:
        """Why the game ends with nobody to blame: this seat stopped it, proving nothing."""
        accused = tr("nobody") if self.blame is None else f"seat {self.blame}"
        return tr("{who} stopped the game at step {step}, accusing {accused}: {reason}; the "
                  "evidence it carried proves nothing to this seat's own checks, so nobody is "
                  "convicted", who=f"seat {self.seat}", step=self.step, accused=accused,
                  reason=repr(self.reason))


class AbortLedger:
    """The abort records a peer holds, and which seats they show to have stopped."""

    def __init__(self) -> None:
        self.records: list[Envelope] = []
        self._digests: set[bytes] = set()
        self.stopped: dict[int, StoppedSeat] = {}

    def add(self, env: Envelope, blame: int | None, reason: str) -> bool:
        """Keep a correctly signed abort record; False when it was already known."""
        digest = env.digest()
        if digest in self._digests:
            return False
        if sum(1 for r in self.records if r.seat == env.seat) >= MAX_RECORDS_PER_SEAT:
            return False  # an honest seat signs one; more would only be relayed and stored
        self._digests.add(digest)
        self.records.append(env)
        known = self.stopped.get(env.seat)
        if known is None or env.step < known.step:
            self.stopped[env.seat] = StoppedSeat(env.seat, env.step, blame, reason)
        return True

    def blocking(self, step: int, pending: tuple[int, ...]) -> StoppedSeat | None:
        """The stopped seat that ends the game for a peer at `step` still waiting for `pending`:
        one that stopped before this step, or stopped in it without having spoken."""
        for stop in sorted(self.stopped.values(), key=lambda s: (s.step, s.seat)):
            if step > stop.step or (step == stop.step and stop.seat in pending):
                return stop
        return None

    def first(self) -> StoppedSeat | None:
        return min(self.stopped.values(), key=lambda s: (s.step, s.seat), default=None)


def evidence_lines(evidence: list[str | dict[str, Any]]) -> list[bytes]:
    """The evidence envelopes of an abort body as bytes to re-check like any received message:
    base64url of the signed bytes, or (first form) the envelope as a JSON object. Items that
    cannot even be decoded or encoded are skipped: they prove nothing."""
    out = []
    for item in evidence:
        try:
            if isinstance(item, str):
                if len(item) > MAX_EVIDENCE_CHARS:
                    continue
                out.append(canonical.unb64(item, "evidence"))
            else:
                out.append(canonical.encode(item))
        except (canonical.CanonicalError, ValueError, TypeError, RecursionError):
            continue
    return out


def cite(env: Envelope) -> dict[str, Any]:
    """How a verdict quotes one piece of evidence: whose signed message, of which step and kind."""
    return {"step": env.step, "seat": env.seat, "kind": env.kind,
            "digest": env.digest().hex()[:16]}


def is_equivocation(a: Envelope, b: Envelope) -> bool:
    """Two correctly signed (checked by the caller), different messages by one seat for one step
    of one table: proof that this seat showed different peers different histories."""
    return (a.table == b.table and a.step == b.step and a.seat == b.seat
            and a.kind != "abort" and b.kind != "abort" and a.digest() != b.digest())
