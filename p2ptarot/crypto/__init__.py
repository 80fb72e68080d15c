"""Cryptographic primitives of p2ptarot: the ristretto255 prime-order group, ElGamal,
Fiat–Shamir proofs (Schnorr, Chaum–Pedersen, Terelius–Wikström shuffle), hash commitments and
Ed25519 identities. Sans-I/O; the only libsodium calls are in :mod:`.group`.

The names below are loaded on first use (PEP 562): `p2ptarot.crypto.signing` alone (a data
directory's identity key) does not load libsodium.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot._lazy import lazy_names

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(("Ciphertext", "combine", "decrypt", "encrypt", "reencrypt"), "elgamal"),
    **dict.fromkeys(("CommitmentError", "CryptoError", "InvalidEncoding", "ProofError",
                     "SignatureError"), "errors"),
    **dict.fromkeys(("G", "IDENTITY", "ORDER", "Point", "Scalar", "base_mul", "generators",
                     "hash_to_point", "hash_to_scalar"), "group"),
}

__all__ = list(_EXPORTS)


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)


if TYPE_CHECKING:  # the eager form, for type checkers and editors
    from .elgamal import Ciphertext, combine, decrypt, encrypt, reencrypt
    from .errors import CommitmentError, CryptoError, InvalidEncoding, ProofError, SignatureError
    from .group import (G, IDENTITY, ORDER, Point, Scalar, base_mul, generators, hash_to_point,
                        hash_to_scalar)
