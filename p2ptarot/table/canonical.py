"""Canonical JSON: the one byte string that is hashed and signed for every record.

Rules (spec/PROTOCOL.md §2): UTF-8, object keys sorted by code point, no insignificant whitespace,
integers only (no floats, no NaN), strings as JSON strings with non-ASCII kept as UTF-8, booleans
and null allowed, bytes carried as unpadded base64url strings by the layers above. Decoding is
strict: a record whose bytes are not exactly the canonical encoding of what they decode to is
refused, so a signed record has one and only one byte form.
"""

from __future__ import annotations

from p2ptarot.crypto.encoding import b64url, unb64url

import json
from typing import Any
from p2ptarot.i18n.message import tr

MAX_DEPTH = 32
#: integers longer than this (sign excluded) are refused: no wire field needs more, and Python
#: refuses to convert more than 4,300 digits anyway (a ValueError that must not escape)
MAX_INT_DIGITS = 100


class CanonicalError(ValueError):
    """Bytes that are not canonical JSON, or a value that cannot be encoded canonically."""


def _check(value: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise CanonicalError(tr("nesting too deep"))
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:  # a lone surrogate has no UTF-8 form
                raise CanonicalError(tr("string holds a lone UTF-16 surrogate (not Unicode text)")) from exc
        return
    if isinstance(value, int):
        if abs(value) >= _INT_BOUND:
            raise CanonicalError(tr("integer of more than {digits} digits", digits=MAX_INT_DIGITS))
        return
    if isinstance(value, float):
        raise CanonicalError(tr("floats are not allowed in canonical JSON (integers only)"))
    # Containers: the items every record is made of — ASCII strings (base64 of every point and
    # proof, nearly all of a record), plain integers in range, booleans and null — are accepted
    # here without a call of their own (163 000 calls per peer and game before the strings, half
    # the rest before the others); anything else goes through the full check above
    if depth + 1 > MAX_DEPTH:
        if isinstance(value, (list, tuple, dict)) and value:
            raise CanonicalError(tr("nesting too deep"))
    # (exact types only, inline: subclasses, and non-ASCII strings, take the full check)
    if isinstance(value, (list, tuple)):
        for item in value:
            t = type(item)
            if t is str:
                if item.isascii():
                    continue
            elif t is int:
                if -_INT_BOUND < item < _INT_BOUND:
                    continue
            elif item is None or t is bool:
                continue
            _check(item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if type(key) is not str:
                if not isinstance(key, str):
                    raise CanonicalError(tr("object keys must be strings"))
                _check(key, depth + 1)
            elif not key.isascii():
                _check(key, depth + 1)
            t = type(item)
            if t is str:
                if item.isascii():
                    continue
            elif t is int:
                if -_INT_BOUND < item < _INT_BOUND:
                    continue
            elif item is None or t is bool:
                continue
            _check(item, depth + 1)
        return
    raise CanonicalError(tr("cannot encode {name} canonically", name=type(value).__name__))


def encode(value: Any) -> bytes:
    """The canonical encoding of a JSON value."""
    _check(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


_INT_BOUND = 10 ** MAX_INT_DIGITS


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise CanonicalError(tr("integer of more than {digits} digits", digits=MAX_INT_DIGITS))
    return int(text)


def _no_floats(text: str) -> float:
    raise CanonicalError(tr("floats are not allowed in canonical JSON (integers only)"))


def _no_constants(name: str) -> Any:
    raise CanonicalError(tr("{name} is not JSON", name=name))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise CanonicalError(tr("duplicate key {key}", key=repr(key)))
        out[key] = value
    return out


def decode(data: bytes, *, max_size: int | None = None) -> Any:
    """Parse canonical JSON strictly (size, UTF-8, floats, integer size, duplicate keys, lone
    surrogates, nesting, exact re-encoding). Anything else raises `CanonicalError`, never another
    exception: these bytes come from strangers."""
    if not isinstance(data, (bytes, bytearray)):
        raise CanonicalError(tr("a record is bytes"))
    if max_size is not None and len(data) > max_size:
        raise CanonicalError(tr("record of {size} bytes exceeds the limit of {limit}",
                                size=len(data), limit=max_size))
    try:
        text = data.decode("utf-8")
        value = json.loads(text, parse_float=_no_floats, parse_int=_bounded_int,
                           parse_constant=_no_constants, object_pairs_hook=_unique_keys)
    except CanonicalError:
        raise
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError too
        raise CanonicalError(tr("not JSON: {detail}", detail=str(exc)[:200])) from exc
    if encode(value) != data:
        raise CanonicalError(tr("not in canonical form (key order, whitespace or escapes)"))
    return value


b64 = b64url


def unb64(text: Any, what: str = "bytes", size: int | None = None) -> bytes:
    """Strict inverse of `b64`; `size` checks the decoded length."""
    try:
        raw = unb64url(text)
    except ValueError as exc:
        raise CanonicalError(tr("{label}: {detail}", label=what, detail=exc)) from exc
    if size is not None and len(raw) != size:
        raise CanonicalError(tr("{what}: expected {size} bytes, got {got}",
                                what=what, size=size, got=len(raw)))
    return raw
