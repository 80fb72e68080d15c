"""Shared helpers and crafted encodings for the crypto tests."""

from __future__ import annotations

from p2ptarot.crypto.elgamal import Ciphertext, encrypt
from p2ptarot.crypto.group import Point, Scalar, hash_to_point

# Encodings crafted by hand (the invalid-encoding classes of RFC 9496, appendix A.2): each must be
# refused by decode. ristretto255 has no small-order or mixed-order elements to smuggle in: a
# string either is the canonical encoding of a group element or decodes to nothing.
IDENTITY_ENC = bytes(32)  # a valid encoding, but of the identity: refused by Point.decode
NON_CANONICAL_ENCS = {
    "s=p": bytes.fromhex("ed" + "ff" * 30 + "7f"),
    "s=p+6": bytes.fromhex("f3" + "ff" * 30 + "7f"),
    "s=2^255-1": bytes.fromhex("ff" * 31 + "7f"),
    "high-bit": bytes.fromhex("01" + "00" * 30 + "80"),
    "all-ff": bytes.fromhex("ff" * 32),
}
NEGATIVE_ENCS = {  # s odd ("negative"): only the non-negative square root is canonical
    "s=1": bytes.fromhex("01" + "00" * 31),
    "s=2^255-255": bytes.fromhex("01" + "ff" * 30 + "7f"),
}
NON_SQUARE_ENC = bytes.fromhex("26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371")
NEGATIVE_XY_ENC = bytes.fromhex("3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e")
S_MINUS_ONE_ENC = bytes.fromhex("ec" + "ff" * 30 + "7f")  # s = -1: y = 0, no point
BAD_ENCS = {**NON_CANONICAL_ENCS, **NEGATIVE_ENCS, "non-square": NON_SQUARE_ENC,
            "negative-xy": NEGATIVE_XY_ENC, "s=-1": S_MINUS_ONE_ENC}
"""Every crafted string decode must refuse (the identity aside)."""


def card_point(i: int) -> Point:
    return hash_to_point("p2ptarot/test/card", i.to_bytes(2, "big"))


def open_deck(n: int, H: Point) -> list[Ciphertext]:
    """An open deck as the protocol builds it: r = 1, so a = G for every card."""
    return [encrypt(card_point(i), H, Scalar(1)) for i in range(n)]

