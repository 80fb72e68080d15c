"""Pydantic models of every envelope body the table layer itself defines.

Mental-poker bodies (keys, shuffles, shares, re-encryptions, audit secrets) are defined by
`p2ptarot.mental.messages` and mirrored here for the JSON Schemas in `protocol/`. These models are
the wire boundary: every received body is validated against its model before anything else.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .charter import B64

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)


class MoveBody(BaseModel):
    """A game move (the game's own JSON form) and the decryption shares it carries (`reveals`)."""

    model_config = _STRICT
    move: dict[str, Any]
    shares: list[dict[str, Any]] = Field(max_length=0, description="always empty: the shares a "
                                         "move obliges travel in the deck steps that follow it")


class CommitBody(BaseModel):
    """Commit round of a joint random draw: H(label, context, salt, value)."""

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


class AbortBody(BaseModel):
    """A seat's signed statement that it stopped playing, and why (PROTOCOL §8)."""

    model_config = _STRICT
    blame: int | None = Field(ge=0, le=11, description="the seat the signer found at fault, or "
                              "null when it stopped without convicting anyone; never adopted by "
                              "others as such: they re-check the evidence")
    reason: str = Field(max_length=500)
    step: int = Field(ge=0, description="the step of the offending message, or where the fault "
                      "was detected when there is none")
    evidence: list[dict[str, Any]] = Field(max_length=2, description="the offending signed "
                                           "envelope(s) (two for an equivocation), or none")
