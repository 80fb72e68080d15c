"""The prime-order group: ristretto255 (RFC 9496), through libsodium (``sodium.py``: the library
rbcl bundles, loaded without rbcl's leftover temporary file).

This is the only module that calls libsodium, so the group can be swapped without touching the
protocol code (it was the order-l subgroup of edwards25519 up to protocol version 2; see
spec/PROTOCOL.md, "Group choice", for the measurements behind the switch).

Design choices, each for a reason:

* ristretto255 is a prime-order group of order l with a canonical 32-byte encoding: decoding
  (``crypto_core_ristretto255_is_valid_point``) refuses every off-group string and, with the
  explicit top-bit test below, every non-canonical one (RFC 9496 §4.3.1), in about 10 us; no
  operation has to re-check subgroup membership (edwards25519 needed a multiplication by l at
  every decode *and* inside every variable-base multiplication).
* The libsodium that ``rbcl`` bundles accepts an encoding whose top bit (bit 255) is set and
  treats it as the same element as the encoding without it: two byte strings for one point.
  RFC 9496 requires decoding to refuse it, and the protocol compares keys by their bytes, so
  :meth:`Point.decode` refuses it before asking libsodium (a copied key under a second encoding
  would otherwise pass the "same key" test).
* ``Scalar`` arithmetic uses Python integers mod l: exact, and cheaper than a cffi round trip per
  operation. Only the point operations go to libsodium.
* ``Point`` holds the canonical 32-byte encoding. :meth:`Point.decode` is the *only* way to make
  a point from outside bytes: it validates the encoding and refuses the identity. Results of our
  own arithmetic are trusted and never re-validated.
* The identity (32 zero bytes) exists internally (e.g. ``P - P``, ``0 * P``) but can never be
  decoded from the wire; libsodium refuses it as a multiplication input or output, so it is
  special-cased here.
* Operation counting for benchmarks (:func:`count_ops`) swaps the module-level implementation
  functions, so it costs nothing when off.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import sodium as _sodium

from .encoding import transcript_hash
from .errors import CryptoError, InvalidEncoding
from p2ptarot.i18n.message import tr

ORDER: int = 2**252 + 27742317777372353535851937790883648493
"""l, the order of the group (and of every valid point but the identity)."""

SCALAR_BYTES = 32
POINT_BYTES = 32

_IDENTITY_ENC = bytes(32)


# --- libsodium wrappers (swapped by count_ops) ------------------------------------------------

def _var_mul_raw(k: bytes, p: bytes) -> bytes:
    return _sodium.scalarmult(k, p)


def _base_mul_raw(k: bytes) -> bytes:
    return _sodium.scalarmult_base(k)


def _add_raw(p: bytes, q: bytes) -> bytes:
    return _sodium.add(p, q)


def _sub_raw(p: bytes, q: bytes) -> bytes:
    return _sodium.sub(p, q)


def _valid_raw(p: bytes) -> bool:
    return (p != _IDENTITY_ENC and not p[31] & 0x80
            and _sodium.is_valid_point(p))


_var_mul = _var_mul_raw
_base_mul = _base_mul_raw
_add = _add_raw
_sub = _sub_raw
_valid = _valid_raw


@dataclass
class OpCounts:
    """How many group operations ran inside a :func:`count_ops` block."""

    var_mul: int = 0
    base_mul: int = 0
    add: int = 0
    validate: int = 0


@contextmanager
def count_ops() -> Iterator[OpCounts]:
    """Count libsodium point operations in this block (benchmarks only: one block at a time;
    the counters take a lock, as a shuffle proof is checked on two threads)."""
    global _var_mul, _base_mul, _add, _sub, _valid
    counts = OpCounts()
    lock = threading.Lock()

    def var_mul(k: bytes, p: bytes) -> bytes:
        with lock:
            counts.var_mul += 1
        return _var_mul_raw(k, p)

    def base_mul_(k: bytes) -> bytes:
        with lock:
            counts.base_mul += 1
        return _base_mul_raw(k)

    def add(p: bytes, q: bytes) -> bytes:
        with lock:
            counts.add += 1
        return _add_raw(p, q)

    def sub(p: bytes, q: bytes) -> bytes:
        with lock:
            counts.add += 1
        return _sub_raw(p, q)

    def valid(p: bytes) -> bool:
        with lock:
            counts.validate += 1
        return _valid_raw(p)

    saved = (_var_mul, _base_mul, _add, _sub, _valid)
    _var_mul, _base_mul, _add, _sub, _valid = var_mul, base_mul_, add, sub, valid
    try:
        yield counts
    finally:
        _var_mul, _base_mul, _add, _sub, _valid = saved


# --- scalars ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Scalar:
    """An integer in [0, l). The constructor range-checks and never reduces."""

    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise TypeError("Scalar value must be an int")
        if not 0 <= self.value < ORDER:
            raise CryptoError("scalar out of range [0, l)")

    @classmethod
    def from_int(cls, v: int) -> Scalar:
        """Reduce any integer mod l."""
        return cls(v % ORDER)

    @classmethod
    def random(cls) -> Scalar:
        """Uniform nonzero scalar from the OS CSPRNG."""
        return cls(secrets.randbelow(ORDER - 1) + 1)

    @classmethod
    def decode(cls, b: bytes) -> Scalar:
        """Strict: exactly 32 bytes little-endian and < l (libsodium would silently reduce)."""
        if not isinstance(b, (bytes, bytearray)) or len(b) != SCALAR_BYTES:
            raise InvalidEncoding(tr("{what}: expected {size} bytes", what="scalar", size=32))
        v = int.from_bytes(b, "little")
        if v >= ORDER:
            raise InvalidEncoding(tr("scalar: not reduced (>= l)"))
        return cls(v)

    def encode(self) -> bytes:
        return self.value.to_bytes(SCALAR_BYTES, "little")

    def __add__(self, other: Scalar) -> Scalar:
        if not isinstance(other, Scalar):
            return NotImplemented
        return Scalar((self.value + other.value) % ORDER)

    def __sub__(self, other: Scalar) -> Scalar:
        if not isinstance(other, Scalar):
            return NotImplemented
        return Scalar((self.value - other.value) % ORDER)

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, Scalar):
            return Scalar(self.value * other.value % ORDER)
        if isinstance(other, Point):
            return other._mul(self)
        return NotImplemented

    def __neg__(self) -> Scalar:
        return Scalar(-self.value % ORDER)

    def inverse(self) -> Scalar:
        if self.value == 0:
            raise CryptoError("scalar: zero has no inverse")
        return Scalar(pow(self.value, -1, ORDER))

    def __int__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Scalar({self.value:#x})"


# --- points ---------------------------------------------------------------------------------------

class Point:
    """An element of the prime-order subgroup, held as its canonical 32-byte encoding.

    Build one with :meth:`decode` (untrusted bytes) or from arithmetic; ``Point(...)`` is refused
    so that no unvalidated outside bytes can become a point by accident.
    """

    __slots__ = ("_enc",)
    _enc: bytes

    def __init__(self, *args: object) -> None:
        raise TypeError("use Point.decode() for bytes, or group arithmetic")

    @classmethod
    def _trusted(cls, enc: bytes) -> Point:
        """Wrap an encoding produced by our own libsodium calls (no validation: speed)."""
        p = object.__new__(cls)
        object.__setattr__(p, "_enc", enc)
        return p

    @classmethod
    def decode(cls, b: bytes) -> Point:
        """Strict decoding of a point received from anyone else."""
        if not isinstance(b, (bytes, bytearray)) or len(b) != POINT_BYTES:
            raise InvalidEncoding(tr("{what}: expected {size} bytes", what="point", size=32))
        b = bytes(b)
        if not _valid(b):
            raise InvalidEncoding(tr("point: not the canonical encoding of a non-identity "
                                     "ristretto255 element"))
        return cls._trusted(b)

    def encode(self) -> bytes:
        return self._enc

    @property
    def is_identity(self) -> bool:
        return self._enc == _IDENTITY_ENC

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Point is immutable")

    def __add__(self, other: Point) -> Point:
        if not isinstance(other, Point):
            return NotImplemented
        return Point._trusted(_add(self._enc, other._enc))

    def __sub__(self, other: Point) -> Point:
        if not isinstance(other, Point):
            return NotImplemented
        return Point._trusted(_sub(self._enc, other._enc))

    def __neg__(self) -> Point:
        return Point._trusted(_sub(_IDENTITY_ENC, self._enc))

    def _mul(self, k: Scalar) -> Point:
        if k.value == 0 or self._enc == _IDENTITY_ENC:
            return IDENTITY
        if self._enc == _G_ENC:
            return Point._trusted(_base_mul(k.encode()))
        return Point._trusted(_var_mul(k.encode(), self._enc))

    def __mul__(self, k: Scalar) -> Point:
        if not isinstance(k, Scalar):
            return NotImplemented
        return self._mul(k)

    def __rmul__(self, k: Scalar) -> Point:
        if not isinstance(k, Scalar):
            return NotImplemented
        return self._mul(k)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and self._enc == other._enc

    def __hash__(self) -> int:
        return hash(self._enc)

    def __repr__(self) -> str:
        return f"Point({self._enc.hex()[:16]}…)"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Point._trusted, (self._enc,))


_G_ENC = _base_mul_raw((1).to_bytes(32, "little"))
G: Point = Point._trusted(_G_ENC)
"""The ristretto255 generator (the image of the edwards25519 base point)."""
IDENTITY: Point = Point._trusted(_IDENTITY_ENC)
"""The neutral element: internal only (never accepted by :meth:`Point.decode`)."""


def base_mul(k: Scalar) -> Point:
    """k·G through libsodium's fixed-base table (~5x faster than a variable-base mult)."""
    if k.value == 0:
        return IDENTITY
    return Point._trusted(_base_mul(k.encode()))


def point_sum(points: list[Point] | tuple[Point, ...]) -> Point:
    """Sum of points (IDENTITY for none)."""
    if not points:
        return IDENTITY
    acc = points[0]._enc
    for p in points[1:]:
        acc = _add(acc, p._enc)
    return Point._trusted(acc)


def multi_mul(scalars: list[Scalar], points: list[Point]) -> Point:
    """Sum of k_i·P_i (one libsodium mult per term; no multi-exponentiation available)."""
    if len(scalars) != len(points):
        raise ValueError("multi_mul: length mismatch")
    acc: bytes | None = None
    for k, p in zip(scalars, points):
        term = p._mul(k)._enc
        if term == _IDENTITY_ENC:
            continue
        acc = term if acc is None else _add(acc, term)
    return IDENTITY if acc is None else Point._trusted(acc)


# --- hashing into the group -----------------------------------------------------------------

def hash_to_scalar(domain: str, *parts: bytes) -> Scalar:
    """SHA-512 of lp(domain, *parts), read little-endian, reduced mod l (wide reduction)."""
    return Scalar(int.from_bytes(transcript_hash(domain, *parts), "little") % ORDER)


def hash_to_point(domain: str, *parts: bytes) -> Point:
    """A point nobody knows the discrete log of: ristretto255's one-way map (``from_hash``, two
    Elligator maps added) of SHA-512(lp(domain, ctr_8be, *parts)), all 64 bytes, with
    ctr = 0, 1, ... until the result is not the identity (ctr > 0 essentially never)."""
    ctr = 0
    while True:
        digest = transcript_hash(domain, ctr.to_bytes(8, "big"), *parts)
        enc = _sodium.from_hash(digest)
        if enc != _IDENTITY_ENC:
            return Point._trusted(enc)
        ctr += 1


@lru_cache(maxsize=64)
def _generators(domain: str, n: int) -> tuple[Point, ...]:
    return tuple(hash_to_point(domain, i.to_bytes(8, "big")) for i in range(n))


def generators(domain: str, n: int) -> list[Point]:
    """n independent generators: generator i = hash_to_point(domain, i as 8-byte big-endian).

    Prefix-stable (the first k of n are generators(domain, k)) and cached per (domain, n).
    """
    if n < 0:
        raise ValueError("generators: n must be >= 0")
    return list(_generators(domain, n))
