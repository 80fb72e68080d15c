"""libsodium's ristretto255 functions through ctypes, loaded without leaving a file behind.

The library is the one the ``rbcl`` package ships (the same bytes, so every vector is unchanged),
but ``import rbcl`` is never run: it writes that library to a temporary file at every import and
never deletes it (2.8 MB per process), and it also imports ``doctest``. Here the library's bytes
are read out of rbcl's ``_sodium`` module without executing it and handed to the dynamic loader from
an anonymous in-memory file (Linux ``memfd_create``): nothing ever reaches the disk. Where there
is no ``memfd_create``, a temporary file is written, loaded and unlinked at once.

Every call goes through a ``ctypes.CDLL`` function, which releases the GIL: two threads can verify
two proofs on two cores.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

BYTES = 32
HASH_BYTES = 64

_HEX_START = b"bytes.fromhex('"


def _library_chunks(chunk: int = 1 << 20) -> Iterator[bytes]:
    """The shared object rbcl bundles, hex-decoded piece by piece from its module source (never
    imported, never held whole: the peak memory stays a chunk above the library itself)."""
    spec = importlib.util.find_spec("rbcl")
    if spec is None or spec.origin is None:
        raise ImportError("p2ptarot needs the rbcl package (its bundled libsodium)")
    with open(Path(spec.origin).parent / "_sodium.py", "rb") as f:
        head = f.read(1 << 16)
        start = head.find(_HEX_START)
        if start < 0:
            raise ImportError("rbcl: no bundled libsodium found in its _sodium module")
        f.seek(start + len(_HEX_START))
        while True:
            piece = f.read(chunk)
            end = piece.find(b"'")
            if end >= 0:
                yield bytes.fromhex(piece[:end].decode("ascii"))
                return
            if not piece or len(piece) % 2:
                raise ImportError("rbcl: the libsodium bundled in its _sodium module is cut short")
            yield bytes.fromhex(piece.decode("ascii"))


def _write_all(fd: int, chunks: Iterator[bytes]) -> None:
    for data in chunks:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]


def _load() -> ctypes.CDLL:
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("libsodium", os.MFD_CLOEXEC)
        try:
            _write_all(fd, _library_chunks())
            return ctypes.CDLL(f"/proc/self/fd/{fd}")
        finally:
            os.close(fd)
    handle, path = tempfile.mkstemp(suffix=".so")  # pragma: no cover - not Linux
    try:  # pragma: no cover
        _write_all(handle, _library_chunks())
        os.close(handle)
        return ctypes.CDLL(path)
    finally:  # pragma: no cover
        os.unlink(path)


def _bind(lib: ctypes.CDLL) -> None:
    p = ctypes.c_char_p
    sigs: dict[str, list[type]] = {
        "crypto_scalarmult_ristretto255": [p, p, p],
        "crypto_scalarmult_ristretto255_base": [p, p],
        "crypto_core_ristretto255_add": [p, p, p],
        "crypto_core_ristretto255_sub": [p, p, p],
        "crypto_core_ristretto255_is_valid_point": [p],
        "crypto_core_ristretto255_from_hash": [p, p],
    }
    for name, args in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = ctypes.c_int
    if lib.sodium_init() < 0:
        raise ImportError("libsodium failed to initialise")
    if (lib.crypto_core_ristretto255_bytes() != BYTES
            or lib.crypto_core_ristretto255_hashbytes() != HASH_BYTES
            or lib.crypto_scalarmult_ristretto255_scalarbytes() != BYTES):
        raise ImportError("libsodium: unexpected ristretto255 sizes")


_lib = _load()
_bind(_lib)
_Out = ctypes.c_char * BYTES  # a fresh output buffer per call (threads share none): the array
# type made once, 1.1 us less per call than ctypes.create_string_buffer's checks (issue 36)
_c_mul = _lib.crypto_scalarmult_ristretto255
_c_base = _lib.crypto_scalarmult_ristretto255_base
_c_add = _lib.crypto_core_ristretto255_add
_c_sub = _lib.crypto_core_ristretto255_sub
_c_valid = _lib.crypto_core_ristretto255_is_valid_point
_c_from_hash = _lib.crypto_core_ristretto255_from_hash


def _check(b: bytes, n: int = BYTES) -> None:
    if type(b) is not bytes or len(b) != n:
        raise TypeError(f"expected {n} bytes")


def scalarmult(k: bytes, p: bytes) -> bytes:
    """k·P (k read little-endian, top bit ignored as libsodium does); refuses an identity result."""
    _check(k)
    _check(p)
    out = _Out()
    if _c_mul(out, k, p) != 0:
        raise ValueError("ristretto255: scalar multiplication gave the identity or a bad point")
    return out.raw


def scalarmult_base(k: bytes) -> bytes:
    """k·G through libsodium's fixed-base table; refuses k = 0 (mod l)."""
    _check(k)
    out = _Out()
    if _c_base(out, k) != 0:
        raise ValueError("ristretto255: base multiplication gave the identity")
    return out.raw


def add(p: bytes, q: bytes) -> bytes:
    _check(p)
    _check(q)
    out = _Out()
    if _c_add(out, p, q) != 0:
        raise ValueError("ristretto255: add of an invalid encoding")
    return out.raw


def sub(p: bytes, q: bytes) -> bytes:
    _check(p)
    _check(q)
    out = _Out()
    if _c_sub(out, p, q) != 0:
        raise ValueError("ristretto255: sub of an invalid encoding")
    return out.raw


def is_valid_point(p: bytes) -> bool:
    """libsodium's test: on the group, canonical bar bit 255 (group.py tests that bit)."""
    _check(p)
    return bool(_c_valid(p) == 1)


def from_hash(h: bytes) -> bytes:
    """ristretto255's one-way map of 64 bytes (RFC 9496 §4.3.4)."""
    _check(h, HASH_BYTES)
    out = _Out()
    _c_from_hash(out, h)
    return out.raw
