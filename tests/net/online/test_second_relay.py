"""The relay client against a second relay implementation with limits of its own: rust-nostr's
`LocalRelay` (the `nostr-sdk` bindings, tests/support/sdk_relay.py), on 127.0.0.1.  Unlike the
`nostr-relay` package it publishes no NIP-11 document, keeps events in memory, limits events per
connection and minute (here 20: every link's 200 KB frame meets `rate-limited:` answers, which
the pool meets by slowing down and dialling again), and words every policy refusal as
`blocked: …`.  A relay-path link carries large frames in order over it, alone and beside the
4 KB-capped `nostr-relay`; one of its instances refusing ephemeral events is named by the doctor
and left, the other relay carrying the check."""

from __future__ import annotations

import asyncio
import base64
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from online_servers import start_relay, start_sdk_relay

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import LinkUp, Received
from p2ptarot.net.online.config import OnlineConfig
from p2ptarot.net.online.mesh import OnlineMesh

pytestmark = pytest.mark.network
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


async def _link_and_echo(relays: tuple[str, ...]) -> tuple[list[bytes], list[str]]:
    """Alice sends Bob three frames (the last 200 KB) on the relay path; what Bob received and
    what the relays told the peers."""
    config = OnlineConfig(relays=relays, transport="relay")
    heard: list[str] = []
    alice, bob = Identity.generate(), Identity.generate()
    async with OnlineMesh(alice, config) as a, OnlineMesh(bob, config) as b:
        for mesh in (a, b):
            mesh.pool.on_notice = lambda n: heard.append(f"{n.relay} {n.what} {n.detail}")
        # incompressible padding: relay packets are deflated when that pays
        pad = base64.b64encode(random.Random(3).randbytes(150_000)).decode()
        frames = [b'{"n":1}', b'{"n":2}', json.dumps({"n": 3, "pad": pad}).encode()]
        async with asyncio.timeout(120):
            peer = await a.connect(b.url, expected_key=bob.public_bytes)
            for frame in frames:
                await a.send(peer, frame)
            got: list[bytes] = []
            while len(got) < len(frames):
                event = await b.next_event()
                if isinstance(event, Received):
                    got.append(event.data)
                assert not isinstance(event, LinkUp) or event.peer == alice.public_bytes
        return got == frames and got or [], heard


def test_a_relay_link_over_the_sdk_relay_alone_and_beside_the_capped_one(tmp_path: Path) -> None:
    sdk = start_sdk_relay(tmp_path / "sdk", notes_per_minute=20)
    capped = start_relay(tmp_path / "relay")  # nostr-relay: 4 KB content cap, 60/s per address
    try:
        got, heard = asyncio.run(_link_and_echo((sdk.url,)))
        assert len(got) == 3, heard
        assert any(h.startswith(f"{sdk.url} rate-limited rate-limited:") for h in heard), heard
        got, heard = asyncio.run(_link_and_echo((sdk.url, capped.url)))
        assert len(got) == 3, heard
        assert not any(" dropped " in h for h in heard), heard
    finally:
        sdk.stop()
        capped.stop()


def test_the_doctor_names_the_sdk_relay_refusing_ephemeral_events(tmp_path: Path) -> None:
    refusing = start_sdk_relay(tmp_path / "sdk", no_ephemeral=True)
    carrying = start_sdk_relay(tmp_path / "sdk2")
    try:
        out = subprocess.run(CLI + ["doctor", "--json", "--relay", refusing.url, "--relay",
                                    carrying.url, "--no-default-stun", "--interface",
                                    "127.0.0.1", "--check-timeout", "6"],
                             capture_output=True, text=True, timeout=120)
        report = json.loads(out.stdout)
        by_url = {r["url"]: r for r in report["relays"]}
        assert by_url[carrying.url]["carries"], by_url
        assert by_url[carrying.url]["limits"] is None  # no NIP-11 document: 16,384 assumed
        assert by_url[carrying.url]["cap"] == 16384
        assert not by_url[refusing.url]["carries"]
        assert by_url[refusing.url]["problem"].startswith("blocked: ephemeral events"), by_url
    finally:
        refusing.stop()
        carrying.stop()
