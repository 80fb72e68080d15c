"""A game page in French on a phone: the browser asks for French (Accept-Language), the player's
peer speaks French (`--lang fr`), and a human plays sinople against a bot by pointing at cards at
390 x 844. Everything the page shows — its own words, the server's sentences, card names, the
rules panel — reads French, with no horizontal scroll."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Iterator

import pytest

from p2ptarot.i18n import set_language
from tests.web.cdp import Browser
from tests.web.tables import CLICK, MY_TURN, OVER, close_table, host, human, join_bot, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
MOVES = 3


@pytest.fixture
def french_peer() -> Iterator[None]:
    set_language("fr")  # what `p2ptarot host --lang fr` does for the process
    try:
        yield
    finally:
        set_language("en")


async def test_a_french_game_page_on_a_phone(tmp_path: Path, french_peer: None) -> None:
    browser = await Browser(tmp_path / "profile", accept_language="fr-FR,fr").start()
    alice = await human(tmp_path, "Alice")  # no --lang for the page: the browser's language
    bots: list[asyncio.Task] = []
    try:
        host(alice, "sinople", 2, on_listening=lambda url: bots.append(
            join_bot(tmp_path, "Bot1", url, "sinople", seed=1)))
        page = await browser.page(alice.url)
        await page.size(390, 844, mobile=True)
        assert await page.js("document.documentElement.lang") == "fr"
        assert (await page.js("navigator.language")).startswith("fr")
        await page.wait_for("document.getElementById('players').textContent.includes('Bot1')", timeout=120)
        clicks = 0
        while clicks < MOVES and not alice.task.done():
            if await page.js(MY_TURN):
                before = await page.js("S.turn ? S.turn.turn : 0")
                assert "À vous de jouer" in await page.js("document.getElementById('status').textContent")
                if await page.js(CLICK):
                    clicks += 1
                    await page.wait_for("!(S.turn && !S.answered)"
                                        f" || (S.turn && S.turn.turn !== {before})", timeout=60)
            else:  # a round's end holds the next deal until she continues
                await page.js(OVER)
            await asyncio.sleep(0.05)
        assert clicks == MOVES
        await page.wait_for(MY_TURN, timeout=60)
        # the page's own words, the peer's sentences and the card names, all French
        text = await page.js("document.body.innerText")
        for french in ("Règles", "Votre main", "Journal de la table", "Depuis votre dernier tour",
                       "Laisser un bot jouer pour moi", "Quitter la table", "place 1", "Alice : Jouer ",
                       "Temps : un coup peut prendre jusqu'à", "Figure : "):
            assert french in text, french
        for english in ("Your hand", "Table log", "Leave the table", "Your move", "Rules",
                        "Play ", "seat 1", "Waiting for"):
            assert english not in text, english
        players = await page.js("document.getElementById('players').textContent")
        assert "Alice · place 1 (vous)" in players and "Bot1 · place 2" in players
        # the rules panel is the French rulebook
        await page.js("document.getElementById('rulesbtn').click()")
        rules = await page.js("document.getElementById('rulestext').innerText")
        assert "Cartes, lieux et coups" in rules and "But" in rules
        await page.js("document.getElementById('rulesclose').click()")
        # a phone: no horizontal scroll, the hand on the first screen
        assert await page.js("document.documentElement.scrollWidth") <= 390
        top = await page.js("document.getElementById('hand').getBoundingClientRect().top")
        assert 0 <= top < 844
        keep_shot(await page.screenshot(tmp_path / "french-sinople-390.png", full=False))
    finally:
        await close_table(browser, [alice], bots)
