"""Pure tests of the handshake messages and the TXT record (no sockets)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.errors import HandshakeError
from p2ptarot.net.handshake import (
    CLOSE_BAD_HELLO,
    CLOSE_BAD_SIGNATURE,
    INSTANCE_SIZE,
    Hello,
    b64u_decode,
    b64u_encode,
    check_proof,
    check_ready,
    make_proof,
    parse_hello,
    public_key_of,
)
from p2ptarot.net.txt import AdvertError, TableInfo, decode_txt, encode_txt


def hello_for(identity: Identity, version: int = 1) -> Hello:
    return Hello.fresh(version, identity.public_bytes, os.urandom(INSTANCE_SIZE))


def test_hello_round_trip() -> None:
    hello = hello_for(Identity.generate(), version=7)
    assert parse_hello(hello.encode()) == hello


@pytest.mark.parametrize(
    "text",
    [
        "",
        "null",
        "[]",
        '{"hello": true, "key": "", "nonce": "", "instance": ""}',
        '{"hello": 1.0}',
        '{"key": "AAAA"}',
    ],
)
def test_malformed_hello_is_a_bad_hello(text: str) -> None:
    with pytest.raises(HandshakeError) as info:
        parse_hello(text)
    assert info.value.code == CLOSE_BAD_HELLO


def test_hello_fields_must_be_canonical_and_sized() -> None:
    good = json.loads(hello_for(Identity.generate()).encode())
    for key, bad in [
        ("key", good["key"] + "A"),
        ("key", b64u_encode(os.urandom(31))),
        ("nonce", good["nonce"] + "=="),
        ("instance", b64u_encode(os.urandom(32))),
        ("nonce", 12),
    ]:
        with pytest.raises(HandshakeError):
            parse_hello(json.dumps({**good, key: bad}))


@given(st.binary(max_size=64))
def test_b64u_round_trip_and_canonical(data: bytes) -> None:
    text = b64u_encode(data)
    assert "=" not in text
    assert b64u_decode(text, len(data)) == data
    with pytest.raises(ValueError):
        b64u_decode(text, len(data) + 1)


def test_b64u_refuses_non_canonical_trailing_bits() -> None:
    text = b64u_encode(b"\x00")  # "AA": the last char carries 4 unused bits
    with pytest.raises(ValueError):
        b64u_decode("AB", 1)
    assert b64u_decode(text, 1) == b"\x00"


def test_proof_binds_nonces_and_keys() -> None:
    alice, bob, mallory = Identity.generate(), Identity.generate(), Identity.generate()
    ha, hb = hello_for(alice), hello_for(bob)
    check_proof(make_proof(alice, ha, hb), hb, ha)  # bob checks alice: passes

    # Replayed to a new session (fresh nonce on bob's side): refused.
    hb2 = hello_for(bob)
    with pytest.raises(HandshakeError) as info:
        check_proof(make_proof(alice, ha, hb), hb2, ha)
    assert info.value.code == CLOSE_BAD_SIGNATURE
    # Signed by someone else than the key in the hello: refused.
    with pytest.raises(HandshakeError):
        check_proof(make_proof(mallory, ha, hb), hb, ha)
    # A proof made for another verifier key: refused.
    hm = Hello(hb.version, mallory.public_bytes, hb.nonce, hb.instance)
    with pytest.raises(HandshakeError):
        check_proof(make_proof(alice, ha, hm), hb, ha)
    # Garbage proof message.
    with pytest.raises(HandshakeError) as info:
        check_proof('{"proof": "xyz"}', hb, ha)
    assert info.value.code == CLOSE_BAD_HELLO


def test_ready_must_be_exact() -> None:
    check_ready('{"ready":1}')
    for text in ('{"ready":0}', '{"ready":1,"x":2}', "ready"):
        with pytest.raises(HandshakeError):
            check_ready(text)


def test_public_key_of_checks_length() -> None:
    class Short:
        public_bytes = b"x" * 31

        def sign(self, data: bytes) -> bytes:
            return b""

    with pytest.raises(ValueError):
        public_key_of(Short())
    assert public_key_of(Identity.generate()) != b""


# ------------------------------------------------------------------ TXT record

TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Cf", "Co", "Cn")),
    min_size=1,
    max_size=64,
).filter(str.isprintable)


@st.composite
def tables(draw: st.DrawFn) -> TableInfo:
    total = draw(st.integers(1, 12))
    return TableInfo(
        game=draw(TEXT),
        variant=draw(st.one_of(st.just(""), TEXT)),
        seats_taken=draw(st.integers(0, total)),
        seats_total=total,
        fingerprint=draw(TEXT),
        table_id=draw(st.binary(max_size=64)).hex(),
        version=draw(st.integers(0, 10**9 - 1)),
    )


@given(tables())
def test_txt_round_trip(table: TableInfo) -> None:
    raw = {k.encode(): v.encode() for k, v in encode_txt(table).items()}
    assert decode_txt(raw) == table


@given(
    st.dictionaries(
        st.one_of(st.sampled_from([b"v", b"game", b"variant", b"seats", b"table", b"fp"]),
                  st.binary(max_size=8)),
        st.one_of(st.none(), st.binary(max_size=80)),
        max_size=8,
    )
)
def test_txt_decode_only_ever_raises_advert_error(props: dict[bytes, bytes | None]) -> None:
    try:
        table = decode_txt(props)
    except AdvertError:
        return
    assert 1 <= table.seats_total <= 12


def test_txt_keys_are_case_insensitive_and_unknown_keys_ignored() -> None:
    raw = {b"V": b"1", b"GAME": b"eleusis", b"variant": b"", b"seats": b"0/6", b"fp": b"x",
           b"future": b"whatever"}
    table = decode_txt(raw)
    assert (table.game, table.seats_total, table.table_id) == ("eleusis", 6, "")
    with pytest.raises(AdvertError):
        decode_txt({**raw, b"v": b"1", b"V": b"2"})


@pytest.mark.parametrize(
    "changes",
    [
        {"seats_taken": 5, "seats_total": 4},
        {"seats_total": 0},
        {"seats_total": 13},
        {"game": ""},
        {"game": "a\nb"},
        {"fingerprint": "x" * 65},
        {"table_id": "ABC"},
        {"table_id": "abc"},
        {"version": -1},
    ],
)
def test_table_info_validates(changes: dict[str, object]) -> None:
    fields: dict[str, object] = dict(
        game="g", variant="v", seats_taken=1, seats_total=4, fingerprint="fp"
    )
    with pytest.raises(AdvertError):
        TableInfo(**{**fields, **changes})  # type: ignore[arg-type]
