"""The relay client against relays that enforce limits, as real relays do (a real `nostr-relay`
process on 127.0.0.1): a 4 KB cap on an event's content, a rate limit on events, a relay that
refuses our kinds.  The relay path still carries every frame in order and the player hears, in
one sentence, which relay did what; when no relay will carry anything, the pool fails (and
`host --online` says so and exits with status 3) well within a minute."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from online_servers import Relay, start_relay

from p2ptarot.cli.online import relay_sentence
from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import LinkDown, LinkUp, Received
from p2ptarot.net.nostr.event import make_event
from p2ptarot.net.nostr.keys import NostrKey
from p2ptarot.net.nostr.pool import RelayNotice, RelayPool
from p2ptarot.net.nostr.sizing import DEFAULT_CONTENT
from p2ptarot.net.online.config import OnlineConfig
from p2ptarot.net.online.mesh import OnlineMesh

pytestmark = pytest.mark.network
WAIT = 60.0
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    """The package's own 4096-character content cap, and the rig's usual rate limit."""
    server = start_relay(tmp_path_factory.mktemp("capped"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def throttled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    """A tight rate limit: 5 events a second from one address."""
    server = start_relay(tmp_path_factory.mktemp("throttled"), rate_limit="5/s")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def kinds_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    """A relay that stores text notes only (kind 1): it refuses our adverts and signals."""
    server = start_relay(tmp_path_factory.mktemp("kinds"),
                         extra_validators=["nostr_relay.validators.is_certain_kind"],
                         extra_config="valid_kinds: [1]\n")
    yield server
    server.stop()


async def _next(mesh: OnlineMesh, kind: type) -> object:
    async with asyncio.timeout(WAIT):
        while True:
            event = await mesh.next_event()
            if isinstance(event, kind):
                return event


async def test_a_relay_capped_at_4kb_carries_large_frames_and_says_why(capped: Relay) -> None:
    heard: list[RelayNotice] = []
    alice, bob = Identity.generate(), Identity.generate()
    config = OnlineConfig(relays=(capped.url,), transport="relay")
    a = OnlineMesh(alice, config)
    told = asyncio.Event()

    def hear(notice: RelayNotice) -> None:
        heard.append(notice)
        told.set()
    a.pool.on_notice = hear  # from the start: the cap probe may hear the refusal first
    async with a, OnlineMesh(bob, config) as b:
        assert await a.connect(b.url, expected_key=bob.public_bytes) == bob.public_bytes
        await _next(b, LinkUp)
        # quotes and accents: the cut must count escaped UTF-8 bytes, not characters
        # (random text: packets are deflated when that pays, and repeated text would shrink
        # to one event)
        rng = random.Random(7)
        frames = [json.dumps({"n": i, "pad": "".join(rng.choices('é"x\\abcdefghij0123456789',
                                                                  k=i * 12000))},
                             ensure_ascii=False).encode() for i in range(5)]
        for frame in frames:
            await a.send(bob.public_bytes, frame)
        got = [(await _next(b, Received)).data for _ in frames]
        assert got == frames
        async with asyncio.timeout(WAIT):  # the probe's refusal comes 2 s late
            while not any(n.what == "shrunk" for n in heard):
                told.clear()
                await told.wait()
    shrunk = [n for n in heard if n.what == "shrunk"]
    assert shrunk and shrunk[0].relay == capped.url and "invalid:" in shrunk[0].detail
    assert a.pool.content_cap() <= 4096
    sentence = relay_sentence(shrunk[0])
    assert capped.url in sentence and "280 characters" in sentence
    assert all(len(str(row["content"])) <= 4096 for row in capped.stored())


async def test_a_rate_limited_relay_still_carries_every_frame_in_order(
        throttled: Relay) -> None:
    heard: list[RelayNotice] = []
    alice, bob = Identity.generate(), Identity.generate()
    config = OnlineConfig(relays=(throttled.url,), transport="relay")
    async with OnlineMesh(alice, config) as a, OnlineMesh(bob, config) as b:
        a.pool.on_notice = heard.append
        await a.connect(b.url, expected_key=bob.public_bytes)
        await _next(b, LinkUp)
        frames = [json.dumps({"n": i}).encode() for i in range(40)]
        for frame in frames:  # one packet each: 40 events at 20/s against a 5/s limit
            await a.send(bob.public_bytes, frame)
            await asyncio.sleep(0.05)
        got = [(await _next(b, Received)).data for _ in frames]
        assert got == frames
    limited = [n for n in heard if n.what == "rate-limited"]
    assert limited and limited[0].relay == throttled.url
    assert "rate-limited" in relay_sentence(limited[0])


async def test_a_relay_refusing_our_kinds_is_dropped_and_the_pool_gives_up(
        kinds_only: Relay) -> None:
    heard: list[RelayNotice] = []
    key = NostrKey()
    start = time.monotonic()
    async with RelayPool([kinds_only.url], on_notice=heard.append) as pool:
        assert await pool.wait_connected(WAIT)
        await pool.publish(make_event(key, 21478, [["p", key.public_hex]], "x", int(time.time())))
        async with asyncio.timeout(WAIT):
            await pool.failed.wait()
        assert pool.usable() == []
    assert time.monotonic() - start < 60
    dropped = [n for n in heard if n.what == "dropped"]
    assert dropped and dropped[0].relay == kinds_only.url and "not allowed" in dropped[0].detail
    assert kinds_only.url in pool.failure and "not allowed" in pool.failure


async def test_an_accepting_relay_keeps_the_pool_alive_beside_a_refusing_one(
        kinds_only: Relay, capped: Relay) -> None:
    key = NostrKey()
    async with RelayPool([kinds_only.url, capped.url]) as pool:
        await pool.wait_connected(WAIT)
        async with asyncio.timeout(WAIT):
            while pool.connected < 2:
                await asyncio.sleep(0.1)
        await pool.subscribe("s", [{"kinds": [21478], "#p": [key.public_hex]}])
        event = make_event(key, 21478, [["p", key.public_hex]], "hello", int(time.time()))
        await pool.publish(event)
        got = await asyncio.wait_for(pool.next_event(), WAIT)
        assert got.event.id == event.id and got.relay == capped.url
        async with asyncio.timeout(WAIT):
            while pool.usable() != [capped.url]:
                await asyncio.sleep(0.1)
        assert not pool.failed.is_set()


def test_host_online_stops_with_a_sentence_when_no_relay_will_carry_the_table(
        kinds_only: Relay, tmp_path: Path) -> None:
    start = time.monotonic()
    host = subprocess.run(CLI + ["host", "--online", "--relay", kinds_only.url, "--relay-only",
                                 "--game", "paris-divins", "--seats", "3", "--bots", "1",
                                 "--data-dir", str(tmp_path / "a"), "--name", "Alice",
                                 "--bot", "random", "--quiet", "--lobby-timeout", "300"],
                          capture_output=True, text=True, timeout=120)
    assert host.returncode == 3, host.stderr[-2000:]
    assert time.monotonic() - start < 60
    assert f"relay {kinds_only.url} will not carry this table" in host.stderr
    assert "no relay will carry this table" in host.stderr and "not allowed" in host.stderr


async def test_the_cut_side_hears_link_down_before_a_close_that_blocks(capped: Relay) -> None:
    """aiortc's `pc.close()` blocks ~30 s while UDP is dead: the side whose pings went
    unanswered must emit the link-down first (the table then shows "disconnected —
    reconnecting" and wakes its healer), whatever the close does after."""
    alice, bob = Identity.generate(), Identity.generate()
    config = OnlineConfig(relays=(capped.url,), transport="relay")
    async with OnlineMesh(alice, config) as a, OnlineMesh(bob, config) as b:
        await a.connect(b.url, expected_key=bob.public_bytes)
        await _next(b, LinkUp)
        channel = a.channel(bob.public_bytes)
        closing = asyncio.Event()

        async def blocking_close() -> None:  # what pc.close() does with UDP dead
            closing.set()
            await asyncio.sleep(3600)
        channel.close = blocking_close  # type: ignore[method-assign]
        channel.mark_closed()  # as the pinger does after six silent pings
        down = await asyncio.wait_for(_next(a, LinkDown), 10)
        assert down.peer == bob.public_bytes
        assert a.peers() == []
        await asyncio.wait_for(closing.wait(), 10)  # the close still runs, in the background


async def test_a_link_on_two_relays_survives_one_killed_mid_stream(
        capped: Relay, tmp_path: Path) -> None:
    """Every event goes to both relays and is read from both (de-duplicated by id): killing
    one relay loses no frame."""
    doomed = start_relay(tmp_path / "doomed")
    try:
        alice, bob = Identity.generate(), Identity.generate()
        config = OnlineConfig(relays=(doomed.url, capped.url), transport="relay")
        async with OnlineMesh(alice, config) as a, OnlineMesh(bob, config) as b:
            async with asyncio.timeout(WAIT):
                while a.pool.connected < 2 or b.pool.connected < 2:
                    await asyncio.sleep(0.1)
            await a.connect(b.url, expected_key=bob.public_bytes)
            await _next(b, LinkUp)
            frames = [json.dumps({"n": i}).encode() for i in range(20)]
            for frame in frames[:10]:
                await a.send(bob.public_bytes, frame)
            got = [(await _next(b, Received)).data for _ in range(10)]
            doomed.stop()
            for frame in frames[10:]:
                await a.send(bob.public_bytes, frame)
                await asyncio.sleep(0.05)
            got += [(await _next(b, Received)).data for _ in range(10)]
            assert got == frames
            assert doomed.url in a.pool.status() and a.pool.status()[doomed.url] != "connected"
            assert not a.pool.failed.is_set() and not b.pool.failed.is_set()
    finally:
        doomed.stop()


async def test_each_relays_cap_is_probed_before_play_so_play_meets_no_size_refusal(
        capped: Relay, tmp_path: Path) -> None:
    """Neither relay publishes a limit: each gets one probe event on a connection of its own
    (a relay refusing an event for its size stalls the connection that sent it, 2 s for
    nostr-relay).  The 4 KB relay's refusal is heard and learnt, the 64 KB relay keeps the
    larger size, and the frames sent after that meet no refusal at all."""
    roomy = start_relay(tmp_path / "roomy", event_limit=65536)
    try:
        for relays, cap in (((capped.url,), 4096), ((roomy.url,), DEFAULT_CONTENT)):
            heard: list[RelayNotice] = []
            alice, bob = Identity.generate(), Identity.generate()
            config = OnlineConfig(relays=relays, transport="relay")
            a = OnlineMesh(alice, config)
            a.pool.on_notice = heard.append
            async with a, OnlineMesh(bob, config) as b:
                async with asyncio.timeout(WAIT):  # the probe's answer (a refusal: 2 s late)
                    while a.pool.content_cap() != cap or (cap == 4096 and not heard):
                        await asyncio.sleep(0.05)  # (4096 too while the probe is out)
                assert [n.what for n in heard] == (["shrunk"] if cap == 4096 else [])
                await a.connect(b.url, expected_key=bob.public_bytes)
                await _next(b, LinkUp)
                rng = random.Random(3)
                frames = [json.dumps({"n": i, "pad": "".join(rng.choices("abcdef0123", k=40000))}
                                     ).encode() for i in range(3)]
                for frame in frames:
                    await a.send(bob.public_bytes, frame)
                assert [(await _next(b, Received)).data for _ in frames] == frames
                assert a.pool.refused == []  # nothing in play was refused
                assert a.pool.content_cap() == cap
        contents = [len(str(row["content"])) for row in roomy.stored()]
        assert max(contents) > 4096  # the roomy relay carried events larger than the 4 KB cap
    finally:
        roomy.stop()
