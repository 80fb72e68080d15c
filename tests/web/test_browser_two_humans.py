"""Two people at one table, each in their own browser page; one leaves mid-game (everyone is
told at once), comes back with `join --resume`'s code path, and the game ends normally."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.human import LeftTable
from tests.web.tables import CLICK, OVER, Seat, host, human, join_human, keep_shot, resume_human

pytestmark = [pytest.mark.network, pytest.mark.slow]

LOG = "document.getElementById('log').textContent"


async def _click_any(pages: list) -> int:
    n = 0
    for page in pages:
        if await page.js("(S.turn && !S.answered)"):
            if await page.js(CLICK):
                n += 1
    return n


async def test_two_humans_play_one_leaves_and_rejoins(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bob = await human(tmp_path, "Bob")
    bob_again: Seat | None = None
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    try:
        # a short whole game with turns (one round of arcanoïd): the whole sinople game in a
        # page is test_browser_play's
        host(alice, "arcanoid", 2, options={"rounds": 1},
             on_listening=lambda url: listening.set_result(url))
        join_human(bob, await listening, "arcanoid")
        page_a = await browser.page(alice.url)
        page_b = await browser.page(bob.url)
        await page_b.wait_for("document.getElementById('players').textContent.includes('Alice')")
        assert "Bob · seat 2 (you)" in await page_b.js("document.getElementById('players').textContent")
        # play until it is Bob's turn after a few moves of each
        clicks = 0
        while True:
            clicks += await _click_any([page_a])
            if clicks >= 4 and await page_b.js("(S.turn && !S.answered)"):
                break
            clicks += await _click_any([page_b])
            await asyncio.sleep(0.05)
        # Bob says something: it crosses the mesh, Alice's page shows it with his name
        await page_b.js("document.getElementById('chatline').value = 'hello <b>Alice</b>';"
                        "document.querySelector('#chat button').click()")
        await page_a.wait_for(f"{LOG}.includes('<Bob> hello <b>Alice</b>')", timeout=30)
        assert await page_a.js("document.querySelector('#log b') === null")  # text, never markup
        status_a = await page_a.js("document.getElementById('status').textContent")
        assert status_a.startswith("Waiting for Bob")
        # Bob leaves through his page (the confirmation dialog is accepted)
        await page_b.js("document.getElementById('leave').click()")
        with pytest.raises(LeftTable):
            await asyncio.wait_for(bob.task, 30)
        await page_a.wait_for(f"{LOG}.includes('Bob left the table')", timeout=30)
        assert await page_a.js("document.querySelector('.player.away') !== null")
        keep_shot(await page_a.screenshot(tmp_path / "two-humans-bob-left.png"))
        assert not alice.task.done()  # Alice's table waits for Bob, it does not blame him
        # Bob comes back (what `p2ptarot join --resume` runs) in a new page
        await bob.server.close()
        bob_again = await human(tmp_path, "Bob")
        resume_human(bob_again)
        page_b2 = await browser.page(bob_again.url)
        await page_a.wait_for(f"{LOG}.includes('Bob is back')", timeout=60)
        while not all([await page_a.js(OVER), await page_b2.js(OVER)]):  # both pages' Continue clicked
            await _click_any([page_a, page_b2])
            await asyncio.sleep(0.05)
        keep_shot(await page_b2.screenshot(tmp_path / "two-humans-end.png"))
        ra = await asyncio.wait_for(alice.task, 60)
        rb = await asyncio.wait_for(bob_again.task, 60)
        assert ra.outcome is not None and ra.outcome == rb.outcome
        results = await page_b2.js("document.getElementById('results').textContent")
        assert "Final standings" in results and "Alice" in results and "Bob" in results
    finally:
        await browser.close()
        for seat in (alice, bob, bob_again):
            if seat is not None and seat.server is not None:
                await seat.server.close()
