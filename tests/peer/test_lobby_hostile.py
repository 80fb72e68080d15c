"""The host's lobby against hostile joiners (issue 9, defect 11), on real sockets on 127.0.0.1:
a name holding a lone surrogate or terminal escapes, a bad charter signature, and strangers once
the seats are known."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import LinkDown, LinkUp, Received
from p2ptarot.peer.config import PeerConfig
from p2ptarot.peer.lobby import host_lobby
from p2ptarot.net.wsmesh import Mesh, MeshConfig
from p2ptarot.table import canonical
from p2ptarot.table.charter import Charter
from p2ptarot.table.lobby import sign_charter

pytestmark = pytest.mark.network
WAIT = 20.0


async def _next_ctl(mesh: Mesh, ctl: str) -> dict:
    async with asyncio.timeout(WAIT):
        while True:
            ev = await mesh.next_event()
            if isinstance(ev, Received):
                msg = canonical.decode(ev.data)
                if msg.get("ctl") == ctl:
                    return msg


async def test_hostile_joiner_name_and_bad_signature(tmp_path: Path) -> None:
    said: list[str] = []
    cfg = PeerConfig(data_dir=tmp_path, name="host", interface="127.0.0.1", say=said.append)
    host_id, joiner_id = Identity.generate(), Identity.generate()
    async with Mesh(host_id, MeshConfig()) as host, Mesh(joiner_id, MeshConfig()) as joiner, \
            Mesh(Identity.generate(), MeshConfig()) as stranger:
        lobby = asyncio.create_task(host_lobby(cfg, host, host_id, "sinople", None, 2))
        await asyncio.sleep(0)
        key = await joiner.connect(host.url)
        await stranger.connect(host.url)
        # the old host crashed on the surrogate (and printed the escapes raw)
        await joiner.send(key, b'{"ctl":"join","name":"\\ud800\\u001b[2J\\u001b]0;pwned\\u0007Eve",'
                               b'"address":"ws://x\\u001b[1m"}')
        msg = await _next_ctl(joiner, "charter")
        charter = Charter.model_validate(msg["charter"])
        assert charter.seats[1].name == "[2J]0;pwnedEve"
        assert charter.seats[1].address == "ws://x?[1m"
        # strangers are cut off as soon as the seats are known
        async with asyncio.timeout(WAIT):
            while not isinstance(await stranger.next_event(), LinkDown):
                pass
        # a bad signature is refused with a sentence (the old host raised a ValueError)
        await joiner.send(key, canonical.encode({"ctl": "sign", "sig": "A" * 86}))
        await joiner.send(key, canonical.encode({"ctl": "sign", "sig": ["not", "a", "sig"]}))
        async with asyncio.timeout(WAIT):
            while sum("invalid charter signature" in line for line in said) < 2:
                await asyncio.sleep(0.02)
        assert not lobby.done()
        await joiner.send(key, canonical.encode({"ctl": "sign",
                                                  "sig": sign_charter(charter, joiner_id)}))
        signed = await asyncio.wait_for(lobby, WAIT)
        signed.verify()
        assert signed.charter == charter
    assert all(line.isprintable() for line in said)
    assert any("seat 2: [2J]0;pwnedEve" in line for line in said)  # seats counted from 1
