"""Adverts, invitation codes and encrypted signalling (pure)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2ptarot.net.nostr.adverts import (ADVERT_TTL, address_of, code_of, make_advert,
                                        normalize_code, parse_address, parse_advert, show_code)
from p2ptarot.net.nostr.event import make_event
from p2ptarot.net.nostr.keys import NostrKey
from p2ptarot.net.nostr.signal import Signal, SignalError, open_signal, seal
from p2ptarot.net.txt import TableInfo

NOW = 1_800_000_000
TABLE = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=4,
                  fingerprint="ABCD-EFGH-JK23-MN45", host_name="Alice")


def test_advert_round_trip_says_what_the_txt_record_says() -> None:
    host = NostrKey()
    event = make_advert(host, TABLE, NOW)
    assert parse_advert(event, NOW) == (code_of(host.public_hex), TABLE)
    assert parse_advert(event, NOW + ADVERT_TTL) is None  # expired


def test_advert_whose_author_does_not_hash_to_its_code_is_ignored() -> None:
    host, squatter = NostrKey(), NostrKey()
    real = make_advert(host, TABLE, NOW)
    forged = make_event(squatter, real.kind, [list(t) for t in real.tags], real.content, NOW)
    assert parse_advert(forged, NOW) is None


@pytest.mark.parametrize("fp", ["ABCD", "abcd1234", "ABCD-EFGH-JK23-MN4", "abcd-efgh-jk23-mn45"])
def test_advert_whose_fingerprint_is_not_whole_is_ignored(fp: str) -> None:
    """The joiner pins the host to the advert's fingerprint: a prefix (or a table-id-like hex,
    which the dial would not check) would pin nothing."""
    host = NostrKey()
    assert parse_advert(make_advert(host, replace(TABLE, fingerprint=fp), NOW), NOW) is None
    assert parse_advert(make_advert(host, TABLE, NOW), NOW) is not None


def test_codes_are_typed_loosely() -> None:
    code = code_of(NostrKey().public_hex)
    assert len(code) == 10 and normalize_code(show_code(code).lower()) == code
    assert normalize_code("p2ptarot:" + code) == code
    assert normalize_code("too-short") is None
    key = NostrKey().public_hex
    assert parse_address(address_of(key)) == key and parse_address("ws://1.2.3.4:5") is None


def test_signal_is_readable_only_by_its_recipient() -> None:
    alice, bob, eve = NostrKey(), NostrKey(), NostrKey()
    message = Signal("", "offer", "ab" * 16, sdp="v=0 c=IN IP4 10.1.0.10")
    event = seal(alice, bob.public_hex, message, NOW)
    assert "10.1.0.10" not in event.content and "offer" not in event.content
    got = open_signal(bob, event, NOW)
    assert (got.sender, got.kind, got.link, got.sdp) == (alice.public_hex, "offer", "ab" * 16,
                                                         message.sdp)
    with pytest.raises(SignalError):
        open_signal(eve, event, NOW)
    with pytest.raises(SignalError):
        open_signal(bob, event, NOW + 10_000)  # expired: a late replay is refused


def test_data_frames_are_validated() -> None:
    alice, bob = NostrKey(), NostrKey()
    good = Signal("", "data", "cd" * 16, seq=3, part=1, parts=2, body="{}")
    assert open_signal(bob, seal(alice, bob.public_hex, good, NOW), NOW).body == "{}"
    bad = Signal("", "data", "cd" * 16, seq=3, part=2, parts=2, body="{}")
    with pytest.raises(SignalError):
        open_signal(bob, seal(alice, bob.public_hex, bad, NOW), NOW)
