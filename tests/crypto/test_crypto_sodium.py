"""The ctypes binding (p2ptarot.crypto.sodium): byte for byte what rbcl computes, with no file left.

rbcl itself runs only in a child process whose TMPDIR is a directory of this test's own, so its
leftover library copy is both shown (the reason for the binding) and cleaned up with tmp_path.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from p2ptarot.crypto import sodium
from p2ptarot.crypto.group import ORDER

from .support import BAD_ENCS, IDENTITY_ENC

_RBCL_CHILD = r"""
import json, sys
import rbcl
req = json.load(sys.stdin)
h = bytes.fromhex
out = {
    "from_hash": [rbcl.crypto_core_ristretto255_from_hash(h(x)).hex() for x in req["hashes"]],
    "base": [rbcl.crypto_scalarmult_ristretto255_base(h(k)).hex() for k in req["scalars"]],
    "valid": [bool(rbcl.crypto_core_ristretto255_is_valid_point(h(p))) for p in req["encs"]],
}
pts = [h(p) for p in out["from_hash"]]
ks = [h(k) for k in req["scalars"]]
out["mul"] = [rbcl.crypto_scalarmult_ristretto255(k, p).hex() for k, p in zip(ks, pts)]
out["add"] = [rbcl.crypto_core_ristretto255_add(p, q).hex() for p, q in zip(pts, pts[1:])]
out["sub"] = [rbcl.crypto_core_ristretto255_sub(p, q).hex() for p, q in zip(pts, pts[1:])]
json.dump(out, sys.stdout)
"""


def _inputs(n: int) -> tuple[list[bytes], list[bytes]]:
    hashes = [hashlib.sha512(b"sodium-binding" + bytes([i])).digest() for i in range(n)]
    scalars = [(int.from_bytes(hashlib.sha512(b"k" + bytes([i])).digest(), "little") % ORDER)
               .to_bytes(32, "little") for i in range(n)]
    scalars[0] = (1).to_bytes(32, "little")
    scalars[1] = (ORDER - 1).to_bytes(32, "little")
    return hashes, scalars


def test_binding_matches_rbcl_byte_for_byte(tmp_path: Path) -> None:
    hashes, scalars = _inputs(24)
    points = [sodium.from_hash(x) for x in hashes]
    encs = [*points, *BAD_ENCS.values(), IDENTITY_ENC, points[0][:31] + bytes([points[0][31] | 0x80])]
    request = {"hashes": [x.hex() for x in hashes], "scalars": [k.hex() for k in scalars],
               "encs": [e.hex() for e in encs]}
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _RBCL_CHILD], input=json.dumps(request),
                          capture_output=True, text=True, env=env, check=True)
    theirs = json.loads(done.stdout)
    assert theirs["from_hash"] == [p.hex() for p in points]
    assert theirs["base"] == [sodium.scalarmult_base(k).hex() for k in scalars]
    assert theirs["valid"] == [sodium.is_valid_point(e) for e in encs]
    assert theirs["valid"][-2:] == [True, True]  # libsodium takes the identity and bit 255 set
    assert theirs["mul"] == [sodium.scalarmult(k, p).hex() for k, p in zip(scalars, points)]
    assert theirs["add"] == [sodium.add(p, q).hex() for p, q in zip(points, points[1:])]
    assert theirs["sub"] == [sodium.sub(p, q).hex() for p, q in zip(points, points[1:])]
    # what the binding avoids: rbcl left its 2.8 MB library copy in the child's TMPDIR
    assert [f.stat().st_size > 1_000_000 for f in tmp_path.iterdir()] == [True]


def test_binding_refuses_wrong_sizes_and_identity_results() -> None:
    p = sodium.from_hash(bytes(64))
    for bad in (b"", bytes(31), bytes(33), bytearray(32)):
        with pytest.raises(TypeError):
            sodium.add(p, bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            sodium.scalarmult(bytes(32), bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sodium.from_hash(bytes(32))
    with pytest.raises(ValueError):
        sodium.scalarmult_base(bytes(32))  # 0·G is the identity
    with pytest.raises(ValueError):
        sodium.scalarmult(ORDER.to_bytes(32, "little"), p)  # l·P is the identity
    with pytest.raises(ValueError):
        sodium.add(p, BAD_ENCS["s=-1"])


def test_loading_writes_no_file(tmp_path: Path) -> None:
    """A fresh interpreter loading the binding leaves its TMPDIR empty (rbcl's would not)."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    code = ("import sys; from p2ptarot.crypto import sodium; "
            "assert 'rbcl' not in sys.modules; print(sodium.scalarmult_base((7).to_bytes(32, 'little')).hex())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          check=True)
    assert len(done.stdout.strip()) == 64
    assert list(tmp_path.iterdir()) == []
