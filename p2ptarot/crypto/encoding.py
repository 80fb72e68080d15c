"""Unambiguous byte encodings for hashing.

Every Fiat–Shamir challenge, commitment and hash-to-curve input goes through :func:`lp`, so two
different tuples of byte strings can never hash the same (no concatenation ambiguity). The hash is
SHA-512 (hashlib): its 64-byte output gives an unbiased scalar after wide reduction mod l.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

_LEN_BYTES = 8


def lp(*parts: bytes) -> bytes:
    """Length-prefixed concatenation: for each part, 8-byte big-endian length then the bytes."""
    out = bytearray()
    for part in parts:
        if not isinstance(part, (bytes, bytearray, memoryview)):
            raise TypeError(f"lp() takes bytes, got {type(part).__name__}")
        out += len(part).to_bytes(_LEN_BYTES, "big")
        out += part
    return bytes(out)


def transcript_hash(domain: str, *parts: bytes) -> bytes:
    """SHA-512 over ``lp(domain_utf8, *parts)``: the domain label is always the first part."""
    return hashlib.sha512(lp(domain.encode("utf-8"), *parts)).digest()


def b64url(data: bytes) -> str:
    """Unpadded base64url: the wire form of bytes in every layer."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: object) -> bytes:
    """Strict inverse of :func:`b64url`: one canonical text per byte string, so signed JSON
    cannot be malleated. Raises ValueError (callers wrap it in their own error type)."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("expected a base64url string")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError("bad base64url") from exc
    if b64url(raw) != text:
        raise ValueError("non-canonical base64url")
    return raw
