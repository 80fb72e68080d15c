"""Issue 31 item 8: a relay-borne link's data is striped across its relays (one relay per
event, each with its own rate limit) and packed (compressed when it pays); the receiver
restores the order.  Real `nostr-relay` processes on 127.0.0.1 with their 4 KB cap and rate
limit; one is killed while a stream of multi-event frames is on its way."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import zlib
from pathlib import Path

import pytest
from online_servers import Relay, start_relay

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import LinkUp, Received
from p2ptarot.net.nostr.pool import RelayNotice
from p2ptarot.net.online.channels import pack, unpack
from p2ptarot.net.online.config import OnlineConfig
from p2ptarot.net.online.mesh import OnlineMesh

WAIT = 90.0


async def _next(mesh: OnlineMesh, kind: type) -> object:
    async with asyncio.timeout(WAIT):
        while True:
            event = await mesh.next_event()
            if isinstance(event, kind):
                return event


def test_pack_compresses_json_and_unpack_restores_it() -> None:
    packet = json.dumps([json.dumps({"seat": i, "proof": base64.b64encode(os.urandom(48)).decode(),
                                     "kind": "shuffle-step"}) for i in range(40)])
    packed = pack(packet)
    assert packed.startswith("z") and len(packed) < len(json.dumps(packet))
    assert unpack(packed, 1 << 20) == packet
    assert pack("[\"short\"]") == "[\"short\"]"  # too small to pay: sent as is
    assert unpack("[1]", 10) == "[1]"


def test_unpack_refuses_a_deflate_bomb_and_broken_text() -> None:
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = "z" + base64.b85encode(squeezer.compress(b"[" + b" " * 5_000_000 + b"]")
                                  + squeezer.flush()).decode()
    assert len(bomb) < 20_000
    assert unpack(bomb, 1 << 20) is None  # would inflate past the bound
    assert unpack("z" + "\"" * 10, 1 << 20) is None
    truncated = pack(json.dumps(["x" * 4000, "y" * 4000]))[:-20]
    assert unpack(truncated, 1 << 20) is None


@pytest.mark.network
async def test_frames_striped_across_two_relays_arrive_in_order_with_one_killed(
        tmp_path: Path) -> None:
    doomed: Relay = start_relay(tmp_path / "doomed")
    survivor: Relay = start_relay(tmp_path / "survivor")
    try:
        alice, bob = Identity.generate(), Identity.generate()
        config = OnlineConfig(relays=(doomed.url, survivor.url), transport="relay")
        async with OnlineMesh(alice, config) as a, OnlineMesh(bob, config) as b:
            heard: list[RelayNotice] = []
            a.pool.on_notice = heard.append
            async with asyncio.timeout(WAIT):
                while a.pool.connected < 2 or b.pool.connected < 2:
                    await asyncio.sleep(0.1)
            await a.connect(b.url, expected_key=bob.public_bytes)
            await _next(b, LinkUp)
            # frames of ~7 KB of incompressible text: each takes several 4 KB events
            frames = [json.dumps({"n": i, "blob": base64.b64encode(os.urandom(5000)).decode()})
                      .encode() for i in range(24)]
            for frame in frames[:12]:
                await a.send(bob.public_bytes, frame)
            got = [(await _next(b, Received)).data for _ in range(4)]
            # both relays carry part of the stream, neither all of it
            assert a.pool.accepted[doomed.url] > 0 and a.pool.accepted[survivor.url] > 0
            doomed.stop()  # events queued for it, or sent and unanswered, move to the other
            for frame in frames[12:]:
                await a.send(bob.public_bytes, frame)
            got += [(await _next(b, Received)).data for _ in range(20)]
            assert got == frames
            assert a.pool.accepted[survivor.url] < a.pool.published
            assert not a.pool.failed.is_set() and not b.pool.failed.is_set()
            # neither relay publishes a limit: the first size refusal teaches the common
            # 4096 at once, for both (no halving 16384 -> 8192 -> 4096)
            shrunk = [n for n in heard if n.what == "shrunk"]
            assert shrunk and all(n.cap == 4096 for n in shrunk), heard
            assert a.pool.content_cap() == 4096
    finally:
        doomed.stop()
        survivor.stop()


def test_a_packet_that_does_not_compress_is_cut_by_escaped_bytes() -> None:
    """Packets that stay as they are (compression would not pay) are cut counting escaped
    UTF-8 bytes: quotes, backslashes and accents cost more than one."""
    import random

    from p2ptarot.net.nostr.sizing import escaped_size, split_to_fit
    rng = random.Random(5)
    text = "".join(rng.choices('é"\\abc€😀', k=20000))
    parts = split_to_fit(text, 2400)
    assert "".join(parts) == text and len(parts) > 20000 * 3 // 2400
    assert all(escaped_size(p) <= 2400 for p in parts)
