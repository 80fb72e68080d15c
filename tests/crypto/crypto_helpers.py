"""Shared helpers and crafted encodings for the crypto tests."""

from __future__ import annotations

from p2ptarot.crypto.elgamal import Ciphertext, encrypt
from p2ptarot.crypto.group import Point, Scalar, hash_to_point

# Encodings crafted by hand (RFC 8032 / libsodium's blocklist): each must be refused by decode.
IDENTITY_ENC = bytes.fromhex("01" + "00" * 31)
SMALL_ORDER_ENCS = [
    IDENTITY_ENC,                                                                # order 1
    bytes.fromhex("ec" + "ff" * 30 + "7f"),                                      # order 2 (y=-1)
    bytes(32),                                                                   # order 4 (y=0)
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),  # order 8
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # order 8
]
NON_CANONICAL_ENCS = [
    bytes.fromhex("ee" + "ff" * 30 + "7f"),    # y = p + 1 (the identity, non-reduced)
    bytes.fromhex("ed" + "ff" * 30 + "7f"),    # y = p (i.e. y = 0 written unreduced)
    bytes.fromhex("01" + "00" * 30 + "80"),    # identity with x sign bit set: x = 0 cannot be "negative"
    bytes.fromhex("ff" * 32),                  # y = 2^255 - 1 >= p
]
ORDER8_ENC = SMALL_ORDER_ENCS[3]


def card_point(i: int) -> Point:
    return hash_to_point("p2ptarot/test/card", i.to_bytes(2, "big"))


def open_deck(n: int, H: Point) -> list[Ciphertext]:
    """An open deck as the protocol builds it: r = 1, so a = G for every card."""
    return [encrypt(card_point(i), H, Scalar(1)) for i in range(n)]

