"""Schnorr and Chaum–Pedersen proofs: completeness, and rejection of tampered proofs/statements."""

from __future__ import annotations

import pytest
from .support import NEGATIVE_ENCS, NON_SQUARE_ENC, card_point

from p2ptarot.crypto.elgamal import Ciphertext, encrypt, reencrypt
from p2ptarot.crypto.errors import InvalidEncoding, ProofError
from p2ptarot.crypto.group import G, IDENTITY, ORDER, Point, Scalar, base_mul, hash_to_point
from p2ptarot.crypto.proofs import (
    DleqProof,
    SchnorrProof,
    make_share,
    prove_dleq,
    prove_key,
    prove_reencryption,
    verify_dleq,
    verify_key,
    verify_reencryption,
    verify_share,
)

CTX = b"table:abc|epoch:1|seat:2"
ONE = Scalar(1)


def _bump(s: Scalar) -> Scalar:
    return s + ONE


# --- Schnorr -------------------------------------------------------------------------------

def test_schnorr_complete_and_encodes() -> None:
    x = Scalar.random()
    h = base_mul(x)
    proof = prove_key(x, h, CTX)
    verify_key(h, proof, CTX)
    assert SchnorrProof.decode(proof.encode()) == proof
    assert len(proof.encode()) == 64


def test_schnorr_refuses_false_statement() -> None:
    with pytest.raises(ValueError):
        prove_key(Scalar(3), base_mul(Scalar(4)), CTX)


def test_schnorr_tampering_rejected() -> None:
    x = Scalar.random()
    h = base_mul(x)
    proof = prove_key(x, h, CTX)
    other = base_mul(Scalar.random())
    variants = {
        "changed key": (other, proof, CTX),
        "changed c": (h, SchnorrProof(_bump(proof.c), proof.s), CTX),
        "changed s": (h, SchnorrProof(proof.c, _bump(proof.s)), CTX),
        "other seat": (h, proof, CTX + b"3"),
        "copied key (other's proof for own context)": (h, proof, b"table:abc|epoch:1|seat:5"),
        "swapped c,s": (h, SchnorrProof(proof.s, proof.c), CTX),
    }
    for name, (key, prf, ctx) in variants.items():
        with pytest.raises(ProofError, match="schnorr: challenge mismatch"):
            verify_key(key, prf, ctx)
        assert name  # every variant exercised
    with pytest.raises(ProofError, match="identity"):
        verify_key(IDENTITY, proof, CTX)


def test_schnorr_decode_strict() -> None:
    proof = prove_key(ONE, G, CTX)
    enc = proof.encode()
    with pytest.raises(InvalidEncoding, match=">= l"):
        SchnorrProof.decode(enc[:32] + ORDER.to_bytes(32, "little"))
    with pytest.raises(InvalidEncoding, match=">= l"):
        SchnorrProof.decode(b"\xff" * 32 + enc[32:])
    with pytest.raises(InvalidEncoding, match="64 bytes"):
        SchnorrProof.decode(enc[:-1])


# --- generic Chaum–Pedersen ---------------------------------------------------------------------

def test_dleq_complete_and_tampering() -> None:
    x = Scalar.random()
    g2 = hash_to_point("t", b"g2")
    h1, h2 = base_mul(x), g2 * x
    proof = prove_dleq(x, G, h1, g2, h2, CTX)
    verify_dleq(G, h1, g2, h2, proof, CTX)
    assert DleqProof.decode(proof.encode()) == proof
    bad = {
        "h2 for another exponent": (G, h1, g2, g2 * _bump(x), proof, CTX),
        "h1 swapped with h2": (G, h2, g2, h1, proof, CTX),
        "changed c": (G, h1, g2, h2, DleqProof(_bump(proof.c), proof.s), CTX),
        "changed s": (G, h1, g2, h2, DleqProof(proof.c, _bump(proof.s)), CTX),
        "other context": (G, h1, g2, h2, proof, b"other"),
        "other base": (G, h1, hash_to_point("t", b"g3"), h2, proof, CTX),
    }
    for args in bad.values():
        with pytest.raises(ProofError, match="dleq: challenge mismatch"):
            verify_dleq(*args)
    with pytest.raises(ValueError):
        prove_dleq(x, G, h1, g2, g2 * _bump(x), CTX)


# --- decryption shares ---------------------------------------------------------------------------

@pytest.fixture
def share_setup() -> tuple[Scalar, Point, Ciphertext, Point, DleqProof]:
    x = Scalar.random()
    h = base_mul(x)
    H = h + base_mul(Scalar.random())
    c = reencrypt(encrypt(card_point(7), H, ONE), H, Scalar.random())
    d, proof = make_share(x, h, c, CTX)
    return x, h, c, d, proof


def test_share_complete(share_setup: tuple[Scalar, Point, Ciphertext, Point, DleqProof]) -> None:
    x, h, c, d, proof = share_setup
    assert d == c.a * x
    verify_share(h, c, d, proof, CTX)


def test_share_tampering_rejected(
        share_setup: tuple[Scalar, Point, Ciphertext, Point, DleqProof]) -> None:
    x, h, c, d, proof = share_setup
    other_c = reencrypt(c, h, Scalar.random())
    other_d, other_proof = make_share(x, h, other_c, CTX)
    variants = [
        ("wrong share point", (h, c, d + G, proof, CTX)),
        ("share of another key", (h, c, c.a * _bump(x), proof, CTX)),
        ("changed c", (h, c, d, DleqProof(_bump(proof.c), proof.s), CTX)),
        ("changed s", (h, c, d, DleqProof(proof.c, _bump(proof.s)), CTX)),
        ("other context (replay at another step)", (h, c, d, proof, CTX + b"|step:9")),
        ("proof for another ciphertext", (h, c, d, other_proof, CTX)),
        ("share + proof moved to another ciphertext", (h, other_c, d, proof, CTX)),
        ("other key holder", (h + G, c, d, proof, CTX)),
        ("b changed (whole ciphertext is bound)", (h, Ciphertext(c.a, c.b + G), d, proof, CTX)),
    ]
    for _name, args in variants:
        with pytest.raises(ProofError, match="share: challenge mismatch"):
            verify_share(*args)
    verify_share(h, other_c, other_d, other_proof, CTX)


def test_share_wire_level_attacks_rejected(
        share_setup: tuple[Scalar, Point, Ciphertext, Point, DleqProof]) -> None:
    _, h, c, d, proof = share_setup
    with pytest.raises(InvalidEncoding):  # a share that encodes no group element
        Point.decode(NON_SQUARE_ENC)
    with pytest.raises(InvalidEncoding):  # the share's "other square root" (negative s): refused
        Point.decode(NEGATIVE_ENCS["s=1"])
    # the share with its sign bit flipped is either garbage or another element, never d again
    flipped = bytes([d.encode()[0] ^ 1]) + d.encode()[1:]
    with pytest.raises(InvalidEncoding):
        Point.decode(flipped)  # s odd: negative
    s_unreduced = int(proof.s) + ORDER
    if s_unreduced < 2**256:  # same value mod l: libsodium would accept it, we must not
        with pytest.raises(InvalidEncoding, match=">= l"):
            DleqProof.decode(proof.c.encode() + s_unreduced.to_bytes(32, "little"))
    with pytest.raises(ProofError, match="identity"):
        verify_share(h, c, IDENTITY, proof, CTX)


# --- re-encryption -----------------------------------------------------------------------------

def test_reencryption_proof() -> None:
    H = base_mul(Scalar.random())
    c = encrypt(card_point(3), H, ONE)
    r = Scalar.random()
    c2 = reencrypt(c, H, r)
    proof = prove_reencryption(r, c, c2, H, CTX)
    verify_reencryption(c, c2, H, proof, CTX)
    c_other_card = reencrypt(encrypt(card_point(4), H, ONE), H, r)
    variants = [
        ("different card", (c, c_other_card, H, proof, CTX)),
        ("other key", (c, c2, H + G, proof, CTX)),
        ("changed s", (c, c2, H, DleqProof(proof.c, _bump(proof.s)), CTX)),
        ("changed c", (c, c2, H, DleqProof(_bump(proof.c), proof.s), CTX)),
        ("other context", (c, c2, H, proof, b"x")),
        ("reversed direction", (c2, c, H, proof, CTX)),
    ]
    for _name, args in variants:
        with pytest.raises(ProofError, match="reencryption: challenge mismatch"):
            verify_reencryption(*args)
    with pytest.raises(ValueError):
        prove_reencryption(_bump(r), c, c2, H, CTX)


def test_proof_types_are_domain_separated() -> None:
    # A share proof is a DLEQ proof over (G, h, a, d) — but must not verify as a plain DLEQ.
    x = Scalar.random()
    h = base_mul(x)
    c = encrypt(card_point(5), h, Scalar.random())
    d, proof = make_share(x, h, c, CTX)
    with pytest.raises(ProofError):
        verify_dleq(G, h, c.a, d, proof, CTX)
