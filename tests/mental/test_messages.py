"""Every message kind survives its wire form exactly, and the wire form is canonical."""

from __future__ import annotations

import json

import pytest

from .support import Loopback
from p2ptarot.mental import MessageDecodeError, Transfer, message_from_dict
from p2ptarot.mental.codec import b64, unb64


def test_every_kind_round_trips_through_json() -> None:
    lb = Loopback(2, seed=21)
    lb.open("d", 3, [f"c{i}" for i in range(5)])
    lb.each(lambda p: p.deal("d", 3, {0: 0}))
    lb.each(lambda p: p.show("d", 3, [Transfer(0, 0, 1)]))
    lb.each(lambda p: p.audit("d", 3, [1, 2]))
    lb.run()
    kinds = set()
    for m in lb.sent:
        wire = json.dumps(m.to_dict(), sort_keys=True, separators=(",", ":"))
        back = message_from_dict(json.loads(wire))
        assert back == m
        assert json.dumps(back.to_dict(), sort_keys=True, separators=(",", ":")) == wire
        kinds.add(m.KIND)
    assert kinds == {"mental.key", "mental.shuffle", "mental.shares", "mental.reencrypt"}


@pytest.mark.parametrize("data", [b"", b"\x00", b"\xff" * 31, bytes(range(64))])
def test_base64url_is_unpadded_and_strict(data: bytes) -> None:
    text = b64(data)
    assert "=" not in text and "+" not in text and "/" not in text
    assert unb64(text, "f") == data
    with pytest.raises(MessageDecodeError):
        unb64(text + "=", "f") if len(data) % 3 else unb64(text + "A", "f")


def test_non_canonical_trailing_bits_are_refused() -> None:
    assert b64(b"\x00") == "AA"
    with pytest.raises(MessageDecodeError, match="non-canonical"):
        unb64("AB", "f")  # decodes to b"\x00" too, with non-zero padding bits
