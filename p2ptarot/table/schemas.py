"""JSON Schemas of every wire record, for implementations that do not share this code.

The mental-poker bodies are produced by `p2ptarot.mental.messages` (frozen dataclasses with
hand-written `to_dict`); the models here mirror those dict forms field for field so that
`protocol/schemas/` describes every body an envelope can carry. Byte fields are unpadded base64url
and the patterns below pin their exact canonical length (the last character of a 32-byte value
carries 2 zero bits, of a 64-byte value 4), so a schema-valid body has one byte form.

`protocol/make_schemas.py` writes the checked-in files (pure here: no file I/O in the core).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, Strict

from p2ptarot.mental.codec import MAX_DECK_ID, MAX_INT, MAX_ITEMS

from .bodies import (AbortBody, CommitBody, MoveBody, MoveOpenBody, OpenBody, ResultBody,
                     SealedCommitment)
from .charter import B64, SignedCharter
from .control import CONTROL_MODELS
from .digest import DigestFrame
from .envelope import Envelope

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)

# 32 bytes = 43 characters, the last one a multiple of 4; 64 bytes = 86, the last a multiple of 16.
B64_32 = r"^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$"
B64_64 = r"^[A-Za-z0-9_-]{85}[AQgw]$"
POINT_DOC = "ristretto255 element (canonical encoding, never the identity), 32 bytes, base64url"
PROOF_DOC = "two scalars (challenge-response), 64 bytes, base64url"
CIPHERTEXT_DOC = "ElGamal ciphertext a||b (two points), 64 bytes, base64url"

HEADER_KIND = "p2ptarot-transcript"  # same literal as p2ptarot.transcript.format.HEADER_KIND


class _MentalHeader(BaseModel):
    """Fields every mental message starts with: which deck epoch and operation it answers."""

    model_config = _STRICT
    deck: str = Field(min_length=1, max_length=MAX_DECK_ID)
    epoch: int = Field(ge=0, le=MAX_INT)
    op: int = Field(ge=0, le=MAX_INT, description="0 = key generation, then one per operation")
    seat: int = Field(ge=0, le=11, description="author seat; must equal the envelope's seat")


class MentalKeyBody(_MentalHeader):
    """h_i = x_i·G for one deck epoch with a Schnorr proof of knowledge of x_i."""

    kind: Literal["mental.key"]
    key: str = Field(pattern=B64_32, description=POINT_DOC)
    proof: str = Field(pattern=B64_64, description=PROOF_DOC)


class MentalShuffleBody(_MentalHeader):
    """The re-encrypted, permuted deck, the handles it consumes and creates, and its
    Terelius–Wikström proof ((5n+9)·32 bytes)."""

    kind: Literal["mental.shuffle"]
    inputs: list[Annotated[int, Field(ge=0, le=MAX_INT)]] = Field(
        max_length=MAX_ITEMS, description="the handles whose current versions are the input, in "
        "order; empty for an epoch's first shuffle (its input is the open deck)")
    outputs: list[Annotated[int, Field(ge=0, le=MAX_INT)]] = Field(
        max_length=MAX_ITEMS, description="the handles the shuffled deck occupies, position by "
        "position (0..N-1 for the first shuffle, the next unused numbers for a reshuffle)")
    ciphertexts: list[Annotated[str, Field(pattern=B64_64, description=CIPHERTEXT_DOC)]] = Field(
        max_length=MAX_ITEMS)
    proof: str = Field(pattern=B64, description="shuffle proof: (3n+5) points then (2n+4) scalars")


class ShareItemModel(BaseModel):
    """One decryption share d = x_i·a with its Chaum–Pedersen proof."""

    model_config = _STRICT
    handle: int = Field(ge=0, le=MAX_INT)
    version: int = Field(ge=0, le=MAX_INT)
    share: str = Field(pattern=B64_32, description=POINT_DOC)
    proof: str = Field(pattern=B64_64, description=PROOF_DOC)


_Handle = Annotated[int, Strict(), Field(ge=0, le=MAX_INT)]
_Seat = Annotated[int, Strict(), Field(ge=0, le=11)]
# a JSON array of fixed length: lax only in taking a list for the tuple, strict in its items
_ShareTarget = Annotated[tuple[_Handle, _Handle, Optional[_Seat]], Strict(False)]
_TransferTarget = Annotated[tuple[_Handle, _Seat, _Seat], Strict(False)]


class MentalSharesBody(_MentalHeader):
    """Every share one seat owes for one operation, in the expected order, with the whole
    operation as its engine asked for it (protocol 7): a verifier without the rules checks
    that every share owed was given and that an audit opened exactly the handles it lists."""

    kind: Literal["mental.shares"]
    targets: list[_ShareTarget] = Field(
        max_length=MAX_ITEMS, description="the operation's requests in request order, every "
        "seat's: [deck handle, version, recipient seat] (a deal, a shown card's new version) or "
        "[deck handle, version, null] (a public reveal, the audit); every message of one "
        "operation names the same list (PROTOCOL §6.7)")
    owing: list[_Seat] = Field(
        max_length=12, description="the seats that owe shares in the operation, ascending: "
        "every seat that has not yet published its share of a target it is not the recipient "
        "of (the step's seats)")
    audit: bool = Field(description="true on its deck epoch's final audit (§6.3 step 7)")
    items: list[ShareItemModel] = Field(max_length=MAX_ITEMS)


class ReencryptionItemModel(BaseModel):
    """A fresh re-encryption (new `version`) of a held card, with its proof."""

    model_config = _STRICT
    handle: int = Field(ge=0, le=MAX_INT)
    version: int = Field(ge=0, le=MAX_INT)
    ciphertext: str = Field(pattern=B64_64, description=CIPHERTEXT_DOC)
    proof: str = Field(pattern=B64_64, description=PROOF_DOC)


class MentalReencryptBody(_MentalHeader):
    """A holder's re-encryptions for a show/give operation."""

    kind: Literal["mental.reencrypt"]
    targets: list[_TransferTarget] = Field(
        max_length=MAX_ITEMS, description="the operation's transfers in request order, every "
        "holder's: [deck handle, holder, recipient] (PROTOCOL §6.7)")
    items: list[ReencryptionItemModel] = Field(max_length=MAX_ITEMS)


class TranscriptHeader(BaseModel):
    """First line of a transcript file."""

    model_config = _STRICT
    kind: Literal["p2ptarot-transcript"]
    charter: SignedCharter


BODY_MODELS: dict[str, type[BaseModel]] = {
    "move": MoveBody,
    "move.commit": SealedCommitment,
    "move.open": MoveOpenBody,
    "coin.commit": CommitBody,
    "coin.open": OpenBody,
    "result": ResultBody,
    "abort": AbortBody,
    "mental.key": MentalKeyBody,
    "mental.shuffle": MentalShuffleBody,
    "mental.shares": MentalSharesBody,
    "mental.reencrypt": MentalReencryptBody,
}


def wire_schemas() -> dict[str, dict[str, Any]]:
    """name -> JSON Schema: envelope, signed charter, transcript header, one per control frame
    and one per body kind."""
    out: dict[str, dict[str, Any]] = {
        "envelope": Envelope.model_json_schema(),
        "signed-charter": SignedCharter.model_json_schema(),
        "transcript-header": TranscriptHeader.model_json_schema(),
        "control.digest": DigestFrame.model_json_schema(),
    }
    for kind, control in CONTROL_MODELS.items():
        out[f"control.{kind}"] = control.model_json_schema()
    for kind, model in BODY_MODELS.items():
        out[f"body.{kind}"] = model.model_json_schema()
    for name, schema in out.items():
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"p2ptarot/protocol/schemas/{name}.json"
    return out


def render(schema: dict[str, Any]) -> str:
    """The checked-in text of a schema file (stable: sorted keys, 2-space indent)."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
