"""zeroconf advertise/browse on 127.0.0.1 only (never the all-interfaces default).

Parallel workers share the loopback mDNS group, so every test uses fresh random instance
names and only looks at its own adverts.
"""

from __future__ import annotations

import asyncio
import os
import socket

import pytest
from zeroconf import ServiceInfo

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.net.discovery import (
    SERVICE_TYPE,
    TableAdvertiser,
    TableBrowser,
    TableChange,
    advert_from_info,
    browse_tables,
    open_zeroconf,
)
from p2ptarot import PROTOCOL_VERSION
from p2ptarot.net.txt import TableInfo

pytestmark = pytest.mark.network

LOOPBACK = ["127.0.0.1"]
WAIT = 15.0


def table(**overrides: object) -> TableInfo:
    fields: dict[str, object] = dict(
        game="arcanoid", variant="DRESDEN", seats_taken=1, seats_total=4, fingerprint="ab12-cd34"
    )
    fields.update(overrides)
    return TableInfo(**fields)  # type: ignore[arg-type]


async def next_change_for(browser: TableBrowser, name: str, kind: str) -> TableChange:
    async with asyncio.timeout(WAIT):
        while True:
            change = await browser.next_change()
            if change.name == name and change.kind == kind:
                return change


async def test_advertise_browse_update_unregister(make_mesh) -> None:
    mesh = await make_mesh()
    seen: list[TableChange] = []
    async with TableBrowser(interfaces=LOOPBACK, on_change=seen.append) as browser:
        advertiser = TableAdvertiser(table(), mesh.port, interfaces=LOOPBACK)
        await advertiser.start()
        try:
            added = await next_change_for(browser, advertiser.name, "added")
            advert = added.advert
            assert advert is not None
            assert advert.instance == advertiser.instance
            assert advert.table == table()
            assert advert.table.table_id == "" and advert.table.version == PROTOCOL_VERSION
            assert advert.addresses == ("127.0.0.1",)
            assert advert.ws_url == mesh.url
            assert browser.tables[advertiser.name] == advert

            # The advertised URL is dialable and leads to the advertised mesh.
            client = await make_mesh()
            assert await client.connect(advert.ws_url) == mesh.public_key

            table_id = os.urandom(32).hex()
            await advertiser.update(seats_taken=4, table_id=table_id)
            updated = await next_change_for(browser, advertiser.name, "updated")
            assert updated.advert is not None
            assert updated.advert.table.seats_taken == 4
            assert updated.advert.table.table_id == table_id
            assert updated.advert.table.is_full
        finally:
            await advertiser.close()
        removed = await next_change_for(browser, advertiser.name, "removed")
        assert removed.advert is None
        assert advertiser.name not in browser.tables
    mine = [c.kind for c in seen if c.name == advertiser.name]
    assert mine[0] == "added" and mine[-1] == "removed" and "updated" in mine


async def test_browse_tables_one_shot() -> None:
    info = table(game="sinople", variant="", seats_taken=2, seats_total=3)
    async with TableAdvertiser(info, 40123, interfaces=LOOPBACK) as advertiser:
        found = await browse_tables(LOOPBACK, timeout=1.5)
    mine = [a for a in found if a.name == advertiser.name]
    assert len(mine) == 1
    assert mine[0].table == info
    assert mine[0].port == 40123
    assert mine[0].ws_url == "ws://127.0.0.1:40123/p2ptarot"


async def test_bad_adverts_are_ignored_and_callbacks_may_fail() -> None:
    calls: list[TableChange] = []

    def exploding_callback(change: TableChange) -> None:
        calls.append(change)
        raise RuntimeError("UI bug")

    zc = open_zeroconf(LOOPBACK)
    bad = ServiceInfo(
        SERVICE_TYPE,
        f"bad-{os.urandom(4).hex()}.{SERVICE_TYPE}",
        addresses=[socket.inet_aton("127.0.0.1")],
        port=40124,
        properties={b"v": b"one", b"game": b"\xff\xfe", b"seats": b"9/2"},
        server=f"bad-{os.urandom(4).hex()}.local.",
    )
    try:
        async with TableBrowser(interfaces=LOOPBACK, on_change=exploding_callback) as browser:
            good = TableAdvertiser(table(), 40125, interfaces=LOOPBACK)

            async def register_bad() -> None:
                await (await zc.async_register_service(bad))

            await asyncio.gather(register_bad(), good.start())  # probing takes ~1.6 s each
            try:
                change = await next_change_for(browser, good.name, "added")
                assert change.advert is not None and change.advert.port == 40125
                assert bad.name not in browser.tables
                assert change in calls  # the callback ran, raised, and the browser carried on
                await good.update(seats_taken=2)
                await next_change_for(browser, good.name, "updated")
            finally:
                await good.close()
    finally:
        await (await zc.async_unregister_service(bad))
        await zc.async_close()


def _info(properties: dict[bytes, bytes | None], type_: str = SERVICE_TYPE) -> ServiceInfo:
    return ServiceInfo(
        type_,
        f"t1.{type_}",
        addresses=[socket.inet_aton("127.0.0.1")],
        port=5000,
        properties=properties,
        server="t1.local.",
    )


GOOD = {b"v": b"1", b"game": b"arcanum", b"variant": b"", b"seats": b"2/5", b"table": b"",
        b"fp": b"f00d"}


def test_advert_from_info_parses_good_and_rejects_bad() -> None:
    advert = advert_from_info(_info(GOOD))
    assert advert is not None
    assert (advert.instance, advert.port, advert.table.seats_total) == ("t1", 5000, 5)
    for key, value in [(b"seats", b"6/5"), (b"v", b"-1"), (b"fp", None), (b"table", b"XYZ"),
                       (b"game", b"\xc3"), (b"seats", b"2/99")]:
        assert advert_from_info(_info({**GOOD, key: value})) is None, key
    missing = dict(GOOD)
    del missing[b"fp"]
    assert advert_from_info(_info(missing)) is None
    assert advert_from_info(_info(GOOD, type_="_other._tcp.local.")) is None


def test_open_zeroconf_refuses_empty_interface_list() -> None:
    with pytest.raises(ValueError):
        open_zeroconf([])


async def test_updates_do_not_wait_for_repeated_announcements(make_mesh) -> None:
    """A lobby seats the next joiner at once: update() returns after the first announcement of
    the new record, its repetitions go on in the background, a newer update supersedes them and
    close() stops them."""
    mesh = await make_mesh()
    async with TableBrowser(interfaces=LOOPBACK) as browser:
        advertiser = TableAdvertiser(table(), mesh.port, interfaces=LOOPBACK)
        await advertiser.start()
        try:
            await next_change_for(browser, advertiser.name, "added")
            await advertiser.update(seats_taken=2)
            first = advertiser._announcing
            assert first is not None and not first.done()  # repetitions still to come
            await advertiser.update(seats_taken=3)
            assert first.cancelled() or first.done()  # superseded by the newer record
            while True:  # the browser ends up with the newest record
                change = await next_change_for(browser, advertiser.name, "updated")
                assert change.advert is not None
                if change.advert.table.seats_taken == 3:
                    break
            pending = advertiser._announcing
        finally:
            await advertiser.close()
        assert pending is not None and (pending.cancelled() or pending.done())
