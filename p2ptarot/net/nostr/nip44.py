"""NIP-44 version 2 payload encryption, built from maintained primitives only.

secp256k1 ECDH (coincurve) → HKDF-Extract(salt "nip44-v2") = conversation key; per message a
random 32-byte nonce, HKDF-Expand(conversation key, nonce, 76) = ChaCha20 key ‖ ChaCha20 nonce ‖
HMAC key; plaintext length-prefixed and padded; ChaCha20 (``cryptography``); HMAC-SHA256 over
nonce ‖ ciphertext (``hmac``); base64 of 0x02 ‖ nonce ‖ ciphertext ‖ mac.  The MAC is checked in
constant time before anything is decrypted.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

from .keys import NostrKey

VERSION = 2
MIN_PLAINTEXT = 1
MAX_PLAINTEXT = 65535
_SALT = b"nip44-v2"


class Nip44Error(ValueError):
    """A payload that does not decrypt (version, length, base64, MAC or padding)."""


def conversation_key(mine: NostrKey, their_public_hex: str) -> bytes:
    """The symmetric key of a pair of NOSTR keys (either side computes the same)."""
    return hmac.new(_SALT, mine.shared_x(their_public_hex), hashlib.sha256).digest()


def padded_length(n: int) -> int:
    if n <= 32:
        return 32
    next_power = 1 << (n - 1).bit_length()
    chunk = 32 if next_power <= 256 else next_power // 8
    return chunk * ((n - 1) // chunk + 1)


def _message_keys(key: bytes, nonce: bytes) -> tuple[bytes, bytes, bytes]:
    if len(key) != 32:
        raise Nip44Error("conversation key must be 32 bytes")
    out = HKDFExpand(hashes.SHA256(), 76, nonce).derive(key)
    return out[:32], out[32:44], out[44:]


def _chacha20(key: bytes, nonce: bytes, data: bytes) -> bytes:
    # cryptography's ChaCha20 takes a 16-byte nonce: 4-byte little-endian counter ‖ 12-byte nonce
    cipher = Cipher(algorithms.ChaCha20(key, b"\x00\x00\x00\x00" + nonce), mode=None)
    return cipher.encryptor().update(data)


def encrypt(plaintext: str, key: bytes, nonce: bytes | None = None) -> str:
    """Encrypt UTF-8 text of 1..65535 bytes; ``nonce`` only for test vectors."""
    raw = plaintext.encode("utf-8")
    if not MIN_PLAINTEXT <= len(raw) <= MAX_PLAINTEXT:
        raise Nip44Error("plaintext must be 1..65535 bytes")
    nonce = os.urandom(32) if nonce is None else nonce
    enc_key, enc_nonce, mac_key = _message_keys(key, nonce)
    padded = len(raw).to_bytes(2, "big") + raw + bytes(padded_length(len(raw)) - len(raw))
    ciphertext = _chacha20(enc_key, enc_nonce, padded)
    mac = hmac.new(mac_key, nonce + ciphertext, hashlib.sha256).digest()
    return base64.b64encode(bytes([VERSION]) + nonce + ciphertext + mac).decode("ascii")


def decrypt(payload: object, key: bytes) -> str:
    """The plaintext of a payload, or ``Nip44Error``."""
    if not isinstance(payload, str) or not 132 <= len(payload) <= 87472:
        raise Nip44Error("payload has an impossible length")
    if payload.startswith("#"):
        raise Nip44Error("unknown encryption version")
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Nip44Error("payload is not base64") from exc
    if not 99 <= len(data) <= 65603:
        raise Nip44Error("payload has an impossible length")
    if data[0] != VERSION:
        raise Nip44Error(f"unknown encryption version {data[0]}")
    nonce, ciphertext, mac = data[1:33], data[33:-32], data[-32:]
    enc_key, enc_nonce, mac_key = _message_keys(key, nonce)
    if not hmac.compare_digest(hmac.new(mac_key, nonce + ciphertext, hashlib.sha256).digest(), mac):
        raise Nip44Error("invalid MAC")
    padded = _chacha20(enc_key, enc_nonce, ciphertext)
    size = int.from_bytes(padded[:2], "big")
    if (not MIN_PLAINTEXT <= size <= MAX_PLAINTEXT or len(padded) != 2 + padded_length(size)
            or any(padded[2 + size:])):
        raise Nip44Error("invalid padding")
    try:
        return padded[2:2 + size].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Nip44Error("plaintext is not UTF-8") from exc
