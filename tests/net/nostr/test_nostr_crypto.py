"""NIP-44 v2 against the official vectors (paulmillr/nip44, sha256 269ed0f6...), and NIP-01
events: ids, BIP-340 signatures, refusal of anything altered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2ptarot.net.nostr import nip44
from p2ptarot.net.nostr.event import EventError, make_event, parse_event
from p2ptarot.net.nostr.keys import KeyError_, NostrKey, is_pubkey_hex

VECTORS = json.loads((Path(__file__).parent / "nip44_vectors.json").read_text())["v2"]


def _key(hex_secret: str) -> NostrKey:
    return NostrKey(bytes.fromhex(hex_secret))


@pytest.mark.parametrize("v", VECTORS["valid"]["get_conversation_key"])
def test_conversation_key_vectors(v: dict[str, str]) -> None:
    assert nip44.conversation_key(_key(v["sec1"]), v["pub2"]).hex() == v["conversation_key"]


@pytest.mark.parametrize("v", VECTORS["valid"]["encrypt_decrypt"])
def test_encrypt_decrypt_vectors(v: dict[str, str]) -> None:
    key = nip44.conversation_key(_key(v["sec1"]), _key(v["sec2"]).public_hex)
    assert key.hex() == v["conversation_key"]
    assert nip44.encrypt(v["plaintext"], key, bytes.fromhex(v["nonce"])) == v["payload"]
    assert nip44.decrypt(v["payload"], key) == v["plaintext"]


def test_padded_length_vectors() -> None:
    assert [nip44.padded_length(n) for n, _ in VECTORS["valid"]["calc_padded_len"]] == \
        [p for _, p in VECTORS["valid"]["calc_padded_len"]]


@pytest.mark.parametrize("v", VECTORS["invalid"]["decrypt"])
def test_invalid_payloads_refused(v: dict[str, str]) -> None:
    with pytest.raises(nip44.Nip44Error):
        nip44.decrypt(v["payload"], bytes.fromhex(v["conversation_key"]))


@pytest.mark.parametrize("v", VECTORS["invalid"]["get_conversation_key"])
def test_invalid_keys_refused(v: dict[str, str]) -> None:
    with pytest.raises(KeyError_):
        nip44.conversation_key(_key(v["sec1"]), v["pub2"])


def test_a_third_key_cannot_decrypt() -> None:
    alice, bob, eve = NostrKey(), NostrKey(), NostrKey()
    payload = nip44.encrypt("sdp with 10.0.0.7", nip44.conversation_key(alice, bob.public_hex))
    assert nip44.decrypt(payload, nip44.conversation_key(bob, alice.public_hex)) == \
        "sdp with 10.0.0.7"
    with pytest.raises(nip44.Nip44Error):
        nip44.decrypt(payload, nip44.conversation_key(eve, alice.public_hex))


def test_event_round_trip_and_tampering() -> None:
    key = NostrKey()
    event = make_event(key, 1, [["t", "p2ptarot"]], "hé \"quoted\"\n", 1_700_000_000)
    assert parse_event(event.to_json()) == event
    assert is_pubkey_hex(event.pubkey)
    for field, value in (("content", "other"), ("kind", 2), ("created_at", 1),
                         ("tags", [["t", "x"]]), ("pubkey", NostrKey().public_hex)):
        forged = dict(event.to_json(), **{field: value})
        with pytest.raises(EventError):
            parse_event(forged)
    other = make_event(key, 1, [], "x", 1)
    with pytest.raises(EventError):  # a valid signature from another event
        parse_event(dict(event.to_json(), sig=other.sig))


@pytest.mark.parametrize("junk", [None, [], "x", {"id": 1}, {"id": "a" * 64, "pubkey": "zz"},
                                  {"id": "0" * 64, "pubkey": "0" * 64, "created_at": 1,
                                   "kind": 1, "tags": [], "content": "", "sig": "0" * 128}])
def test_junk_events_refused(junk: object) -> None:
    with pytest.raises(EventError):
        parse_event(junk)
