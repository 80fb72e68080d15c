"""A round's result never outstays its round (issue 33, item 9), in real Chromium with events
published to the seat's hub (no table): the panel with its Continue stays while the next deal
waits and while the next round's first turn is open (the player may still be reading it), and
goes as soon as the player plays on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from p2ptarot.app.events import (MovePlayed, RoundHeld, RoundOver, TableOpened, TurnStarted,
                                 ViewChanged)
from p2ptarot.present.screen import move_options, render_text, screen
from tests.app import test_app_layer as _layer
from tests.web.cdp import Browser
from tests.web.tables import human, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
NAMES = ("Alice", "Bob", "Carol")
PANEL = "document.getElementById('continue') !== null"


async def test_the_round_panel_goes_when_the_player_plays_on(tmp_path: Path) -> None:
    seat, view, legal = _layer._states("sinople", 3, lambda v, l: len(l) >= 2)[0]
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    hub = alice.hub
    try:
        hub.publish(TableOpened("sinople", "sinople tarot", None, seat, NAMES, 300, 0, "", {}))
        hub.publish(ViewChanged(screen(view, NAMES), render_text(view, NAMES), view))
        hub.publish(RoundOver(3, {"winner": "Bob"}, {n: 0 for n in NAMES}))
        hub.publish(RoundHeld(3, time.time() + 60))
        page = await browser.page(alice.url)
        await page.wait_for(PANEL, timeout=30)
        hub.publish(RoundHeld(3, time.time(), held=False))  # the table goes on (a bot's pause)
        hub.publish(TurnStarted(1, move_options(legal, view, NAMES), None))
        await page.wait_for("S.turn !== null && !S.answered", timeout=30)
        assert await page.js(PANEL)  # still readable at the next round's first turn
        hub.publish(MovePlayed(40, seat, NAMES[seat], "Play a card"))
        await page.wait_for("S.answered", timeout=30)
        assert not await page.js(PANEL)
        assert await page.js("document.getElementById('results').textContent") == ""
        keep_shot(await page.screenshot(tmp_path / "round-panel-gone.png", full=False))
    finally:
        await browser.close()
        await alice.server.close()
