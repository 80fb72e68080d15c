"""Strict JSON-friendly field codecs shared by the mental messages.

Decoding is strict on purpose: one canonical form per value (unpadded base64url that re-encodes
to itself, plain ints, exact key sets), so a message has exactly one dict form and the table's
signed canonical JSON cannot be malleated.
"""

from __future__ import annotations

from p2ptarot.crypto.encoding import b64url, unb64url

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from p2ptarot.crypto.errors import CryptoError

from .errors import MessageDecodeError
from p2ptarot.i18n.message import tr

T = TypeVar("T")

MAX_INT = 2**32 - 1
MAX_ITEMS = 4096
MAX_DECK_ID = 64


b64 = b64url


def unb64(value: Any, field: str) -> bytes:
    """Strict inverse of :func:`b64` (rejects padding, other alphabets, non-canonical tails)."""
    try:
        return unb64url(value)
    except ValueError as exc:
        raise MessageDecodeError(tr("{label}: {detail}", label=field, detail=exc)) from exc


def decode_bytes(value: Any, field: str, decoder: Callable[[bytes], T]) -> T:
    """base64url then a strict crypto decoder; any failure is a MessageDecodeError."""
    raw = unb64(value, field)
    try:
        return decoder(raw)
    except (CryptoError, ValueError, TypeError) as exc:
        raise MessageDecodeError(tr("{label}: {detail}", label=field, detail=exc)) from exc


def get_int(d: Mapping[str, Any], field: str, upper: int = MAX_INT) -> int:
    """A plain (non-bool) int in [0, upper]."""
    v = d[field]
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= upper:
        raise MessageDecodeError(tr("{field}: expected an integer in [0, {upper}]",
                                    field=field, upper=upper))
    return v


def get_str(d: Mapping[str, Any], field: str, max_len: int = MAX_DECK_ID) -> str:
    v = d[field]
    if not isinstance(v, str) or not 0 < len(v) <= max_len:
        raise MessageDecodeError(tr("{field}: expected a string of 1..{max} characters",
                                    field=field, max=max_len))
    return v


def get_list(d: Mapping[str, Any], field: str, max_len: int = MAX_ITEMS) -> list[Any]:
    v = d[field]
    if not isinstance(v, list) or len(v) > max_len:
        raise MessageDecodeError(tr("{field}: expected a list of at most {max} items",
                                    field=field, max=max_len))
    return v


def check_keys(d: Any, expected: frozenset[str], what: str) -> Mapping[str, Any]:
    """The dict must have exactly these keys (no extras: one canonical form)."""
    if not isinstance(d, Mapping):
        raise MessageDecodeError(tr("{what}: expected an object", what=what))
    keys = set(d.keys())
    if keys != expected:
        missing = sorted(expected - keys)
        extra = sorted(str(k) for k in keys - expected)
        raise MessageDecodeError(tr("{what}: missing keys {missing}, unexpected keys {extra}",
                                    what=what, missing=missing, extra=extra))
    return d
