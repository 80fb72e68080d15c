"""A card a move takes from outside the hand is clicked where the page shows it (real headless
Chromium, a turn published to the seat's hub: no table): the Eleusis dealer names a correct card
of a shown "no play" hand by clicking it in that hand, then plays the previewed move."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from p2ptarot import bots
from p2ptarot.app.events import PlayMove, TableOpened, TurnStarted, ViewChanged
from p2ptarot.engine import RandomDealer, create, play
from p2ptarot.present.screen import move_options, render_text, screen
from tests.web.cdp import Browser
from tests.web.tables import human, keep_shot, play_previewed

pytestmark = [pytest.mark.network, pytest.mark.slow]

NAMES = ["Alice", "Bob", "Carol", "Dan"]


def _pick_decision() -> tuple[int, Any, list[Any]]:
    """(seat, view, legal) of an Eleusis "pick" (the dealer names a card of a "no play" hand),
    from a local random game (sans-I/O, seeded: the same decision every run)."""

    class Found(Exception):
        pass

    class Agent:
        uses_view = True

        def __init__(self, seat: int) -> None:
            self.inner = bots.make("random", f"p:{seat}:0")

        def choose(self, seat: int, view: Any, legal: Any) -> Any:
            if len(legal) >= 2 and any(getattr(m, "KIND", "") == "pick" for m in legal):
                raise Found(seat, view, list(legal))
            return self.inner.choose(seat, None, legal)

    try:
        play(create("eleusis", 4), [Agent(s) for s in range(4)], RandomDealer(random.Random(0)))
    except Found as found:
        return found.args
    raise AssertionError("no 'pick' decision in the whole game")


async def test_a_card_of_a_shown_no_play_hand_is_clicked_and_played(tmp_path: Path) -> None:
    seat, view, legal = _pick_decision()
    options = move_options(legal, view, NAMES)
    sc = screen(view, NAMES)
    hand = {f["id"] for f in sc["hand"]}
    want = options[-1]
    assert want.card is not None and want.card not in hand  # a card of Bob's shown hand, not ours
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    try:
        alice.hub.publish(TableOpened("eleusis", "Eleusis", None, seat, tuple(NAMES), 300, 0, "", {}))
        alice.hub.publish(ViewChanged(sc, render_text(view, NAMES), view))
        alice.hub.publish(TurnStarted(4, options, None))
        page = await browser.page(alice.url)
        await page.wait_for("S.turn !== null && S.turn.turn === 4 && !S.answered", timeout=30)
        lit = await page.js("[...document.querySelectorAll('#gamebox .pile .card.playable')]"
                            ".map((c) => c.dataset.card).sort().join(' ')")
        assert lit == " ".join(sorted(o.card for o in options if o.card))  # each named card, once
        assert await page.js("document.querySelectorAll('#hand .card').length") == len(hand)
        assert await page.js("document.querySelectorAll('#moves button.move').length") == 0
        await page.js(f"document.querySelector('#gamebox .pile .card[data-card=\"{want.card}\"]').click()")
        await page.wait_for("document.getElementById('preview') !== null", timeout=10)
        assert await page.js("document.querySelector('#preview .what').textContent") == "▶ " + want.sentence
        keep_shot(await page.screenshot(tmp_path / "eleusis-pick.png"))
        sent = await play_previewed(page, alice.hub)
        assert sent == PlayMove(4, options.index(want) + 1)
    finally:
        await browser.close()
        await alice.server.close()
