"""The table charter: what every seat agrees to before the first card moves.

Its canonical hash is the table id that every later message names, so a message can never be
replayed at another table, with other seats, another game or other options.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.signing import verify_signature

from . import canonical
from .names import is_clean_name, printable

B64 = r"^[A-Za-z0-9_-]*$"
MAX_SEATS = 12
#: the longest stand-in grace a charter may set (seconds); 0 means "never"
MAX_STAND_IN_AFTER = 3600


class SeatEntry(BaseModel):
    """One seat: its player's long-term Ed25519 key, display name and LAN address."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    key: str = Field(pattern=B64, min_length=43, max_length=43, description="Ed25519 public key, base64url")
    name: str = Field(min_length=1, max_length=40)
    address: str = Field(max_length=200, description="ws://host:port of the peer, '' if unknown")

    @field_validator("key")
    @classmethod
    def _canonical_key(cls, key: str) -> str:
        canonical.unb64(key, "seat key", 32)  # a CanonicalError is a ValueError: refused here
        return key

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: str) -> str:
        if not is_clean_name(name):
            raise ValueError("a seat name is printable text, single-spaced, 1 to 40 characters")
        return name

    @field_validator("address")
    @classmethod
    def _printable_address(cls, address: str) -> str:
        if printable(address) != address:
            raise ValueError("a seat address is printable text")
        return address


class Charter(BaseModel):
    """Game, variant, options, seats, protocol version and a fresh nonce."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    # every field is required: a signed charter has one byte form, and no reader fills in a
    # value the signers did not hash (the host's --move-timeout default, 600, is app.clock's)
    protocol: int = Field(ge=1)
    game: str = Field(min_length=1, max_length=40)
    variant: str | None = Field(max_length=40, description="null for the game's default rules")
    options: dict[str, int | str | bool]
    seats: list[SeatEntry] = Field(min_length=2, max_length=MAX_SEATS)
    nonce: str = Field(pattern=B64, min_length=43, max_length=43)
    timeout: int = Field(ge=1, le=86400, description="the table's limit: seconds any step may "
                         "wait on a seat (its move, its cryptographic message, its link coming "
                         "back) before the table is abandoned, blaming nobody: silence never "
                         "convicts (PROTOCOL §3, §8)")
    stand_in_after: int = Field(
        ge=0, le=MAX_STAND_IN_AFTER,
        description="table policy: seconds a human seat may leave its turn unanswered before its "
                    "own peer lets a bot play for it (0 = never); shorter than `timeout`")

    @model_validator(mode="after")
    def _stand_in_before_blame(self) -> "Charter":
        if self.stand_in_after and self.stand_in_after >= self.timeout:
            raise ValueError("stand_in_after must be shorter than the move timeout (or 0)")
        return self

    @field_validator("seats")
    @classmethod
    def _distinct_keys(cls, seats: list[SeatEntry]) -> list[SeatEntry]:
        keys = [s.key for s in seats]
        if len(set(keys)) != len(keys):
            raise ValueError("two seats share one identity key")
        return seats

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    def encoded(self) -> bytes:
        return canonical.encode(self.to_json())

    @property
    def table_id(self) -> bytes:
        """SHA-256 of the canonical charter."""
        return hashlib.sha256(b"p2ptarot/charter\x00" + self.encoded()).digest()

    def seat_key(self, seat: int) -> bytes:
        return canonical.unb64(self.seats[seat].key, "seat key", 32)

    def seat_of(self, key: bytes) -> int | None:
        text = canonical.b64(key)
        for i, s in enumerate(self.seats):
            if s.key == text:
                return i
        return None

    def check_version(self) -> None:
        if self.protocol != PROTOCOL_VERSION:
            raise ValueError(f"table speaks protocol {self.protocol}, this build speaks {PROTOCOL_VERSION}")


def charter_signing_bytes(table_id: bytes) -> bytes:
    return b"p2ptarot/charter-signature\x00" + table_id


class SignedCharter(BaseModel):
    """The charter plus one signature of its table id per seat, in seat order."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    charter: Charter
    signatures: list[str]

    def verify(self) -> None:
        """Every seat signed this exact charter; raises ValueError naming the first bad seat."""
        c = self.charter
        c.check_version()
        if len(self.signatures) != len(c.seats):
            raise ValueError("charter: one signature per seat is required")
        message = charter_signing_bytes(c.table_id)
        for seat, sig in enumerate(self.signatures):
            try:
                verify_signature(c.seat_key(seat), message, canonical.unb64(sig, "signature", 64))
            except (CryptoError, canonical.CanonicalError) as exc:
                raise ValueError(f"charter: bad signature of seat {seat}: {exc}") from exc
