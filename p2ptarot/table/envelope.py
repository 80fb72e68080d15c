"""The signed envelope around every step message, and the hash chain that orders them.

`prev` is the chain hash of the log before this step: chain(0) = H(table id), and
chain(k+1) = H(chain(k), hash of every message of step k in seat order). All messages of one step
name the same `prev`, so a seat cannot show different histories to different peers without
producing two signed, contradicting messages — an equivocation proof.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from typing import Any, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.signing import Identity, verify_signature

from . import canonical
from .charter import B64
from p2ptarot.i18n.message import tr

#: largest step message (a real one is < 100 KB: a 104-card shuffle with its proof is ~45 KB)
MAX_MESSAGE_BYTES = 1024 * 1024
#: an abort record quotes up to two step messages as base64 (4/3 of their size) plus its reason:
#: it always fits, and stays under the transport's 4 MiB frame limit
MAX_ABORT_BYTES = 3 * 1024 * 1024
SIGN_LABEL = b"p2ptarot/envelope\x00"


class EnvelopeError(ValueError):
    """An envelope that is malformed, mis-signed or out of place."""


class Envelope(BaseModel):
    """table id, step, seat, chain hash, kind, body and the seat's Ed25519 signature."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    v: int = Field(ge=1)
    table: str = Field(pattern=B64, min_length=43, max_length=43)
    step: int = Field(ge=0, le=10_000_000)
    seat: int = Field(ge=0, le=11)
    prev: str = Field(pattern=B64, min_length=43, max_length=43)
    kind: str = Field(min_length=1, max_length=40)
    body: dict[str, Any]
    sig: str = Field(pattern=B64, min_length=86, max_length=86)

    def unsigned(self) -> dict[str, Any]:
        d = self.model_dump(mode="json")
        del d["sig"]
        return d

    def signing_bytes(self) -> bytes:
        """The canonical encoding of the envelope without `sig`: cut out of `wire` (keys are
        sorted, so the top-level `sig` member sits between `seat` and `step`, after the body:
        the last occurrence of its exact text), rather than encoded a second time."""
        wire = self.wire
        member = b',"sig":"' + self.sig.encode("ascii") + b'"'
        at = wire.rfind(member)
        if at < 0 or not wire.startswith(b',"step":', at + len(member)):
            return SIGN_LABEL + canonical.encode(self.unsigned())
        return SIGN_LABEL + wire[:at] + wire[at + len(member):]

    @cached_property
    def wire(self) -> bytes:
        """The canonical bytes, encoded once (a frozen model: they never change). A parsed
        envelope's are the very bytes it was parsed from (`parse` proved them canonical)."""
        return canonical.encode(self.model_dump(mode="json"))

    def encoded(self) -> bytes:
        return self.wire

    @cached_property
    def _digest(self) -> bytes:
        return hashlib.sha256(b"p2ptarot/message\x00" + self.wire).digest()

    def digest(self) -> bytes:
        return self._digest

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Envelope:
        """A copy without the cached bytes (an `update` would make them stale)."""
        copy = super().model_copy(update=update, deep=deep)
        copy.__dict__.pop("wire", None)
        copy.__dict__.pop("_digest", None)
        return copy

    def verify_signature(self, public_key: bytes) -> None:
        try:
            verify_signature(public_key, self.signing_bytes(), canonical.unb64(self.sig, "sig", 64))
        except (CryptoError, canonical.CanonicalError) as exc:
            raise EnvelopeError(tr("step {step}, seat {seat}: bad signature",
                                   step=self.step, seat=self.seat)) from exc


def seal(identity: Identity, table_id: bytes, step: int, seat: int, prev: bytes, kind: str,
         body: dict[str, Any]) -> Envelope:
    """Build and sign an envelope."""
    unsigned: dict[str, Any] = {"v": PROTOCOL_VERSION, "table": canonical.b64(table_id), "step": step, "seat": seat,
                "prev": canonical.b64(prev), "kind": kind, "body": body}
    signed = canonical.encode(unsigned)
    env = Envelope(**unsigned, sig=canonical.b64(identity.sign(SIGN_LABEL + signed)))
    # the whole encoding is the signed one with the `sig` member put back before the top-level
    # `step` (the last `,"step":` of the text: only `table` and `v` follow it)
    at = signed.rfind(b',"step":')
    env.__dict__["wire"] = signed[:at] + b',"sig":"' + env.sig.encode("ascii") + b'"' + signed[at:]
    return env


def parse(data: bytes, max_size: int = MAX_MESSAGE_BYTES) -> Envelope:
    """Strictly decode an envelope from its canonical bytes (signature not yet checked).

    Every malformation raises `EnvelopeError` and nothing else. `max_size` bounds step messages;
    abort records may be up to `MAX_ABORT_BYTES` (they quote step messages as evidence)."""
    try:
        raw = canonical.decode(data, max_size=max(max_size, MAX_ABORT_BYTES))
    except canonical.CanonicalError as exc:
        raise EnvelopeError(tr("unreadable message: {exc}", exc=exc)) from exc
    if not isinstance(raw, dict):
        raise EnvelopeError(tr("a message is a JSON object"))
    if len(data) > max_size and raw.get("kind") != "abort":
        raise EnvelopeError(tr("message of {size} bytes exceeds the limit of {limit}",
                               size=len(data), limit=max_size))
    try:
        env = Envelope.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])[:100]
        raise EnvelopeError(tr("bad envelope: {where}: {msg}",
                               where=where, msg=first['msg'][:200])) from exc
    env.__dict__["wire"] = bytes(data)  # canonical: `encode(raw) == data` was checked above
    return env


def chain_start(table_id: bytes) -> bytes:
    return hashlib.sha256(b"p2ptarot/chain\x00" + table_id).digest()


def chain_next(prev: bytes, step_messages: list[Envelope]) -> bytes:
    """Chain hash after a completed step (messages in seat order)."""
    h = hashlib.sha256(b"p2ptarot/chain\x00" + prev)
    for env in step_messages:
        h.update(env.digest())
    return h.digest()
