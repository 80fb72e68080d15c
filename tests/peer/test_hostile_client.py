"""A hostile client against a hosted table, on real sockets on 127.0.0.1 (issue 9): idle TCP
connections, a slowloris request, more silent websocket upgrades than the host admits, garbage
and oversize frames, a flood, sync requests, and a stranger who comes back mid-game. The honest
joiner still gets in at once, the game plays to its end, the strangers receive nothing of it, and
the transcript verifies."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

import aiohttp
import pytest

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.bots import make as make_bot
from p2ptarot.crypto.signing import Identity
from p2ptarot.net.errors import HandshakeError
from p2ptarot.net.events import LinkDown, Received
from p2ptarot.net.handshake import (CLOSE_UNEXPECTED_KEY, INSTANCE_SIZE, READY, Hello,
                                    check_proof, check_ready, make_proof, parse_hello)
from p2ptarot.peer.config import PeerConfig
from p2ptarot.peer.run import bot_chooser, run_host, run_join
from p2ptarot.peer.store import read_transcript
from p2ptarot.net.wsmesh import Mesh, MeshConfig
from p2ptarot.transcript import verify_transcript

pytestmark = [pytest.mark.network, pytest.mark.slow]
WAIT = 120.0  # safety net against a hang, never asserted on


async def _authenticated_ws(url: str, session: aiohttp.ClientSession, identity: Identity):
    """A raw websocket through the hello handshake (so it can send what a Mesh would refuse)."""
    ws = await session.ws_connect(url, max_msg_size=0)
    mine = Hello.fresh(PROTOCOL_VERSION, identity.public_bytes, os.urandom(INSTANCE_SIZE))
    await ws.send_str(mine.encode())
    theirs = parse_hello((await ws.receive()).data)
    await ws.send_str(make_proof(identity, mine, theirs))
    check_proof((await ws.receive()).data, mine, theirs)
    await ws.send_str(READY)
    check_ready((await ws.receive()).data)
    return ws


async def _flood(ws: aiohttp.ClientWebSocketResponse) -> int:
    sent = 0
    with contextlib.suppress(Exception):
        for i in range(5000):
            await ws.send_str('{"ctl":"sync","step":0}' if i % 2 else '{"junk":%d}' % i)
            sent += 1
    return sent


async def test_hostile_client_cannot_stop_a_table(tmp_path: Path) -> None:
    def cfg(name: str) -> PeerConfig:
        return PeerConfig(data_dir=tmp_path / name, name=name, interface="127.0.0.1",
                          timeout=60, linger=0.5)

    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(run_host(cfg("host"), "sinople", None, 2,
                                        bot_chooser(make_bot("random", 1)),
                                        on_listening=listening.set_result))
    url = await asyncio.wait_for(listening, WAIT)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    async with aiohttp.ClientSession() as http:
        # idle TCP connections and a slowloris request that never ends its headers
        idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(8)]
        slow_reader, slow_writer = await asyncio.open_connection("127.0.0.1", port)
        slow_writer.write(b"GET /p2ptarot HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        # more silent websocket upgrades than the host keeps pending (32)
        silent = [await http.ws_connect(url) for _ in range(40)]
        # an authenticated stranger: garbage, a lone surrogate, an oversize frame, then a flood
        stranger_id = Identity.generate()
        rude = await _authenticated_ws(url, http, stranger_id)
        for frame in ("not json", "[1,2]", '{"a":"\\ud800"}', '{"a":' + "9" * 5000 + "}",
                      "[" * 100_000, '{"ctl":"sync","step":-1}', '{"ctl":"charter"}'):
            await rude.send_str(frame)
        oversize = await _authenticated_ws(url, http, Identity.generate())
        with contextlib.suppress(ConnectionError):  # the host may cut it off mid-frame
            await oversize.send_str('{"pad":"' + "x" * (5 * 1024 * 1024) + '"}')
        closing = await asyncio.wait_for(oversize.receive(), WAIT)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                aiohttp.WSMsgType.ERROR)
        flood = asyncio.create_task(_flood(rude))
        watcher = Mesh(Identity.generate(), MeshConfig())  # a stranger who only listens
        await watcher.start()
        await watcher.connect(url)

        # the honest joiner gets in despite all that, and the game is played
        joiner = asyncio.create_task(run_join(cfg("joiner"), url, None,
                                              bot_chooser(make_bot("random", 2))))
        transcript_dir = tmp_path / "host" / "tables"
        async with asyncio.timeout(WAIT):
            while not any(transcript_dir.glob("*/transcript.jsonl")):
                await asyncio.sleep(0.05)
        # mid-game, strangers are refused at the handshake and the early ones were cut off
        late = Mesh(Identity.generate(), MeshConfig())
        await late.start()
        with pytest.raises(HandshakeError) as refused:
            await late.connect(url)
        await late.close()
        assert refused.value.code == CLOSE_UNEXPECTED_KEY

        host_result, joiner_result = await asyncio.wait_for(asyncio.gather(host, joiner), WAIT)
        flood.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flood

        seen = watcher.drain_events()
        await watcher.close()
        assert not any(isinstance(e, Received) for e in seen)  # nothing of the game reached it
        assert any(isinstance(e, LinkDown) for e in seen)
        # every socket the attacker left open was closed by the host
        for reader, writer in idle + [(slow_reader, slow_writer)]:
            with contextlib.suppress(ConnectionError):
                assert await asyncio.wait_for(reader.read(), WAIT) == b""
            writer.close()
        for ws in silent:
            await ws.close()
        await rude.close()

    assert host_result.outcome is not None and host_result.aborted is None
    assert joiner_result.outcome == host_result.outcome
    verdict = verify_transcript(read_transcript(host_result.transcript))
    assert verdict.valid, verdict.reason
