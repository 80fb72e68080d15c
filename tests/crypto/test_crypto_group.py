"""The group wrapper: strict decoding, arithmetic laws, hashing into the group, op counting."""

from __future__ import annotations

import pytest
from p2ptarot.crypto import sodium
from .support import BAD_ENCS, IDENTITY_ENC, NEGATIVE_ENCS, NON_CANONICAL_ENCS
from hypothesis import given, settings
from hypothesis import strategies as st

from p2ptarot.crypto.encoding import lp, transcript_hash
from p2ptarot.crypto.errors import CryptoError, InvalidEncoding
from p2ptarot.crypto.group import (
    G,
    IDENTITY,
    ORDER,
    Point,
    Scalar,
    base_mul,
    count_ops,
    generators,
    hash_to_point,
    hash_to_scalar,
    multi_mul,
    point_sum,
)

scalars = st.integers(min_value=0, max_value=ORDER - 1).map(Scalar)


# --- scalars -------------------------------------------------------------------------------

def test_order_constant() -> None:
    assert ORDER == 2**252 + 27742317777372353535851937790883648493


def test_scalar_constructor_refuses_out_of_range() -> None:
    with pytest.raises(CryptoError):
        Scalar(ORDER)
    with pytest.raises(CryptoError):
        Scalar(-1)
    assert Scalar.from_int(ORDER + 5) == Scalar(5)
    assert Scalar.from_int(-1) == Scalar(ORDER - 1)


@pytest.mark.parametrize("value", [ORDER, ORDER + 1, 2**256 - 1])
def test_scalar_decode_rejects_unreduced(value: int) -> None:
    with pytest.raises(InvalidEncoding, match=">= l"):
        Scalar.decode(value.to_bytes(32, "little"))


@pytest.mark.parametrize("length", [0, 31, 33, 64])
def test_scalar_decode_rejects_wrong_length(length: int) -> None:
    with pytest.raises(InvalidEncoding, match="32 bytes"):
        Scalar.decode(bytes(length))


def test_scalar_random_is_nonzero_and_varies() -> None:
    draws = {Scalar.random() for _ in range(20)}
    assert len(draws) == 20
    assert Scalar(0) not in draws


@given(scalars, scalars)
def test_scalar_field_laws(a: Scalar, b: Scalar) -> None:
    assert Scalar.decode(a.encode()) == a
    assert a + b - b == a
    assert int(a * b) == int(a) * int(b) % ORDER
    assert a + (-a) == Scalar(0)
    if int(a):
        assert a * a.inverse() == Scalar(1)


def test_zero_has_no_inverse() -> None:
    with pytest.raises(CryptoError):
        Scalar(0).inverse()


# --- points: decoding ------------------------------------------------------------------------

def test_point_constructor_is_refused() -> None:
    with pytest.raises(TypeError):
        Point(G.encode())  # type: ignore[call-arg]


def test_point_is_immutable() -> None:
    with pytest.raises(AttributeError):
        G._enc = bytes(32)  # type: ignore[misc]


def test_base_point_round_trips() -> None:
    assert Point.decode(G.encode()) == G
    # RFC 9496: the ristretto255 generator's canonical encoding
    assert G.encode().hex() == "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"
    assert G.encode() == sodium.scalarmult_base((1).to_bytes(32, "little"))


def test_decode_rejects_identity() -> None:
    assert IDENTITY.encode() == IDENTITY_ENC
    assert sodium.is_valid_point(IDENTITY_ENC)  # libsodium accepts it...
    with pytest.raises(InvalidEncoding, match="non-identity"):  # ...the protocol never does
        Point.decode(IDENTITY_ENC)


@pytest.mark.parametrize("enc", list(NON_CANONICAL_ENCS.values()), ids=list(NON_CANONICAL_ENCS))
def test_decode_rejects_non_canonical(enc: bytes) -> None:
    assert int.from_bytes(enc, "little") >= 2**255 - 19  # the field element is not reduced
    with pytest.raises(InvalidEncoding, match="canonical"):
        Point.decode(enc)


@pytest.mark.parametrize("enc", list(NEGATIVE_ENCS.values()), ids=list(NEGATIVE_ENCS))
def test_decode_rejects_negative_field_element(enc: bytes) -> None:
    s = int.from_bytes(enc, "little")
    assert s < 2**255 - 19 and s % 2 == 1  # reduced, but "negative" (odd)
    with pytest.raises(InvalidEncoding):
        Point.decode(enc)


@pytest.mark.parametrize("enc", list(BAD_ENCS.values()), ids=list(BAD_ENCS))
def test_every_crafted_encoding_is_refused_by_libsodium_too(enc: bytes) -> None:
    assert not sodium.is_valid_point(enc)
    with pytest.raises(InvalidEncoding):
        Point.decode(enc)


def test_decode_rejects_the_top_bit_set() -> None:
    """RFC 9496 §4.3.1: bit 255 of a canonical encoding is 0. The bundled libsodium ignores it
    (the same element under a second byte string, so a copied key would pass a byte comparison);
    `Point.decode` refuses it, for every element tried."""
    for i in range(8):
        enc = hash_to_point("t", b"top-bit", bytes([i])).encode()
        assert not enc[31] & 0x80
        top = enc[:31] + bytes([enc[31] | 0x80])
        assert sodium.is_valid_point(top)  # libsodium accepts it...
        with pytest.raises(InvalidEncoding, match="canonical"):  # ...the protocol never does
            Point.decode(top)
    g_top = G.encode()[:31] + bytes([G.encode()[31] | 0x80])
    # libsodium computes with it as with G: the two byte strings are one element
    assert sodium.sub(g_top, G.encode()) == IDENTITY_ENC


def test_decode_accepts_exactly_the_canonical_encoding() -> None:
    # every element has one encoding: flipping any bit of a valid one gives garbage or another
    # element, never the same one
    P = hash_to_point("t", b"canonical")
    enc = P.encode()
    decoded = 0
    for bit in range(256):
        flipped = bytearray(enc)
        flipped[bit // 8] ^= 1 << (bit % 8)
        try:
            Q = Point.decode(bytes(flipped))
        except InvalidEncoding:
            continue
        decoded += 1
        assert Q != P and (Q - P) != IDENTITY  # another element, not the same one re-encoded
    assert bit == 255 and decoded < 256


def test_decode_rejects_non_curve_bytes() -> None:
    rejected = 0
    for i in range(40):
        enc = transcript_hash("not-a-point", bytes([i]))[:32]
        try:
            Point.decode(enc)
        except InvalidEncoding:
            rejected += 1
    assert rejected >= 20  # most random strings encode no element (about 7/8 of them)


@pytest.mark.parametrize("length", [0, 31, 33, 64])
def test_point_decode_rejects_wrong_length(length: int) -> None:
    with pytest.raises(InvalidEncoding, match="32 bytes"):
        Point.decode(b"\x58" * length)


# --- points: arithmetic ----------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(scalars, scalars)
def test_point_arithmetic_laws(a: Scalar, b: Scalar) -> None:
    assert base_mul(a) + base_mul(b) == base_mul(a + b)
    assert base_mul(a) - base_mul(b) == base_mul(a - b)
    P = hash_to_point("t", b"P")
    assert P * a + P * b == (a + b) * P
    assert (P * a) * b == P * (a * b)


def test_identity_handling() -> None:
    P = hash_to_point("t", b"P")
    assert (P - P) == IDENTITY and IDENTITY.is_identity
    assert P * Scalar(0) == IDENTITY
    assert IDENTITY * Scalar(7) == IDENTITY
    assert P + IDENTITY == P
    assert -P + P == IDENTITY
    assert point_sum([]) == IDENTITY
    assert G * Scalar(ORDER - 1) == -G


def test_multi_mul_matches_sum_of_products() -> None:
    ps = generators("t/multi", 4)
    ks = [Scalar(3), Scalar(0), Scalar(ORDER - 2), Scalar(11)]
    assert multi_mul(ks, ps) == point_sum([p * k for p, k in zip(ps, ks)])
    with pytest.raises(ValueError):
        multi_mul(ks[:2], ps)


def test_count_ops_counts_and_restores() -> None:
    P = hash_to_point("t", b"P")
    with count_ops() as n:
        base_mul(Scalar(5))
        _ = P * Scalar(5)
        _ = P + G
        Point.decode(P.encode())
    assert (n.base_mul, n.var_mul, n.add, n.validate) == (1, 1, 1, 1)
    _ = P * Scalar(6)
    assert n.var_mul == 1  # counting stopped with the block


# --- hashing into the group ------------------------------------------------------------------

def test_lp_is_unambiguous() -> None:
    assert lp(b"ab", b"c") != lp(b"a", b"bc")
    assert lp(b"", b"x") != lp(b"x", b"")
    assert lp(b"abc") == (3).to_bytes(8, "big") + b"abc"
    with pytest.raises(TypeError):
        lp("text")  # type: ignore[arg-type]


def test_hash_to_scalar_is_domain_separated_and_deterministic() -> None:
    assert hash_to_scalar("a", b"x") == hash_to_scalar("a", b"x")
    assert hash_to_scalar("a", b"x") != hash_to_scalar("b", b"x")
    assert hash_to_scalar("a", b"x", b"y") != hash_to_scalar("a", b"xy")


def test_generators_are_hash_derived_distinct_valid_deterministic() -> None:
    gs = generators("p2ptarot/shuffle/h", 16)
    assert len(set(gs)) == 16
    assert G not in gs
    for i, g in enumerate(gs):
        assert Point.decode(g.encode()) == g  # passes the strict validity check
        assert g == hash_to_point("p2ptarot/shuffle/h", i.to_bytes(8, "big"))
        # and is exactly ristretto255's from_hash of the published hash: anyone can re-derive it.
        digest = transcript_hash("p2ptarot/shuffle/h", (0).to_bytes(8, "big"), i.to_bytes(8, "big"))
        assert g.encode() == sodium.from_hash(digest)
    assert generators("p2ptarot/shuffle/h", 4) == gs[:4]
    assert set(generators("other/label", 4)).isdisjoint(gs)
