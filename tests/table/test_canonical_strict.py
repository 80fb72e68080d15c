"""Canonical JSON: one byte form per value, everything else refused (also at the envelope)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.table import canonical
from p2ptarot.crypto.signing import Identity
from p2ptarot.table.envelope import SIGN_LABEL, EnvelopeError, parse, seal


@pytest.mark.parametrize("data", [b'{"a":1.5}', b'{"a":1e2}', b'{"a": 1}', b'{ "a":1}', b'{"b":1,"a":2}',
                                  b'{"a":1,"a":2}', b'{"a":NaN}', b'{"a":Infinity}', b'{"a":"\\u00e9"}',
                                  b'{"a":1}\n', b'\xef\xbb\xbf{}'])
def test_non_canonical_bytes_are_refused(data: bytes) -> None:
    with pytest.raises(canonical.CanonicalError):
        canonical.decode(data)


def test_floats_cannot_be_encoded() -> None:
    with pytest.raises(canonical.CanonicalError):
        canonical.encode({"a": 1.0})


def test_size_limit() -> None:
    with pytest.raises(canonical.CanonicalError):
        canonical.decode(b'"' + b"x" * 100 + b'"', max_size=50)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20)


@given(json_values)
def test_encode_decode_round_trip(value) -> None:
    data = canonical.encode(value)
    assert canonical.decode(data) == value
    assert canonical.encode(canonical.decode(data)) == data


def test_envelope_with_reordered_keys_is_dropped(game2) -> None:
    line = game2.records[0][0]
    parse(line)
    text = line.decode()
    v = f'"v":{PROTOCOL_VERSION}'
    assert f",{v}}}" in text
    reordered = ("{" + v + "," + text[1:]).replace(f",{v}}}", "}").encode()
    assert reordered != line
    with pytest.raises(EnvelopeError):
        parse(reordered)


@pytest.mark.parametrize("value", [["ok", "\ud800"], {"k": "\ud800"}, {"\udfff": 1},
                                   ("a", ["b", "\ud800"]), [[["x", 1.5]]], {"a": ["x", 2.0]},
                                   {"a": ["x", 10 ** 101]}, ["x", {1: "y"}], ["x", b"bytes"],
                                   [1, -10 ** 100], {"a": 10 ** 100}, [True, None, 1.0],
                                   {"a": None, "b": False, "c": float("nan")}])
def test_every_item_of_a_container_is_checked(value) -> None:
    """The containers' fast path for ASCII strings (issue 26) lets nothing else through."""
    with pytest.raises(canonical.CanonicalError):
        canonical.encode(value)


@pytest.mark.parametrize("leaf", ["leaf", 7, None, True, -(10 ** 100 - 1)])
def test_nesting_is_bounded_for_every_plain_item(leaf: object) -> None:
    """The containers' fast path for plain items (strings, integers, null, booleans) keeps
    the depth bound: an item one level too deep is refused whatever it is."""
    deep: object = leaf
    for _ in range(canonical.MAX_DEPTH):
        deep = [deep]
    canonical.encode(deep)  # the item sits at depth MAX_DEPTH: allowed
    assert canonical.decode(canonical.encode(deep)) == deep
    with pytest.raises(canonical.CanonicalError):
        canonical.encode([deep])  # one level more: refused
    with pytest.raises(canonical.CanonicalError):
        canonical.encode({"k": deep})
    with pytest.raises(canonical.CanonicalError):
        canonical.decode(b"[" + canonical.encode(deep) + b"]")
    canonical.encode([[]] * 3 if leaf is None else [])  # empty containers hold no item


def test_integer_subclasses_take_the_full_check() -> None:
    """Only exact types take the fast path: an int subclass is still bounded and encoded."""
    import enum

    class Big(int):
        pass

    class Seat(enum.IntEnum):
        ONE = 1

    assert canonical.encode([Seat.ONE, {"s": Seat.ONE}]) == b'[1,{"s":1}]'
    with pytest.raises(canonical.CanonicalError):
        canonical.encode([Big(10 ** 100)])
    with pytest.raises(canonical.CanonicalError):
        canonical.encode({"k": Big(-(10 ** 100))})


_ME = Identity.generate()
bodies = st.dictionaries(st.sampled_from(["sig", "step", "seat", "a", "v", "é"]), json_values, max_size=5)


@given(bodies, st.integers(0, 10_000_000), st.integers(0, 11))
def test_envelope_bytes_are_encoded_once_and_exactly(body, step, seat) -> None:
    """`seal` and `signing_bytes` splice the `sig` member in and out of the canonical text (issue
    26) rather than encoding twice: the bytes are exactly the canonical encodings, whatever the
    body holds (its own `sig` and `step` keys too)."""
    env = seal(_ME, b"t" * 32, step, seat, b"p" * 32, "move", body)
    assert env.encoded() == canonical.encode(env.model_dump(mode="json"))
    again = parse(env.encoded())
    assert again == env and again.encoded() == env.encoded() and again.digest() == env.digest()
    assert again.signing_bytes() == SIGN_LABEL + canonical.encode(again.unsigned())
    again.verify_signature(_ME.public_bytes)
    other = again.model_copy(update={"step": step + 1})
    assert other.encoded() == canonical.encode(other.model_dump(mode="json")) != env.encoded()
    with pytest.raises(EnvelopeError):
        other.verify_signature(_ME.public_bytes)
