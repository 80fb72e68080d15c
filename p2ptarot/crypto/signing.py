"""Long-term player identities: Ed25519 through `cryptography`.

A player is their public key; people compare the short :func:`fingerprint` out of band.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PrivateFormat, PublicFormat
from cryptography.hazmat.primitives.serialization import NoEncryption

from .errors import InvalidEncoding, SignatureError
from p2ptarot.i18n.message import tr

PUBLIC_BYTES = 32
SEED_BYTES = 32
SIGNATURE_BYTES = 64


class Identity:
    """An Ed25519 signing key (keep the seed secret; persist it with :meth:`seed`)."""

    __slots__ = ("_key", "public_bytes")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public_bytes: bytes = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        if len(seed) != SEED_BYTES:
            raise InvalidEncoding(tr("{what}: {part} must be {size} bytes",
                                     what="identity", part="seed", size=32))
        return cls(Ed25519PrivateKey.from_private_bytes(bytes(seed)))

    def seed(self) -> bytes:
        """The 32-byte private seed (RFC 8032)."""
        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def sign(self, data: bytes) -> bytes:
        """64-byte Ed25519 signature of ``data``."""
        return self._key.sign(data)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_bytes)

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"


def verify_signature(public_bytes: bytes, data: bytes, sig: bytes) -> None:
    """Raise SignatureError (a CryptoError) unless ``sig`` is valid for ``data``."""
    if len(public_bytes) != PUBLIC_BYTES:
        raise InvalidEncoding(tr("{what}: {part} must be {size} bytes",
                                 what="signature", part="public key", size=32))
    if len(sig) != SIGNATURE_BYTES:
        raise InvalidEncoding(tr("{what}: {part} must be {size} bytes",
                                 what="signature", part="signature", size=64))
    try:
        Ed25519PublicKey.from_public_bytes(bytes(public_bytes)).verify(bytes(sig), bytes(data))
    except InvalidSignature:
        raise SignatureError("signature: invalid Ed25519 signature") from None
    except ValueError as exc:
        raise InvalidEncoding(tr("signature: bad public key ({exc})", exc=exc)) from None


def fingerprint(public_bytes: bytes) -> str:
    """First 80 bits of SHA-256(public key) in base32, as 4 groups of 4: ``ABCD-EFGH-IJKL-MNOP``."""
    if len(public_bytes) != PUBLIC_BYTES:
        raise InvalidEncoding(tr("{what}: {part} must be {size} bytes",
                                 what="fingerprint", part="public key", size=32))
    text = base64.b32encode(hashlib.sha256(bytes(public_bytes)).digest()).decode("ascii")[:16]
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))
