"""The digest control frame: what a peer stores, named by hash, instead of relaying every body.

`{"ctl": "digest", "step": k, "chain": h, "heads": [[step, seat, digest], ...], "want": [[step,
seat], ...]}` (PROTOCOL §8): `step` and `chain` are the sender's current step and its chain hash
before it (what its next message will carry as `prev`); `heads` name messages it stores (their
envelope digests); `want` names step messages it lacks. A receiver answers with the bodies of
what it stores under a named (step, seat) with *another* digest, and of what is wanted; it never
sends a body unasked. Validated strictly: a frame is unauthenticated input of the link's peer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import canonical
from .charter import B64

#: steps a digest may name: the whole window a peer takes messages for, and the step before it
MAX_DIGEST_STEPS = 66
#: heads in one frame: every seat of every step of the window
MAX_HEADS = 12 * MAX_DIGEST_STEPS
#: wants in one frame: every seat of the current step and the next one
MAX_WANTS = 24

_Step = Annotated[int, Field(ge=0, le=10_000_000)]
_Seat = Annotated[int, Field(ge=0, le=11)]
_Hash = Annotated[str, Field(pattern=B64, min_length=43, max_length=43)]
#: (step, seats, digests): what a catch-up request says its sender stores for one step
HaveEntry = tuple[int, int, str]
#: bytes of an envelope digest a catch-up request names (collisions cost 2^64 work)
HAVE_DIGEST = 16
#: seats a `have` entry can name (the digest's seat bound)
HAVE_SEATS = 12


class _Digested(Protocol):
    """What a `have` entry needs of a stored message (an `Envelope`)."""

    def digest(self) -> bytes: ...


def _seats(mask: int) -> list[int]:
    return [seat for seat in range(mask.bit_length()) if mask >> seat & 1]


def have_digests(by_seat: Mapping[int, _Digested], mask: int) -> str:
    """The digests a catch-up request names for the messages of the seats in `mask`: the first
    `HAVE_DIGEST` bytes of each envelope digest, in seat order, as one unpadded base64url."""
    return canonical.b64(b"".join(by_seat[seat].digest()[:HAVE_DIGEST] for seat in _seats(mask)))


def have_entry_ok(entry: HaveEntry) -> bool:
    """True when an entry's digests are exactly one per seat of its mask."""
    _, mask, digests = entry
    try:
        raw = canonical.unb64(digests, "have")
    except canonical.CanonicalError:
        return False
    return len(raw) == HAVE_DIGEST * len(_seats(mask))


def have_entries(stored: Iterable[tuple[int, Mapping[int, _Digested]]]) -> list[HaveEntry]:
    """`have` entries of a catch-up request: per step (ascending) whose messages are stored, the
    seats stored and their digests (`have_digests`), at most `MAX_DIGEST_STEPS` of them."""
    out: list[HaveEntry] = []
    for step, by_seat in stored:
        mask = sum(1 << seat for seat in by_seat if 0 <= seat < HAVE_SEATS)
        if mask:
            out.append((step, mask, have_digests(by_seat, mask)))
        if len(out) == MAX_DIGEST_STEPS:
            break
    return out


def held_by_asker(entries: Iterable[HaveEntry],
                  mine: Mapping[int, Mapping[int, _Digested]]) -> set[tuple[int, int]]:
    """(step, seat) of the messages in `mine` (step -> seat -> message) that a catch-up request's
    `entries` show its sender holds in the same version: those an answer leaves out. Another
    version of one (an equivocation the asker must see) is not left out."""
    skip: set[tuple[int, int]] = set()
    for entry in entries:
        step, mask, digests = entry
        by_seat = mine.get(step)
        if not by_seat or not have_entry_ok(entry):
            continue
        raw = canonical.unb64(digests, "have")
        for k, seat in enumerate(_seats(mask)):
            env = by_seat.get(seat)
            if env is not None and env.digest()[:HAVE_DIGEST] == raw[k * HAVE_DIGEST:
                                                                    (k + 1) * HAVE_DIGEST]:
                skip.add((step, seat))
    return skip


class DigestFrame(BaseModel):
    """A peer's digest of what it stores (see the module doc)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    ctl: Literal["digest"]
    step: _Step
    chain: _Hash
    heads: list[tuple[_Step, _Seat, _Hash]] = Field(max_length=MAX_HEADS)
    want: list[tuple[_Step, _Seat]] = Field(max_length=MAX_WANTS)

    def wire(self) -> dict[str, Any]:
        return {"ctl": "digest", "step": self.step, "chain": self.chain,
                "heads": [list(h) for h in self.heads], "want": [list(w) for w in self.want]}


def make_frame(step: int, chain: bytes, heads: list[tuple[int, int, bytes]],
               want: list[tuple[int, int]]) -> dict[str, Any]:
    """The wire form of a digest (envelope digests as unpadded base64url)."""
    return {"ctl": "digest", "step": step, "chain": canonical.b64(chain),
            "heads": [[st, se, canonical.b64(h)] for st, se, h in heads[:MAX_HEADS]],
            "want": [[st, se] for st, se in want[:MAX_WANTS]]}


def parse_frame(frame: object) -> DigestFrame | None:
    """A received digest (a decoded JSON object), or None when it is malformed."""
    if isinstance(frame, DigestFrame):
        return frame  # parsed at the link's edge already
    if not isinstance(frame, dict):
        return None
    try:
        # JSON has no tuples: pydantic's strict mode takes lists for the fixed-length items
        return DigestFrame.model_validate(frame, strict=False) if _plain(frame) else None
    except ValidationError:
        return None


def _plain(frame: dict[str, Any]) -> bool:
    """Strictness pydantic's lax mode would skip: integers are ints (not bools or strings)."""
    for key in ("heads", "want"):
        items = frame.get(key)
        if not isinstance(items, list):
            return False
        for item in items:
            if not isinstance(item, list) or any(type(x) is not int for x in item[:2]):
                return False
    return type(frame.get("step")) is int
