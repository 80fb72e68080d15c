"""The relay path and the adverts against a real `nostr-relay` process on 127.0.0.1 (no
WebRTC here: ICE runs only inside namespaces): links authenticate with the hello handshake,
carry large frames in order, refuse an unexpected key; adverts list, are found by code, and
are withdrawn at close; a squatted code is ignored and a code two hosts claim refused."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest
from online_servers import Relay, start_relay

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.errors import ConnectError, HandshakeError
from p2ptarot.net.events import LinkUp, Received
from p2ptarot.net.nostr import adverts
from p2ptarot.net.nostr.adverts import address_of, code_of, make_advert
from p2ptarot.net.nostr.event import make_event
from p2ptarot.net.nostr.keys import NostrKey
from p2ptarot.net.nostr.pool import RelayPool
from p2ptarot.net.online.config import OnlineConfig
from p2ptarot.net.online.finder import CodeClash, browse_online, find_code
from p2ptarot.net.online.mesh import OnlineMesh
from p2ptarot.net.online.transport import OnlineTransport, nostr_key_for
from p2ptarot.net.txt import TableInfo, encode_txt

pytestmark = pytest.mark.network
WAIT = 30.0


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    """One relay process for the module (it takes seconds to start; tests use their own keys)."""
    server = start_relay(tmp_path_factory.mktemp("relay"))
    yield server
    server.stop()


def _config(relay: Relay) -> OnlineConfig:
    return OnlineConfig(relays=(relay.url,), transport="relay")


async def _next(mesh: OnlineMesh, kind: type) -> object:
    async with asyncio.timeout(WAIT):
        while True:
            event = await mesh.next_event()
            if isinstance(event, kind):
                return event


async def test_relay_link_carries_large_frames_in_order(relay: Relay) -> None:
    alice, bob = Identity.generate(), Identity.generate()
    async with OnlineMesh(alice, _config(relay)) as a, OnlineMesh(bob, _config(relay)) as b:
        assert await a.connect(b.url, expected_key=bob.public_bytes) == bob.public_bytes
        up = await _next(b, LinkUp)
        assert up.peer == alice.public_bytes and up.address.startswith("relay ")
        frames = [json.dumps({"n": i, "pad": "x" * (i * 30000)}).encode() for i in range(5)]
        for frame in frames:
            await a.send(bob.public_bytes, frame)
        got = [(await _next(b, Received)).data for _ in frames]
        assert got == frames
        assert a.paths()[bob.public_bytes][0] == "relay"
    secrets = [json.dumps({"n": 1})[:6]]
    contents = " ".join(str(row["content"]) for row in relay.stored())
    assert '"pad"' not in contents and "xxxxxxxx" not in contents and secrets


async def test_a_pinned_key_that_does_not_answer_is_refused(relay: Relay) -> None:
    async with OnlineMesh(Identity.generate(), _config(relay)) as a, \
            OnlineMesh(Identity.generate(), _config(relay)) as b:
        with pytest.raises(HandshakeError):
            await a.connect(b.url, expected_key=Identity.generate().public_bytes)
        assert a.peers() == []


async def test_adverts_are_listed_found_by_code_and_withdrawn(relay: Relay) -> None:
    host = Identity.generate()
    info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=4,
                     fingerprint=host.fingerprint, host_name="Alice")
    transport = OnlineTransport(_config(relay))
    async with transport.open(host) as links:
        advert = transport.advert(info, links)
        await advert.start()
        assert advert.code == code_of(nostr_key_for(host).public_hex)
        found = await find_code([relay.url], advert.code, wait=WAIT)
        assert found is not None and found.table == info and found.address == links.url
        await advert.update(seats_taken=2)
        listed = await browse_online([relay.url], wait=2.0)
        assert [(t.code, t.table.seats_taken) for t in listed] == [(advert.code, 2)]
        await advert.close()
        await asyncio.sleep(2.1)  # the withdrawn advert expires a second after it was sent
        assert await browse_online([relay.url], wait=2.0) == []


async def test_a_squatted_code_is_ignored_and_a_code_two_hosts_claim_is_refused(
        relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    """Anyone can publish an advert carrying someone else's code: one whose author does not hash
    to the code is ignored, so the joiner gets the real host and its fingerprint.  A squatter who
    ground a key for the code (2^50 work, simulated by patching `code_of` for its key) is refused
    outright: the joiner cannot tell which of the two is the host."""
    host, squatter = NostrKey(), NostrKey()
    real_info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=4,
                          fingerprint=Identity.generate().fingerprint, host_name="Alice")
    fake_info = replace(real_info, fingerprint=Identity.generate().fingerprint)
    code, now = code_of(host.public_hex), int(time.time())
    real = make_advert(host, real_info, now)
    forged = make_event(squatter, real.kind, [list(t) for t in real.tags],
                        json.dumps(encode_txt(fake_info)), now + 1)
    async with RelayPool([relay.url]) as pool:
        assert await pool.wait_connected(WAIT) == 1
        assert await pool.publish(real) == 1 and await pool.publish(forged) == 1
    assert fake_info.fingerprint in " ".join(str(r["content"]) for r in relay.stored())  # served
    found = await find_code([relay.url], code, wait=WAIT)
    assert found is not None and found.address == address_of(host.public_hex)
    assert found.table.fingerprint == real_info.fingerprint

    true_code_of = adverts.code_of
    monkeypatch.setattr(adverts, "code_of",
                        lambda key: code if key == squatter.public_hex else true_code_of(key))
    ground = make_advert(squatter, fake_info, now + 2)
    assert ground.tag("d") == code
    async with RelayPool([relay.url]) as pool:
        assert await pool.wait_connected(WAIT) == 1
        assert await pool.publish(ground) == 1
    with pytest.raises(CodeClash, match="2 different hosts advertise the code"):
        await find_code([relay.url], code, wait=WAIT)


def test_the_nostr_key_is_stable_per_identity() -> None:
    identity = Identity.generate()
    assert nostr_key_for(identity).public_hex == nostr_key_for(identity).public_hex
    assert nostr_key_for(identity).public_hex != nostr_key_for(Identity.generate()).public_hex


async def test_strangers_on_the_relay_cannot_break_or_join_a_link(relay: Relay) -> None:
    """Junk, undecryptable and misaddressed signals, and frames injected into a live relay-borne
    link by a third key, are ignored; the link keeps working and delivers only its own frames."""
    from p2ptarot.net.nostr.event import make_event
    from p2ptarot.net.nostr.keys import NostrKey
    from p2ptarot.net.nostr.pool import RelayPool
    from p2ptarot.net.nostr.signal import SIGNAL_KIND, Signal, seal

    alice, bob = Identity.generate(), Identity.generate()
    async with OnlineMesh(alice, _config(relay)) as a, OnlineMesh(bob, _config(relay)) as b, \
            RelayPool([relay.url]) as eve_pool:
        await a.connect(b.url, expected_key=bob.public_bytes)
        await _next(b, LinkUp)
        (link_id,) = list(b._relays)  # the live link's id (a relay could guess it: it cannot)
        eve = NostrKey()
        await eve_pool.wait_connected(WAIT)
        now = int(__import__("time").time())
        junk = [
            make_event(eve, SIGNAL_KIND, [["p", b.nostr.public_hex], ["expiration", str(now + 60)]],
                       "not nip44", now),
            seal(eve, b.nostr.public_hex, Signal("", "data", link_id, seq=1, part=0, parts=1,
                                                 body='{"evil":1}'), now),
            seal(eve, b.nostr.public_hex, Signal("", "offer", "ee" * 16, sdp="v=0 junk"), now),
            seal(eve, a.nostr.public_hex, Signal("", "bye", link_id), now),
        ]
        for event in junk:
            assert await eve_pool.publish(event) == 1
        await a.send(bob.public_bytes, b'{"n":"after the junk"}')
        got = await _next(b, Received)
        assert got.data == b'{"n":"after the junk"}' and got.peer == alice.public_bytes
        assert a.peers() == [bob.public_bytes] and b.peers() == [alice.public_bytes]


async def test_a_burst_of_small_frames_travels_in_few_events(relay: Relay) -> None:
    alice, bob = Identity.generate(), Identity.generate()
    async with OnlineMesh(alice, _config(relay)) as a, OnlineMesh(bob, _config(relay)) as b:
        await a.connect(b.url, expected_key=bob.public_bytes)
        frames = [json.dumps({"n": i}).encode() for i in range(50)]
        for frame in frames:
            await a.send(bob.public_bytes, frame)
        assert [(await _next(b, Received)).data for _ in frames] == frames
        packets = a.channel(bob.public_bytes).packets_sent  # handshake included
        assert packets < 10, packets


async def test_a_peer_leaving_right_after_sending_delivers_everything(relay: Relay) -> None:
    """A peer that queues frames and closes at once (the `done` that ends a table) drains its
    rate-limited relay queue first, and its `bye` counts the packets, so the other end reads
    them all before the link goes down (the bucket is made tiny: the queue is long at close)."""
    from p2ptarot.net.events import LinkDown
    alice, bob = Identity.generate(), Identity.generate()
    slow = OnlineConfig(relays=(relay.url,), transport="relay", relay_rate=4.0, relay_burst=1,
                        relay_chunk=1000)
    async with OnlineMesh(bob, _config(relay)) as b:
        a = OnlineMesh(alice, slow)
        await a.start()
        await a.connect(b.url, expected_key=bob.public_bytes)
        await _next(b, LinkUp)
        frames = [json.dumps({"n": i, "pad": "y" * 900}).encode() for i in range(8)]
        for frame in frames:
            await a.send(bob.public_bytes, frame)
        await a.close()  # at once: most packets are still queued behind the token bucket
        got: list[bytes] = []
        try:
            async with asyncio.timeout(WAIT):
                while True:
                    event = await b.next_event()
                    if isinstance(event, Received):
                        got.append(event.data)
                    elif isinstance(event, LinkDown):
                        break
        except TimeoutError:  # what came, and what the relay said, for the one who reads this
            log = relay.log.read_text(errors="replace")[-3000:] if relay.log.exists() else ""
            pytest.fail(f"no LinkDown within {WAIT} s; {len(got)} of {len(frames)} frames came; "
                        f"the relay's log ends with:\n{log}")
        assert got == frames


async def test_a_dial_whose_peer_linked_meanwhile_does_not_fall_back_to_the_relays(
        relay: Relay) -> None:
    """Both ends of a cut link dial again (PROTOCOL §8); when one side's WebRTC attempts run out
    after the other side's dial healed the link, that side gives up instead of opening a link
    over the relays (which, dialled by the smaller key, would replace the healed link: the table
    moved onto the relays). ICE does not run on 127.0.0.1: the WebRTC attempts are replaced by
    a wait during which the peer dials us, and then find nothing, as they would across a cut."""
    alice, bob = Identity.generate(), Identity.generate()
    auto = replace(_config(relay), transport="auto")
    async with OnlineMesh(alice, auto) as a, OnlineMesh(bob, _config(relay)) as b:
        async def attempts_that_run_out(peer: str) -> None:
            assert await b.connect(a.url, expected_key=alice.public_bytes) == alice.public_bytes
            assert (await _next(a, LinkUp)).peer == bob.public_bytes
        a._dial_rtc = attempts_that_run_out  # type: ignore[method-assign]  # WebRTC stands aside on 127.0.0.1
        with pytest.raises(ConnectError):
            await a.connect(b.url, expected_key=bob.public_bytes)
        assert a.peers() == [bob.public_bytes] and not a.links()[bob.public_bytes].dialed
        assert len(a._relays) == 1  # the link bob dialled, and no other
        await a.send(bob.public_bytes, b'{"still": "linked"}')
        assert (await _next(b, Received)).data == b'{"still": "linked"}'
