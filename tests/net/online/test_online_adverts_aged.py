"""Adverts are found every time, whatever their age within their life: a live advert 60-100 s
old (a host re-publishes every 100 s) is listed by `list --online` and found by the code lookup
`join CODE` uses, 20 times out of 20, from either of two relays; and a code two authors carry
is refused even when the real advert is 90 s old and the squatter's fresh (real `nostr-relay`
processes on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from online_servers import Relay, start_relay

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.nostr import adverts
from p2ptarot.net.nostr.adverts import address_of, code_of, make_advert, show_code
from p2ptarot.net.nostr.keys import NostrKey
from p2ptarot.net.nostr.pool import RelayPool
from p2ptarot.net.online.finder import CodeClash, find_code
from p2ptarot.net.txt import TableInfo

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
TRIES = 20


@pytest.fixture(scope="module")
def relays(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Relay]]:
    servers = [start_relay(tmp_path_factory.mktemp(f"relay{i}")) for i in range(2)]
    yield servers
    for server in servers:
        server.stop()


def _info(name: str) -> TableInfo:
    return TableInfo(game="sinople", variant="", seats_taken=1, seats_total=4,
                     fingerprint=Identity.generate().fingerprint, host_name=name)


async def _publish(relay: Relay, *events: object) -> None:
    async with RelayPool([relay.url]) as pool:
        assert await pool.wait_connected(30) == 1
        for event in events:
            assert await pool.publish(event) == 1  # type: ignore[arg-type]


async def test_an_advert_60_to_100_s_old_is_found_every_time(relays: list[Relay]) -> None:
    """Twenty hosts, their adverts 60, 62, ... 98 s old when looked for, half on each relay: one
    `list --online` over both relays lists all twenty, and twenty code lookups (at once, as
    twenty players would) each find theirs. Each advert is one try of the issue's twenty."""
    urls = [relay.url for relay in relays]
    keys = [NostrKey() for _ in range(TRIES)]
    start = time.monotonic()
    for i in reversed(range(TRIES)):  # the oldest last, so each is its age when looked for
        age = 60 + 2 * i - round(time.monotonic() - start)
        await _publish(relays[i % 2], make_advert(keys[i], _info(f"H{i}"), int(time.time()) - age))
    listed = subprocess.run(CLI + ["list", "--online", "--relay", urls[0], "--relay", urls[1],
                                   "--timeout", "2", "--json"],
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr[-2000:]
    codes = {t["code"] for t in json.loads(listed.stdout)["tables"]}
    missing = [60 + 2 * i for i, key in enumerate(keys)
               if show_code(code_of(key.public_hex)) not in codes]
    assert not missing, f"adverts of these ages not listed: {missing}"
    found = await asyncio.gather(*(find_code(urls, code_of(key.public_hex), wait=10)
                                   for key in keys))
    for i, (key, table) in enumerate(zip(keys, found, strict=True)):
        assert table is not None and table.address == address_of(key.public_hex), f"try {i}"


async def test_a_fresh_squatter_beside_a_90_s_old_advert_is_refused_every_time(
        relays: list[Relay], monkeypatch: pytest.MonkeyPatch) -> None:
    host, squatter = NostrKey(), NostrKey()
    code = code_of(host.public_hex)
    true_code_of = adverts.code_of
    monkeypatch.setattr(adverts, "code_of",  # the squatter ground a key for the code (2^50)
                        lambda key: code if key == squatter.public_hex else true_code_of(key))
    now = int(time.time())
    await _publish(relays[0], make_advert(host, _info("Alice"), now - 90))
    await _publish(relays[1], make_advert(squatter, _info("Mallory"), now))
    lookups = await asyncio.gather(*(find_code([relays[1].url, relays[0].url], code, wait=10)
                                     for _ in range(TRIES)), return_exceptions=True)
    for lookup in lookups:  # twenty players at once, each refused
        assert isinstance(lookup, CodeClash), lookup
        assert "2 different hosts advertise the code" in str(lookup)
