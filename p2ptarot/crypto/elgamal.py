"""Additive ElGamal over the group: the ciphertexts the mental-poker deck is made of.

A ciphertext of the point M under joint key H is (a, b) = (r·G, M + r·H). Anyone can re-randomise
it without knowing M (:func:`reencrypt`); with the decryption shares d_i = x_i·a of every key
holder, M = b - sum(d_i) (:func:`combine`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidEncoding
from .group import POINT_BYTES, Point, Scalar, base_mul, point_sum
from p2ptarot.i18n.message import tr

CIPHERTEXT_BYTES = 2 * POINT_BYTES


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """An ElGamal pair; ``a`` carries the randomness, ``b`` the message."""

    a: Point
    b: Point

    def encode(self) -> bytes:
        """64 bytes: a then b."""
        return self.a.encode() + self.b.encode()

    @classmethod
    def decode(cls, data: bytes) -> Ciphertext:
        """Strict: exactly 64 bytes, both halves valid points (see :meth:`Point.decode`)."""
        if not isinstance(data, (bytes, bytearray)) or len(data) != CIPHERTEXT_BYTES:
            raise InvalidEncoding(tr("{what}: expected {size} bytes", what="ciphertext", size=64))
        return cls(Point.decode(bytes(data[:POINT_BYTES])), Point.decode(bytes(data[POINT_BYTES:])))


def encrypt(m: Point, H: Point, r: Scalar) -> Ciphertext:
    """(r·G, M + r·H)."""
    return Ciphertext(base_mul(r), m + H * r)


def reencrypt(c: Ciphertext, H: Point, r: Scalar) -> Ciphertext:
    """(a + r·G, b + r·H): same plaintext, fresh-looking ciphertext."""
    return Ciphertext(c.a + base_mul(r), c.b + H * r)


def combine(c: Ciphertext, shares: list[Point]) -> Point:
    """b - sum(shares): the plaintext once every key holder's share d_i = x_i·a is in."""
    if not shares:
        return c.b
    return c.b - point_sum(shares)


def decrypt(c: Ciphertext, x: Scalar) -> Point:
    """b - x·a for a single holder of the whole key (tests, audit with all x_i summed)."""
    return c.b - c.a * x
