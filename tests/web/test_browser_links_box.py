"""The "Links" box of an online table on a phone: the page draws each `LinkPaths` row (who, which
path, round trip) in a box at the top of the side column, marks each line by its path, and the
box wraps at 390 x 844 without widening the page.  The game itself is a LAN one (the box only
needs the event; the online lobby test drives it from real online links)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2ptarot.app.events import LinkPaths
from tests.web.cdp import Browser
from tests.web.tables import close_table, host, human, join_bot, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
LONG = "Bartholomew-the-very-long-named-player"


async def test_the_links_box_reads_well_on_a_phone(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots: list[asyncio.Task] = []
    try:
        host(alice, "sinople", 3, on_listening=lambda url: bots.extend([
            join_bot(tmp_path, "Bot1", url, "sinople", seed=1),
            join_bot(tmp_path, "Bot2", url, "sinople", seed=2)]))
        page = await browser.page(alice.url)
        await page.size(390, 844, mobile=True)
        await page.wait_for("document.getElementById('players').textContent.includes('Bot2')",
                            timeout=120)
        assert await page.js("document.getElementById('paths') === null")  # a LAN table: no box
        assert alice.hub is not None
        alice.hub.publish(LinkPaths((
            {"seat": 1, "name": LONG, "path": "direct", "rtt_ms": 40},
            {"seat": 2, "name": "Bot2", "path": "relay", "rtt_ms": None})))
        await page.wait_for("document.getElementById('paths') && !document.getElementById('paths').hidden",
                            timeout=30)
        text = await page.js("document.getElementById('paths').innerText")
        assert "Links" in text and f"{LONG}: direct, 40 ms round trip" in text
        assert "Bot2: on the relays" in text and "Bot2: on the relays," not in text
        assert await page.js("[...document.querySelectorAll('#paths li')].map(l => l.className).join(' ')") \
            == "path-direct path-relay"
        assert await page.js("document.documentElement.scrollWidth") <= 390
        assert await page.js("document.getElementById('paths').getBoundingClientRect().right") <= 390
        marker = await page.js("getComputedStyle(document.querySelector('#paths li'), '::before')"
                               ".backgroundColor")
        assert marker == "rgb(143, 227, 160)"  # direct: green (the style.css block is applied)
        keep_shot(await page.screenshot(tmp_path / "links-390.png", full=False))
        alice.hub.publish(LinkPaths(()))
        await page.wait_for("document.getElementById('paths').hidden", timeout=30)
    finally:
        await close_table(browser, [alice], bots)
