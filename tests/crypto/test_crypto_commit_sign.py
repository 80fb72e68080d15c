"""Hash commitments and Ed25519 identities."""

from __future__ import annotations

import re

import pytest

from p2ptarot.crypto.commitment import check_commitment, commit
from p2ptarot.crypto.errors import CommitmentError, CryptoError, InvalidEncoding, SignatureError
from p2ptarot.crypto.signing import Identity, fingerprint, verify_signature


def test_commitment_opens() -> None:
    digest, salt = commit("coin", b"\x01\x02")
    assert len(digest) == 32 and len(salt) == 32
    check_commitment("coin", digest, b"\x01\x02", salt)
    assert commit("coin", b"\x01\x02", salt) == (digest, salt)  # deterministic given the salt


def test_commitment_is_hiding_by_salt() -> None:
    assert commit("coin", b"v")[0] != commit("coin", b"v")[0]


@pytest.mark.parametrize("change", ["value", "salt", "label", "digest"])
def test_commitment_wrong_opening_rejected(change: str) -> None:
    digest, salt = commit("eleusis/rule", b"odd after even")
    label, value = "eleusis/rule", b"odd after even"
    if change == "value":
        value = b"odd after odd"
    elif change == "salt":
        salt = bytes([salt[0] ^ 1]) + salt[1:]
    elif change == "label":
        label = "coin"
    else:
        digest = bytes([digest[0] ^ 1]) + digest[1:]
    with pytest.raises(CommitmentError):
        check_commitment(label, digest, value, salt)


def test_commitment_sizes_strict() -> None:
    digest, salt = commit("coin", b"v")
    with pytest.raises(InvalidEncoding):
        commit("coin", b"v", salt[:-1])
    with pytest.raises(InvalidEncoding):
        check_commitment("coin", digest[:-1], b"v", salt)
    with pytest.raises(InvalidEncoding):
        check_commitment("coin", digest, b"v", salt + b"\0")


def test_identity_sign_verify_and_seed_round_trip() -> None:
    me = Identity.generate()
    sig = me.sign(b"hello")
    assert len(sig) == 64 and len(me.public_bytes) == 32
    verify_signature(me.public_bytes, b"hello", sig)
    again = Identity.from_seed(me.seed())
    assert again.public_bytes == me.public_bytes
    assert again.sign(b"hello") == sig  # Ed25519 is deterministic


def test_bad_signatures_rejected() -> None:
    me, other = Identity.generate(), Identity.generate()
    sig = me.sign(b"msg")
    with pytest.raises(SignatureError):
        verify_signature(me.public_bytes, b"msh", sig)
    with pytest.raises(SignatureError):
        verify_signature(other.public_bytes, b"msg", sig)
    with pytest.raises(CryptoError):
        verify_signature(me.public_bytes, b"msg", bytes([sig[0] ^ 1]) + sig[1:])
    with pytest.raises(InvalidEncoding):
        verify_signature(me.public_bytes, b"msg", sig[:-1])
    with pytest.raises(InvalidEncoding):
        verify_signature(me.public_bytes[:-1], b"msg", sig)
    with pytest.raises(InvalidEncoding):
        Identity.from_seed(b"short")


def test_known_answer_rfc8032_test1() -> None:
    seed = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    me = Identity.from_seed(seed)
    assert me.public_bytes.hex() == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    assert me.sign(b"").hex().startswith("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065")


def test_fingerprint_shape_and_stability() -> None:
    me = Identity.generate()
    fp = fingerprint(me.public_bytes)
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}", fp)
    assert fp == me.fingerprint == fingerprint(bytes(me.public_bytes))
    assert fp != Identity.generate().fingerprint
    with pytest.raises(InvalidEncoding):
        fingerprint(b"\0" * 31)
