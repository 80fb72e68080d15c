"""Cryptographic primitives of p2ptarot: the ristretto255 prime-order group, ElGamal,
Fiat–Shamir proofs (Schnorr, Chaum–Pedersen, Terelius–Wikström shuffle), hash commitments and
Ed25519 identities. Sans-I/O; the only libsodium calls are in :mod:`.group`.
"""

from .elgamal import Ciphertext, combine, decrypt, encrypt, reencrypt
from .errors import CommitmentError, CryptoError, InvalidEncoding, ProofError, SignatureError
from .group import (
    G,
    IDENTITY,
    ORDER,
    Point,
    Scalar,
    base_mul,
    generators,
    hash_to_point,
    hash_to_scalar,
)

__all__ = [
    "Ciphertext", "combine", "decrypt", "encrypt", "reencrypt",
    "CommitmentError", "CryptoError", "InvalidEncoding", "ProofError", "SignatureError",
    "G", "IDENTITY", "ORDER", "Point", "Scalar", "base_mul", "generators", "hash_to_point",
    "hash_to_scalar",
]
