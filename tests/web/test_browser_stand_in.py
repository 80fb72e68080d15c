"""The stand-in in the browser: Alice clicks "Let a bot play for me" on her page, her own peer's
bot plays her seat to the end of the game while Bob plays his through his page; both pages show
the bot badge next to Alice and her bot's moves marked in the log (real headless Chromium, real
peers and mental poker on 127.0.0.1)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.app.human import human_chooser, until_left
from p2ptarot.bots import make as make_bot
from p2ptarot.peer.run import bot_chooser, run_host, run_join
from p2ptarot.app.hub import Hub
from p2ptarot.cli.web_cmd import replay_event
from p2ptarot.web.server import WebServer
from tests.web.tables import CLICK, OVER, human, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"

LOG = "S.log.map((e) => e.text).join('\\n')"  # the whole log (the page shows its last 200 lines)
MOVES = "(S.turn && !S.answered)"
#: a short whole game: the stand-in's moves and badge, not nine rounds of sinople (whose whole
#: game in a page is test_browser_play's)
GAME = "paris-divins"
BADGE = "[...document.querySelectorAll('#players .player')].filter(p => p.querySelector('.badge.bot')).map(p => p.dataset.seat)"


async def test_a_page_hands_its_seat_to_a_bot_and_the_game_ends_with_the_badge(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bob = await human(tmp_path, "Bob")
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    try:
        assert alice.hub is not None and bob.hub is not None
        alice.cfg.stand_in_after = 0  # the charter's policy: only an explicit hand-over here
        alice.task = asyncio.create_task(until_left(alice.hub, run_host(
            alice.cfg, GAME, None, 2,
            human_chooser(alice.hub, "Alice", stand_in=bot_chooser(make_bot("heuristic", 5))),
            on_listening=lambda url: listening.set_result(url))))
        bob.task = asyncio.create_task(until_left(bob.hub, run_join(
            bob.cfg, await listening, GAME,
            human_chooser(bob.hub, "Bob", stand_in=bot_chooser(make_bot("heuristic", 6))))))
        page_a = await browser.page(alice.url)
        page_b = await browser.page(bob.url)
        await page_a.wait_for("document.getElementById('players').textContent.includes('Bob')")
        assert await page_a.js("document.getElementById('takeback').hidden")
        # Alice waits for her first turn, then lets a bot play for her
        while not await page_a.js(MOVES):
            if await page_b.js(MOVES):
                await page_b.js(CLICK)
            await asyncio.sleep(0.05)
        assert not await page_a.js("document.getElementById('botplay').hidden")
        await page_a.js("document.getElementById('botplay').click()")
        await page_a.wait_for("!document.getElementById('takeback').hidden", timeout=30)
        assert await page_a.js("document.getElementById('botplay').hidden")
        # Bob plays his seat by hand to the end; Alice never clicks again
        clicks = 0
        while not all([await page_a.js(OVER), await page_b.js(OVER)]):  # both pages' Continue clicked
            if await page_b.js(MOVES) and await page_b.js(CLICK):
                clicks += 1
            assert not await page_a.js(MOVES)  # no turn is offered to Alice while away
            await asyncio.sleep(0.05)
        keep_shot(await page_b.screenshot(tmp_path / "stand-in-bob.png"))
        keep_shot(await page_a.screenshot(tmp_path / "stand-in-alice.png"))
        ra = await asyncio.wait_for(alice.task, 60)
        rb = await asyncio.wait_for(bob.task, 60)
        # Bob's page clicked his moves (none is marked [bot] below: none was his stand-in's)
        assert ra.outcome is not None and ra.outcome == rb.outcome and clicks > 0
        # both pages: the bot badge next to Alice (seat 1), none next to Bob
        assert await page_a.js(BADGE) == ["0"] and await page_b.js(BADGE) == ["0"]
        log_b = await page_b.js(LOG)
        assert "Alice's seat is played by a bot until Alice comes back" in log_b
        assert "Alice [bot]: Play " in log_b and "Bob [bot]" not in log_b
        log_a = await page_a.js(LOG)
        assert "A bot plays your seat (you asked for it)" in log_a and "Alice [bot]: " in log_a
        results = await page_b.js("document.getElementById('results').textContent")
        assert "Final standings" in results and "Alice" in results
    finally:
        await browser.close()
        for seat in (alice, bob):
            if seat.task is not None and not seat.task.done():
                seat.task.cancel()
            if seat.server is not None:
                await seat.server.close()


async def test_the_browser_replay_marks_the_stand_in_moves(tmp_path: Path) -> None:
    browser = await Browser(tmp_path / "profile").start()
    hub = Hub()
    hub.publish(replay_event(VECTORS / "valid-stand-in.jsonl"))
    server = WebServer(hub)
    url = await server.start()
    try:
        page = await browser.page(url)
        await page.wait_for("!document.getElementById('replaybar').hidden")
        await page.js("document.getElementById('rlast').click()")
        log = await page.js(LOG)
        assert log.count("p1 [bot]: ") == 4 and "p0 [bot]" not in log
        assert "p1: " in log  # seat 2's own moves, before and after its stand-in
        first = await page.js("S.replay.frames.findIndex((f) => f.by === 'bot')")
        await page.js("document.getElementById('rfirst').click()")
        for _ in range(first):
            await page.js("document.getElementById('rnext').click()")
        status = await page.js("document.getElementById('status').textContent")
        assert f"Replay, move {first + 1} of " in status and "p1 [bot]: " in status
    finally:
        await server.close()
        await browser.close()


async def test_a_closed_page_is_stood_in_for_after_the_grace(tmp_path: Path) -> None:
    """Alice closes her page while her turn is open: after the table's grace (2 s here) her own
    peer's bot plays her seat; Bob's page announces it and the game ends."""
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bob = await human(tmp_path, "Bob")
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    try:
        assert alice.hub is not None and bob.hub is not None
        # both pages are open before the game starts: a seat with no page open for the grace
        # is stood in for from its first turn (a slow page start under load did that to Bob)
        page_a = await browser.page(alice.url)
        page_b = await browser.page(bob.url)
        alice.cfg.stand_in_after = 2  # the charter's policy: every peer applies it to its human
        alice.task = asyncio.create_task(until_left(alice.hub, run_host(
            alice.cfg, GAME, None, 2,
            human_chooser(alice.hub, "Alice", stand_in=bot_chooser(make_bot("heuristic", 5))),
            on_listening=lambda url: listening.set_result(url))))
        bob.task = asyncio.create_task(until_left(bob.hub, run_join(
            bob.cfg, await listening, GAME,
            human_chooser(bob.hub, "Bob", stand_in=bot_chooser(make_bot("heuristic", 6))))))
        while not await page_a.js(MOVES):
            if await page_b.js(MOVES):
                await page_b.js(CLICK)
            await asyncio.sleep(0.05)
        assert await page_b.js(BADGE) == [] and not alice.hub.stand_in and not bob.hub.stand_in
        await page_a.close()  # Alice walks away from her open turn
        while not await page_b.js(OVER):
            if await page_b.js(MOVES):
                await page_b.js(CLICK)
            await asyncio.sleep(0.05)
        ra = await asyncio.wait_for(alice.task, 60)
        rb = await asyncio.wait_for(bob.task, 60)
        assert ra.outcome is not None and ra.outcome == rb.outcome
        log_b = await page_b.js(LOG)
        assert "Alice's seat is played by a bot until Alice comes back" in log_b
        assert "Alice [bot]: " in log_b and await page_b.js(BADGE) == ["0"]
        assert any(getattr(e, "reason", "") == "Alice left the table (no page or terminal open for 2 s)"
                   for e in alice.hub.history)
    finally:
        await browser.close()
        for seat in (alice, bob):
            if seat.task is not None and not seat.task.done():
                seat.task.cancel()
            if seat.server is not None:
                await seat.server.close()
