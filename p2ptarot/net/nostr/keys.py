"""secp256k1 keys for NOSTR (BIP-340 x-only), through libsecp256k1 (coincurve).

A peer's NOSTR key is separate from its Ed25519 table identity: it only names a mailbox on the
relays.  A fresh one per run is fine (the hello handshake on every link still authenticates the
table identity); a host keeps its own for as long as its advert lives.
"""

from __future__ import annotations

import os
import re

from coincurve import PrivateKey, PublicKey, PublicKeyXOnly

_HEX64 = re.compile(r"[0-9a-f]{64}")


class KeyError_(ValueError):
    """Not a valid secp256k1 key."""


def is_pubkey_hex(text: object) -> bool:
    """Lowercase 64-hex that is the x coordinate of a point on the curve (BIP-340 lift_x)."""
    if not isinstance(text, str) or not _HEX64.fullmatch(text):
        return False
    try:
        PublicKeyXOnly(bytes.fromhex(text))
    except (ValueError, TypeError):
        return False
    return True


class NostrKey:
    """A secp256k1 secret key with its x-only public key."""

    __slots__ = ("_secret", "public_hex")

    def __init__(self, secret: bytes | None = None) -> None:
        secret = os.urandom(32) if secret is None else secret
        try:
            key = PrivateKey(secret)
        except ValueError as exc:  # zero or >= n
            raise KeyError_("secret is not a valid secp256k1 scalar") from exc
        self._secret = key
        self.public_hex: str = key.public_key_xonly.format().hex()

    def sign(self, digest: bytes) -> bytes:
        """BIP-340 signature of a 32-byte digest (fresh auxiliary randomness)."""
        return self._secret.sign_schnorr(digest, os.urandom(32))

    def shared_x(self, public_hex: str) -> bytes:
        """x coordinate of secret·P for the peer's x-only key taken with even y (NIP-44 ECDH)."""
        if not is_pubkey_hex(public_hex):
            raise KeyError_("not an x-only secp256k1 public key")
        point = PublicKey(b"\x02" + bytes.fromhex(public_hex)).multiply(self._secret.secret)
        return point.format(compressed=True)[1:]


def verify_schnorr(public_hex: str, digest: bytes, signature: bytes) -> bool:
    """BIP-340 verification; False for anything malformed."""
    if not is_pubkey_hex(public_hex) or len(signature) != 64 or len(digest) != 32:
        return False
    try:
        return bool(PublicKeyXOnly(bytes.fromhex(public_hex)).verify(signature, digest))
    except (ValueError, TypeError):
        return False
