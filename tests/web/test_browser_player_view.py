"""Each game as a player sees it (real headless Chromium, real peers, bots, mental poker on
127.0.0.1): at 1280 x 800 the player makes several moves by pointing at the table (a card of the
hand, a lit field), opens the rules panel and finds the game's goal and scoring there; at
390 x 844 (a phone) the page has no horizontal scroll and the hand is on the first screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from p2ptarot.engine import games
from tests.web.tables import CLICK, OVER, bot_spawner, close_table, host, human, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
GAMES = ["sinople", "trois-roses", "paris-divins", "eleusis", "arcanum", "arcanoid"]
MOVES = 3
#: Alice hosts (seat 0); an Eleusis dealer judges with buttons, never points, for a whole round
#: (which took 327 s when the coin made her the dealer): seat 1 deals
OPTIONS = {"eleusis": {"first_dealer": 1}}

#: the lines of moves the page lists now: a button in sight, or a group folded under its count
#: (Arcanoid's calls of a card, by suit: one line each until opened)
LISTED = ("([...document.querySelectorAll('#moves button.move')]"
          ".filter((b) => !b.closest('details:not([open])')).length"
          " + document.querySelectorAll('#moves details:not([open])').length)")
#: the turn the page is drawing for Alice, with the buttons it lists for it, read in one go (the
#: page draws each event whole, so both belong to the same turn); null when she has no move
TURN_AND_LISTED = f"(S.turn && !S.answered) ? [S.turn.turn, {LISTED}] : null"
#: points at the table: a playable card of the hand (then lit fields if the card has several
#: targets), else lit fields of the board, one after another until a move is composed (Arcanum's
#: Fields: a chip on each of the four prestige tracks); says what it pointed at ('' when nothing is
#: lit) and the most buttons the page listed after any of its clicks
POINT = """(() => {
  let most = 0;
  const listed = () => { most = Math.max(most, """ + LISTED + """); };
  const lit = () => document.querySelector('#gamebox .target.live:not(.picked)');
  const confirm = () => { listed(); const k = document.getElementById('confirm'); if (k) { k.click(); return true; } return false; };
  const point = () => { for (let k = 0; k < 6; k++) { const f = lit(); if (!f) return false; f.click(); if (confirm()) return true; } return false; };
  const said = (how) => [how, most];
  const c = document.querySelector('#hand .card.playable');
  if (c) {
    c.click();
    if (confirm()) return said('card');
    if (point()) return said('card+place');
    const b = document.querySelector('#moves button.move'); if (b) { b.click(); return said('card+choice'); }
  }
  if (point()) return said('place');
  return said('');
})()"""
#: a move without a target: the first button of the (short) list
BUTTON = """(() => { const b = document.querySelector('button.move'); if (b) { b.click(); return 'button'; } return ''; })()"""


@pytest.mark.parametrize("game", GAMES)
async def test_play_by_pointing_rules_at_hand_and_a_phone(game: str, tmp_path: Path) -> None:
    gi = next(g for g in games() if g.name == game)
    players = gi.min_players if game != "trois-roses" else 3
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots: list[asyncio.Task] = []

    spawn = bot_spawner(tmp_path, game, players, bots)

    try:
        host(alice, game, players, OPTIONS.get(game), on_listening=spawn)
        page = await browser.page(alice.url)
        await page.size(1280, 800)
        await page.wait_for("S.rules !== undefined && S.rules !== null", timeout=120)
        # the rules panel: one click away, in players' words
        await page.js("document.getElementById('rulesbtn').click()")
        text = await page.js("document.getElementById('rulesbox').hidden ? '' : "
                             "document.getElementById('rulestext').textContent")
        assert "Goal" in text and "Scoring" in text and "A turn" in text
        keep_shot(await page.screenshot(tmp_path / f"rules-{game}.png", full=False))
        await page.js("document.getElementById('rulesclose').click()")
        assert await page.js("document.getElementById('rulesbox').hidden")
        pointed: list[str] = []
        other: list[str] = []
        #: at each of Alice's turns: the buttons listed when it opened, the most while she pointed
        listed: dict[int, int] = {}
        while len(pointed) < MOVES and not alice.task.done():
            now = await page.js(TURN_AND_LISTED)
            if now:
                before, buttons = now
                listed[before] = max(listed.get(before, 0), buttons)
                how, most = await page.js(POINT)
                listed[before] = max(listed[before], most)
                if how:
                    pointed.append(how)
                else:  # no place to point at: the short list's first move, else the card picker
                    how = await page.js(BUTTON) or await page.js(CLICK)
                    other.append(how)
                if how in ("", "pick"):  # a card picked in the picker: the move is not made yet
                    await asyncio.sleep(0.05)
                    continue
                await page.wait_for(f"S.answered || (S.turn && S.turn.turn !== {before})", timeout=60)
            else:  # a round over before her moves are made holds its deal until she continues
                await page.js(OVER)
            await asyncio.sleep(0.05)
        assert len(pointed) == MOVES, (pointed, other)
        # never a wall of buttons: at most about ten moves listed at once, at any of her turns
        assert listed and max(listed.values()) <= 12, listed
        keep_shot(await page.screenshot(tmp_path / f"desk-{game}.png", full=False))
        # a phone: no horizontal scroll, the hand on the first screen
        await page.size(390, 844, mobile=True)
        await page.wait_for("document.readyState === 'complete'")
        # the hand shows once a round's result, if one is up, is continued
        await page.wait_for("(() => { const go = document.getElementById('continue'); "
                            "if (go) go.click(); "
                            "return !document.getElementById('handbox').hidden; })()", timeout=60)
        await asyncio.sleep(0.3)
        width = await page.js("document.documentElement.scrollWidth")
        assert width <= 390, width
        hand_top = await page.js("(() => { const h = document.getElementById('handbox'); "
                                 "return h.hidden ? -1 : h.getBoundingClientRect().top + window.scrollY; })()")
        assert 0 <= hand_top < 844, hand_top
        keep_shot(await page.screenshot(tmp_path / f"phone-{game}.png", full=False))
    finally:
        await close_table(browser, [alice], bots)
