"""Real-socket tests of the websocket mesh on 127.0.0.1."""

from __future__ import annotations

import asyncio
import itertools
import json
import os

import aiohttp
import pytest

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.crypto.signing import Identity
from p2ptarot.net.errors import ConnectError, HandshakeError, MessageTooLarge, NoLinkError
from p2ptarot.net.events import FrameDropped, LinkDown, LinkRejected, LinkUp, Received
from p2ptarot.net.handshake import (
    CLOSE_BAD_FRAMES,
    CLOSE_BAD_HELLO,
    CLOSE_BAD_SIGNATURE,
    CLOSE_DUPLICATE,
    CLOSE_REPLACED,
    CLOSE_SELF,
    CLOSE_TIMEOUT,
    CLOSE_UNEXPECTED_KEY,
    CLOSE_VERSION,
    INSTANCE_SIZE,
    Hello,
    READY,
    check_proof,
    check_ready,
    make_proof,
    parse_hello,
)
from p2ptarot.net.wsmesh import CLOSE_GOING_AWAY, CLOSE_MESSAGE_TOO_BIG, MeshConfig

pytestmark = pytest.mark.network


def msg(**fields: object) -> bytes:
    return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()


def is_up(peer: bytes):
    return lambda e: isinstance(e, LinkUp) and e.peer == peer


def is_down(peer: bytes):
    return lambda e: isinstance(e, LinkDown) and e.peer == peer


def received(event: object) -> bool:
    return isinstance(event, Received)


class BadSigner:
    """Presents a real key but signs garbage: must fail proof of possession."""

    def __init__(self) -> None:
        self.public_bytes = Identity.generate().public_bytes

    def sign(self, data: bytes) -> bytes:
        return os.urandom(64)


async def test_three_peers_full_mesh_send_and_broadcast(make_mesh, wait_for, until) -> None:
    a, b, c = [await make_mesh() for _ in range(3)]
    assert await a.connect(b.url) == b.public_key
    assert await a.connect(c.url, expected_key=c.public_key) == c.public_key
    assert await b.connect(c.url) == c.public_key
    meshes = (a, b, c)
    await until(lambda: all(len(m.peers()) == 2 for m in meshes))
    for m in meshes:
        assert set(m.peers()) == {x.public_key for x in meshes} - {m.public_key}

    # Unicast in both directions on every link.
    for sender, receiver in itertools.permutations(meshes, 2):
        payload = msg(frm=sender.public_key.hex(), to=receiver.public_key.hex())
        await sender.send(receiver.public_key, payload)
        event = await wait_for(receiver, received)
        assert event == Received(sender.public_key, payload)

    # Broadcast from each reaches exactly the two others.
    for sender in meshes:
        payload = msg(broadcast=sender.public_key.hex(), text="é ♥")
        sent_to = await sender.broadcast(payload)
        assert set(sent_to) == {m.public_key for m in meshes} - {sender.public_key}
        for receiver in meshes:
            if receiver is not sender:
                event = await wait_for(receiver, received)
                assert event == Received(sender.public_key, payload)

    # Graceful close: the others see the link go down with 1001 "shutdown".
    await c.close()
    for m in (a, b):
        down = await wait_for(m, is_down(c.public_key))
        assert (down.code, down.reason) == (CLOSE_GOING_AWAY, "shutdown")
        assert c.public_key not in m.peers()
    with pytest.raises(NoLinkError):
        await a.send(c.public_key, msg(x=1))


async def test_oversize_message_closes_link_receiver_survives(make_mesh, wait_for) -> None:
    receiver = await make_mesh(max_message_size=1024)
    sender = await make_mesh(max_message_size=64 * 1024)
    await sender.connect(receiver.url)
    await wait_for(receiver, is_up(sender.public_key))

    await sender.send(receiver.public_key, msg(blob="x" * 4000))
    down = await wait_for(receiver, is_down(sender.public_key))
    assert down.code == CLOSE_MESSAGE_TOO_BIG
    assert down.reason == "message too big"
    sender_down = await wait_for(sender, is_down(receiver.public_key))
    assert sender_down.code == CLOSE_MESSAGE_TOO_BIG
    assert receiver.peers() == []

    # The receiver keeps serving: the same peer reconnects and small messages flow.
    await sender.connect(receiver.url)
    await sender.send(receiver.public_key, msg(small=True))
    assert await wait_for(receiver, received) == Received(sender.public_key, msg(small=True))


async def test_send_refuses_oversize_and_non_utf8_locally(make_mesh) -> None:
    a = await make_mesh(max_message_size=1024)
    b = await make_mesh()
    await a.connect(b.url)
    with pytest.raises(MessageTooLarge):
        await a.send(b.public_key, msg(blob="y" * 2000))
    with pytest.raises(MessageTooLarge):
        await a.broadcast(msg(blob="y" * 2000))
    with pytest.raises(ValueError):
        await a.send(b.public_key, b"\xff\xfe")
    assert a.peers() == [b.public_key]


async def test_bad_signature_is_rejected(make_mesh, wait_for) -> None:
    honest = await make_mesh()
    liar = await make_mesh(identity=BadSigner())
    with pytest.raises(HandshakeError) as info:
        await liar.connect(honest.url)
    assert info.value.code == CLOSE_BAD_SIGNATURE
    assert info.value.reason == "bad signature"
    rejected = await wait_for(honest, lambda e: isinstance(e, LinkRejected))
    assert (rejected.code, rejected.reason) == (CLOSE_BAD_SIGNATURE, "bad signature")
    assert honest.peers() == [] and liar.peers() == []

    # Same when the liar is the one being dialled.
    with pytest.raises(HandshakeError) as info:
        await honest.connect(liar.url)
    assert info.value.code == CLOSE_BAD_SIGNATURE
    assert honest.peers() == []


async def test_version_mismatch_is_rejected(make_mesh) -> None:
    old = await make_mesh(protocol_version=1)
    new = await make_mesh(protocol_version=2)
    with pytest.raises(HandshakeError) as info:
        await new.connect(old.url)
    assert info.value.code == CLOSE_VERSION
    assert "version" in info.value.reason
    assert old.peers() == [] and new.peers() == []


async def test_pinned_key_mismatch_and_self_connection_are_rejected(make_mesh) -> None:
    a = await make_mesh()
    b = await make_mesh()
    with pytest.raises(HandshakeError) as info:
        await a.connect(b.url, expected_key=os.urandom(32))
    assert info.value.code == CLOSE_UNEXPECTED_KEY
    with pytest.raises(HandshakeError) as info:
        await a.connect(a.url)
    assert info.value.code == CLOSE_SELF
    assert a.peers() == [] and b.peers() == []


async def test_admission_list_refuses_strangers_both_ways(make_mesh) -> None:
    host = await make_mesh()
    member = await make_mesh()
    stranger = await make_mesh()
    host.admit_only([member.public_key])
    with pytest.raises(HandshakeError) as info:
        await stranger.connect(host.url)
    assert info.value.code == CLOSE_UNEXPECTED_KEY
    assert info.value.reason == "not a member of this table"
    with pytest.raises(HandshakeError):
        await host.connect(stranger.url)
    assert await member.connect(host.url) == host.public_key
    host.admit_only(None)
    assert await stranger.connect(host.url) == host.public_key


async def test_disconnect_reports_reason_to_both_sides(make_mesh, wait_for) -> None:
    a = await make_mesh()
    b = await make_mesh()
    await a.connect(b.url)
    await wait_for(b, is_up(a.public_key))
    await a.disconnect(b.public_key, reason="seat left the table")
    mine = await wait_for(a, is_down(b.public_key))
    theirs = await wait_for(b, is_down(a.public_key))
    assert mine.reason == theirs.reason == "seat left the table"
    assert mine.code == theirs.code == CLOSE_GOING_AWAY
    assert a.peers() == [] and b.peers() == []
    await a.disconnect(b.public_key)  # no link: no error


async def test_connect_errors_and_unknown_peer(make_mesh) -> None:
    a = await make_mesh()
    b = await make_mesh()
    dead_url = b.url
    await b.close()
    with pytest.raises(ConnectError):
        await a.connect(dead_url)
    with pytest.raises(ConnectError):
        await a.connect("http://127.0.0.1:1/not-ws")
    with pytest.raises(NoLinkError):
        await a.send(os.urandom(32), msg(x=1))
    assert await a.broadcast(msg(x=1)) == []


async def test_restarted_peer_replaces_stale_link(make_mesh, wait_for) -> None:
    identity = Identity.generate()
    host = await make_mesh()
    first = await make_mesh(identity=identity)
    await host.connect(first.url)
    await wait_for(host, is_up(identity.public_bytes))

    # The peer restarts while the host still believes the old link is alive (half-open):
    # same key, new process instance, dialling back in.
    second = await make_mesh(identity=identity)
    assert await second.connect(host.url) == host.public_key
    up = await wait_for(host, is_up(identity.public_bytes))
    assert up.replaced and not up.dialed
    old_down = await wait_for(first, is_down(host.public_key))
    assert old_down.code == CLOSE_REPLACED
    assert host.peers() == [identity.public_bytes]

    await host.send(identity.public_bytes, msg(to="second"))
    assert await wait_for(second, received) == Received(host.public_key, msg(to="second"))
    await second.send(host.public_key, msg(back=1))
    assert await wait_for(host, received) == Received(identity.public_bytes, msg(back=1))
    # The superseded link produced no LinkDown on the host.
    assert not any(isinstance(e, LinkDown) for e in host.drain_events())


async def test_clean_restart_link_down_then_up(make_mesh, wait_for) -> None:
    identity = Identity.generate()
    host = await make_mesh()
    first = await make_mesh(identity=identity)
    await first.connect(host.url)
    await wait_for(host, is_up(identity.public_bytes))
    await first.close()
    await wait_for(host, is_down(identity.public_bytes))
    second = await make_mesh(identity=identity)
    await second.connect(host.url)
    up = await wait_for(host, is_up(identity.public_bytes))
    assert not up.replaced
    await host.send(identity.public_bytes, msg(hi=2))
    assert await wait_for(second, received) == Received(host.public_key, msg(hi=2))


async def test_simultaneous_dials_converge_on_one_link(make_mesh, wait_for, until) -> None:
    a = await make_mesh()
    b = await make_mesh()
    results = await asyncio.gather(a.connect(b.url), b.connect(a.url), return_exceptions=True)
    assert list(results) == [b.public_key, a.public_key]
    smaller = min(a.public_key, b.public_key)
    # Both ends keep the link dialled by the smaller key.
    await until(
        lambda: a.peers() == [b.public_key]
        and b.peers() == [a.public_key]
        and a.links()[b.public_key].dialed == (a.public_key == smaller)
        and b.links()[a.public_key].dialed == (b.public_key == smaller)
    )
    await a.send(b.public_key, msg(n=1))
    assert await wait_for(b, received) == Received(a.public_key, msg(n=1))
    await b.send(a.public_key, msg(n=2))
    assert await wait_for(a, received) == Received(b.public_key, msg(n=2))


async def test_redial_same_instance_newer_link_wins(make_mesh, wait_for) -> None:
    a = await make_mesh()
    b = await make_mesh()
    await a.connect(b.url)
    await wait_for(b, is_up(a.public_key))
    await a.connect(b.url)  # reconnect on demand while the old link is open
    up = await wait_for(b, is_up(a.public_key))
    assert up.replaced
    assert a.peers() == [b.public_key] and b.peers() == [a.public_key]
    await a.send(b.public_key, msg(after="redial"))
    assert await wait_for(b, received) == Received(a.public_key, msg(after="redial"))


async def _raw_handshake(
    url: str, session: aiohttp.ClientSession, identity: Identity, autoping: bool = True
):
    """A second, independent implementation of the hello handshake (interop check)."""
    ws = await session.ws_connect(url, autoping=autoping)
    mine = Hello.fresh(PROTOCOL_VERSION, identity.public_bytes, os.urandom(INSTANCE_SIZE))
    await ws.send_str(mine.encode())
    theirs = parse_hello((await ws.receive()).data)
    await ws.send_str(make_proof(identity, mine, theirs))
    check_proof((await ws.receive()).data, mine, theirs)
    await ws.send_str(READY)
    check_ready((await ws.receive()).data)
    return ws, theirs


async def test_garbage_frames_from_authenticated_peer_are_dropped(make_mesh, wait_for) -> None:
    mesh = await make_mesh()
    identity = Identity.generate()
    async with aiohttp.ClientSession() as session:
        ws, theirs = await _raw_handshake(mesh.url, session, identity)
        assert theirs.key == mesh.public_key
        await wait_for(mesh, is_up(identity.public_bytes))
        await ws.send_str("not json {")
        await ws.send_str("[1, 2, 3]")
        await ws.send_bytes(b'{"binary": true}')
        await ws.send_str('{"ok": 1}')
        drops = [await wait_for(mesh, lambda e: True) for _ in range(3)]
        assert all(isinstance(d, FrameDropped) and d.peer == identity.public_bytes for d in drops)
        assert [d.reason for d in drops] == [
            "frame is not valid JSON",
            "frame is not a JSON object",
            "binary frame (expected UTF-8 JSON text)",
        ]
        assert await mesh.next_event() == Received(identity.public_bytes, b'{"ok": 1}')
        # Invalid UTF-8 in a text frame is a protocol error: link closed, mesh fine.
        await ws._writer.send_frame(b"\xff\xfe", aiohttp.WSMsgType.TEXT)  # noqa: SLF001
        down = await wait_for(mesh, is_down(identity.public_bytes))
        assert down.code is not None
        await ws.close()
    assert mesh.peers() == []


async def test_garbage_flood_cuts_the_peer_off(make_mesh, wait_for) -> None:
    mesh = await make_mesh(max_dropped_frames=5)
    identity = Identity.generate()
    async with aiohttp.ClientSession() as session:
        ws, _ = await _raw_handshake(mesh.url, session, identity)
        for i in range(10):
            await ws.send_str(f"junk {i}")
        down = await wait_for(mesh, is_down(identity.public_bytes))
        assert (down.code, down.reason) == (CLOSE_BAD_FRAMES, "too many malformed frames")
        closing = await ws.receive()
        assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, CLOSE_BAD_FRAMES)
        await ws.close()


async def test_heartbeat_detects_a_silent_peer(make_mesh, wait_for) -> None:
    mesh = await make_mesh(heartbeat=0.1)
    identity = Identity.generate()
    async with aiohttp.ClientSession() as session:
        # A peer that completes the handshake and then never answers pings.
        ws, _ = await _raw_handshake(mesh.url, session, identity, autoping=False)
        down = await wait_for(mesh, is_down(identity.public_bytes))
        assert down.reason == "heartbeat timeout"
        assert mesh.peers() == []
        await ws.close()


async def test_garbage_hello_is_rejected(make_mesh, wait_for) -> None:
    mesh = await make_mesh()
    async with aiohttp.ClientSession() as session:
        for garbage in ("hello?", '{"hello": "1"}', '{"hello": 1, "key": "AAAA"}', "[]"):
            ws = await session.ws_connect(mesh.url)
            await ws.receive()  # the mesh's own hello
            await ws.send_str(garbage)
            closing = await ws.receive()
            assert closing.type is aiohttp.WSMsgType.CLOSE
            assert closing.data == CLOSE_BAD_HELLO
            rejected = await wait_for(mesh, lambda e: isinstance(e, LinkRejected))
            assert rejected.code == CLOSE_BAD_HELLO
            await ws.close()
    assert mesh.peers() == []


async def test_silent_peer_times_out_in_handshake(make_mesh, wait_for) -> None:
    mesh = await make_mesh(handshake_timeout=0.2)
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(mesh.url)
        await ws.receive()  # hello, then say nothing
        closing = await ws.receive()
        assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, CLOSE_TIMEOUT)
        rejected = await wait_for(mesh, lambda e: isinstance(e, LinkRejected))
        assert rejected.reason == "handshake timed out"
        await ws.close()


async def test_pending_connections_are_capped_oldest_first(make_mesh, wait_for) -> None:
    """Silent half-open upgrades cannot lock an honest peer out: a newcomer over the cap closes
    the oldest pending connection (the old build answered 503 until the silent ones timed out)."""
    mesh = await make_mesh(max_pending_handshakes=2, handshake_timeout=30)
    identity = Identity.generate()
    async with aiohttp.ClientSession() as session:
        silent = [await session.ws_connect(mesh.url) for _ in range(2)]  # never say hello
        for ws in silent:
            await ws.receive()  # the mesh's hello: both are in the handshake
        ws, theirs = await _raw_handshake(mesh.url, session, identity)  # at once, no retry
        assert theirs.key == mesh.public_key
        rejected = await wait_for(mesh, lambda e: isinstance(e, LinkRejected))
        assert rejected.reason == "too many pending connections (oldest closed)"
        await wait_for(mesh, is_up(identity.public_bytes))
        first = await silent[0].receive()
        assert first.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                              aiohttp.WSMsgType.ERROR)
        await ws.close()
        for old in silent:
            await old.close()


async def test_connection_that_never_upgrades_is_closed(make_mesh) -> None:
    """A plain TCP connection that sends nothing (or half a request line) is closed at the
    deadline: the old build kept it open forever (slowloris)."""
    mesh = await make_mesh(handshake_timeout=0.2, close_timeout=0.2)
    for payload in (b"", b"GET /p2ptarot HTTP/1.1\r\nHost: x\r\n"):
        reader, writer = await asyncio.open_connection("127.0.0.1", mesh.port)
        writer.write(payload)
        async with asyncio.timeout(10):
            rest = await reader.read()  # returns at EOF or raises on reset
        assert rest == b""
        writer.close()


def test_config_refuses_a_limit_below_the_handshake() -> None:
    with pytest.raises(ValueError):
        MeshConfig(max_message_size=100)


def test_close_codes_are_distinct() -> None:
    codes = [CLOSE_BAD_FRAMES, CLOSE_BAD_HELLO, CLOSE_VERSION, CLOSE_BAD_SIGNATURE,
             CLOSE_UNEXPECTED_KEY, CLOSE_SELF, CLOSE_REPLACED, CLOSE_DUPLICATE, CLOSE_TIMEOUT]
    assert len(set(codes)) == len(codes)
    assert all(4000 <= c < 5000 for c in codes)
