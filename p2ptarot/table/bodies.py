"""Pydantic models of every envelope body the table layer itself defines.

Mental-poker bodies (keys, shuffles, shares, re-encryptions) are defined by
`p2ptarot.mental.messages` and mirrored here for the JSON Schemas in `protocol/`. These models are
the wire boundary: every received body is validated against its model before anything else.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Sequence

from pydantic import (BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema,
                      field_validator)

from . import canonical
from .charter import B64
from .envelope import MAX_MESSAGE_BYTES, Envelope, EnvelopeError, parse
from .evidence import MAX_EVIDENCE_CHARS
from .rounds import SEALED_SIZES
from p2ptarot.i18n.message import tr

#: validators are built at a model's first use, not at import: a game uses four to six of these
#: bodies (an abort record's hardly ever), and each build is ~5-10 ms of a peer's start (issue 26)
_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


def _b64_of_size(n: int) -> str:
    """A regex for the canonical unpadded base64url of exactly `n` bytes (trailing bits zero)."""
    full, rest = divmod(n, 3)
    tail = {0: "", 1: "[A-Za-z0-9_-][AQgw]", 2: "[A-Za-z0-9_-]{2}[AEIMQUYcgkosw048]"}[rest]
    return f"[A-Za-z0-9_-]{{{4 * full}}}{tail}"


#: `sealed` has exactly one of the honest sizes (2^k + 16 bytes, 8 <= k <= 14)
SEALED_PATTERN = "^(?:" + "|".join(_b64_of_size(n) for n in SEALED_SIZES) + ")$"


class SealedCommitment(BaseModel):
    """A hash commitment to a secret (a blind move's body, an engine secret's value) and the same
    secret sealed to its author alone (under its seed), so a restarted seat can still open it."""

    model_config = _STRICT
    digest: str = Field(pattern=B64, min_length=43, max_length=43)
    sealed: str = Field(pattern=SEALED_PATTERN,
                        description="padded secret, SecretBox under a key only its author holds: "
                                    "exactly 2^k + 16 bytes (8 <= k <= 14), base64url")


class SecretSalt(BaseModel):
    """The opening of an engine secret: the value travels in the `open` move, the salt here."""

    model_config = _STRICT
    salt: str = Field(pattern=B64, min_length=43, max_length=43)


#: the only value of `MoveBody.by`: the seat's own stand-in bot chose this move
STAND_IN = "bot"
#: the wire form of `by`: "bot" or absent (never null: one byte form per body)
_BY_SCHEMA = {"type": "string", "const": STAND_IN,
              "description": "present only when the seat's stand-in bot chose this move (absent, "
                             "never null, otherwise); informational, never used in a verdict"}


def _absent_not_null(schema: dict[str, Any]) -> None:
    """An optional body field is left out when unset, never sent as null: its schema offers no
    null default (pydantic would write `"default": null`) and no null branch."""
    schema.pop("default", None)
    if "anyOf" in schema:
        schema["anyOf"] = [s for s in schema["anyOf"] if s != {"type": "null"}]


class MoveBody(BaseModel):
    """A game move (the game's own JSON form), with `secret` present exactly when the move is an
    engine secret's `commit` (its commitment; the move's own value is "") or `open` (its salt).

    `by` is "bot" when the seat's own stand-in bot chose the move (the player was away), absent
    otherwise. It is signed but informational only: no verdict ever reads it, and nobody can
    check who really chose a seat's move (the seat's key signs either way)."""

    model_config = _STRICT
    move: dict[str, Any]
    shares: list[dict[str, Any]] = Field(max_length=0, description="always empty: the shares a "
                                         "move obliges travel in the deck steps that follow it")
    secret: SealedCommitment | SecretSalt | None = Field(
        default=None, description="absent, except on commit (commitment) and open (salt) moves",
        json_schema_extra=_absent_not_null)
    by: Annotated[Literal["bot"] | None, WithJsonSchema(_BY_SCHEMA)] = Field(
        default=None, json_schema_extra=_absent_not_null)

    def __init__(self, **data: Any) -> None:
        """In code, `secret=None` / `by=None` mean "absent"; only a received body's explicit
        null (`model_validate`) is refused by the validator below."""
        super().__init__(**{k: v for k, v in data.items()
                            if not (k in ("secret", "by") and v is None)})

    @field_validator("secret", "by", mode="before")
    @classmethod
    def _never_null(cls, value: Any) -> Any:
        """Absent is the only way to say "none": an explicit null is a second byte form of the
        same body, so it is malformed (PROTOCOL §5, §7.2)."""
        if value is None:
            raise ValueError("an optional field is absent, never null")
        return value

    def wire(self) -> dict[str, Any]:
        """The body as sent: an absent `secret` or `by` is left out, never null."""
        body: dict[str, Any] = {"move": dict(self.move), "shares": list(self.shares)}
        if self.secret is not None:
            body["secret"] = self.secret.model_dump()
        if self.by is not None:
            body["by"] = self.by
        return body


class MoveOpenBody(MoveBody):
    """Open round of a blind (SIMULTANEOUS) turn: the move body committed to, and its salt. The
    commitment covers the canonical bytes of this body without `salt`."""

    salt: str = Field(pattern=B64, min_length=43, max_length=43)


class CommitBody(BaseModel):
    """Commit round of a joint random draw: digest = SHA-512(lp("p2ptarot/commit/" + label, salt,
    value))[0:32] with label "p2ptarot/coin/<table id hex>/<draw index>/<purpose>" (PROTOCOL §7)."""

    model_config = _STRICT
    purpose: str = Field(max_length=60)
    digest: str = Field(pattern=B64, min_length=43, max_length=43)


class OpenBody(BaseModel):
    """Opening of a commitment: the 32-byte value and 32-byte salt."""

    model_config = _STRICT
    purpose: str = Field(max_length=60)
    value: str = Field(pattern=B64, min_length=43, max_length=43)
    salt: str = Field(pattern=B64, min_length=43, max_length=43)


class ResultBody(BaseModel):
    """Every seat signs the outcome it computed; the transcript ends with one per seat."""

    model_config = _STRICT
    outcome: dict[str, Any]


MAX_REASON = 500


class AbortBody(BaseModel):
    """A seat's signed statement that it stopped playing, and why (PROTOCOL §8).

    `blame` is the seat the signer found at fault, or null when it stopped without convicting
    anyone; others never adopt it as such: they re-check the evidence.

    Evidence is carried as the offending envelopes' exact signed bytes, base64url: a string, so
    an abort record is sealable whatever the quoted message holds (a message nested just under
    the decoder's depth limit would exceed it once re-nested inside the record), and the bytes
    are the ones that were signed. Readers also accept the first form, the envelope as a JSON
    object (`envelope_of`)."""

    model_config = _STRICT
    blame: int | None = Field(ge=0, le=11)
    reason: str = Field(max_length=MAX_REASON)
    step: int = Field(ge=0, description="the step of the offending message, or where the fault "
                      "was detected when there is none")
    evidence: list[str | dict[str, Any]] = Field(
        max_length=2,
        description="the offending signed envelope(s), if any: base64url of the canonical bytes")

    @classmethod
    def quoting(cls, blame: int | None, reason: str, step: int,
                evidence: Sequence[Envelope]) -> "AbortBody":
        """The body of an abort record: never fails, whatever the evidence and reason hold."""
        quoted: list[str | dict[str, Any]] = []
        for env in evidence[:2]:
            try:
                data = env.encoded()
            except canonical.CanonicalError:
                continue  # cannot happen for a parsed envelope; an abort must still be sealable
            if len(data) <= MAX_MESSAGE_BYTES:
                quoted.append(canonical.b64(data))
        text = reason.encode("utf-8", "replace").decode("utf-8")[:MAX_REASON]
        return cls(blame=blame, reason=text, step=step, evidence=quoted)

    def envelopes(self) -> list[Envelope]:
        """The quoted envelopes (signatures not checked); raises EnvelopeError if unreadable."""
        return [envelope_of(item) for item in self.evidence]


def abort_record(env: Envelope, protocol: int, seats: int) -> tuple[AbortBody | None, str | None]:
    """A correctly signed abort envelope's body, or why the record is malformed (PROTOCOL §9.1):
    another protocol version; a body with keys, types or sizes other than the schema's; a
    `blame` that names no seat of the table; a body `step` other than the step of its first
    quoted envelope (a record with evidence) or its own envelope's step (one without). `prev` is
    not compared with anyone's chain: a record may come from a seat on another history (a split
    view, §8), and that is precisely when it must reach everyone. A malformed record convicts
    nobody, its signer included: records travel outside the chain, so peers need not all hold
    the same ones, and a verdict drawn from one would not be every honest peer's."""
    if env.v != protocol:
        return None, (tr("a malformed abort record from seat {seat}: protocol version {v} at a "
                         "table of version {protocol}",
                         seat=env.seat, v=env.v, protocol=protocol))
    try:
        body = AbortBody.model_validate(env.body)
    except ValidationError:
        return None, tr("a malformed abort record from seat {seat}", seat=env.seat)
    if body.blame is not None and body.blame >= seats:
        return None, (tr("a malformed abort record from seat {seat}: it blames seat {blame} of a "
                         "{n}-seat table",
                         seat=env.seat, blame=body.blame, n=seats))
    due = env.step
    if body.evidence:
        try:
            due = envelope_of(body.evidence[0]).step
        except (EnvelopeError, ValueError, TypeError, RecursionError):
            return None, (tr("a malformed abort record from seat {seat}: its first piece of "
                             "evidence is not an envelope",
                             seat=env.seat))
    if body.step != due:
        return None, tr("a malformed abort record from seat {seat}: its body names step {step}, "
                        "not {due} (the step of its first piece of evidence)", seat=env.seat,
                        step=body.step, due=due) if body.evidence else tr(
            "a malformed abort record from seat {seat}: its body names step {step}, not {due} (the "
            "step of its envelope)", seat=env.seat, step=body.step, due=due)
    return body, None


def envelope_of(item: str | dict[str, Any]) -> Envelope:
    """One evidence item as an envelope: base64url of its bytes (or, first form, the object)."""
    if isinstance(item, str):
        if len(item) > MAX_EVIDENCE_CHARS:
            raise EnvelopeError(tr("evidence larger than any step message"))
        try:
            data = canonical.unb64(item, "evidence")
        except canonical.CanonicalError as exc:
            raise EnvelopeError(tr("unreadable evidence: {exc}", exc=exc)) from exc
        return parse(data)
    try:
        return parse(canonical.encode(item))
    except canonical.CanonicalError as exc:
        raise EnvelopeError(tr("unreadable evidence: {exc}", exc=exc)) from exc


def build_validators() -> None:
    """Build now the validators every game's peers use (`SealedCommitment`'s pattern alone takes
    about 30 ms): a launcher does it once before forking its peers, which otherwise each built
    them at their first move."""
    for model in (SealedCommitment, SecretSalt, MoveBody, CommitBody, OpenBody, ResultBody):
        model.model_rebuild()
