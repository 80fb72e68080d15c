"""Error types of p2ptarot.crypto.

Everything derives from ``ValueError`` so that callers validating untrusted input can catch one
family; the subclasses say *what kind* of check failed so the table layer can blame precisely.
"""

from __future__ import annotations


class CryptoError(ValueError):
    """Base class: some cryptographic check failed."""


class InvalidEncoding(CryptoError):
    """Bytes from the wire are not the canonical encoding of a valid value (size, range, point)."""


class ProofError(CryptoError):
    """A zero-knowledge proof did not verify; the message names the failing check."""


class CommitmentError(CryptoError):
    """An opened commitment does not match its digest."""


class SignatureError(CryptoError):
    """An Ed25519 signature did not verify."""
