"""ElGamal: round trips, re-encryption, threshold combination, strict ciphertext decoding."""

from __future__ import annotations

import pytest
from .support import BAD_ENCS, IDENTITY_ENC, card_point
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.crypto.elgamal import Ciphertext, combine, decrypt, encrypt, reencrypt
from p2ptarot.crypto.errors import InvalidEncoding
from p2ptarot.crypto.group import G, ORDER, Point, Scalar, base_mul, point_sum

nonzero = st.integers(min_value=1, max_value=ORDER - 1).map(Scalar)


@settings(max_examples=20, deadline=None)
@given(st.lists(nonzero, min_size=1, max_size=5), nonzero, nonzero, st.integers(0, 500))
def test_threshold_round_trip(keys: list[Scalar], r: Scalar, r2: Scalar, card: int) -> None:
    H = point_sum([base_mul(x) for x in keys])
    M = card_point(card)
    c = reencrypt(encrypt(M, H, r), H, r2)
    assert combine(c, [c.a * x for x in keys]) == M
    assert decrypt(c, Scalar.from_int(sum(int(x) for x in keys))) == M
    if len(keys) > 1:
        assert combine(c, [c.a * x for x in keys[1:]]) != M  # a missing share hides the card


def test_reencryption_changes_both_halves(keypair: tuple[Scalar, Point]) -> None:
    x, H = keypair
    c = encrypt(card_point(1), H, Scalar(1))
    c2 = reencrypt(c, H, Scalar.random())
    assert c2.a != c.a and c2.b != c.b
    assert c.a == G
    assert decrypt(c2, x) == decrypt(c, x) == card_point(1)


def test_ciphertext_encoding_round_trip(keypair: tuple[Scalar, Point]) -> None:
    _, H = keypair
    c = encrypt(card_point(2), H, Scalar.random())
    data = c.encode()
    assert len(data) == 64
    assert Ciphertext.decode(data) == c


@pytest.mark.parametrize("length", [0, 32, 63, 65])
def test_ciphertext_decode_rejects_wrong_length(length: int) -> None:
    with pytest.raises(InvalidEncoding, match="64 bytes"):
        Ciphertext.decode(bytes(length))


@pytest.mark.parametrize("bad", [IDENTITY_ENC, *BAD_ENCS.values()], ids=["identity", *BAD_ENCS])
def test_ciphertext_decode_rejects_bad_halves(bad: bytes) -> None:
    good = G.encode()
    with pytest.raises(InvalidEncoding):
        Ciphertext.decode(bad + good)
    with pytest.raises(InvalidEncoding):
        Ciphertext.decode(good + bad)
