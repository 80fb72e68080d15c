"""Layout contracts in real Chromium (issue 33, "What to build" 4; items 5 and 10): for every
game at 1280 x 800 and at 390 x 844, at one of the player's turns, measured with bounding boxes
(never by eyeballing a screenshot): no horizontal scroll; the hand and the control that plays
the move (the preview's Play, else the first move button, else a lit place) inside the first
screen; no two seat boxes or captions overlapping; nothing in the table cut at the screen's
edge or clipped by its box (a column of a results table, a seat box); no row repeating the
hand."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from p2ptarot.engine import games
from tests.web.cdp import Browser
from tests.web.tables import CLICK, MY_TURN, OVER, bot_spawner, close_table, host, human, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
GAMES = ["sinople", "trois-roses", "paris-divins", "eleusis", "arcanum", "arcanoid"]
SIZES = ((1280, 800, False), (390, 844, True))
#: the player's turns measured (a move is played through the page between them)
TURNS = 4
#: Alice hosts (seat 0); Eleusis: seat 1 deals, so Alice plays cards (see test_browser_player_view)
OPTIONS = {"eleusis": {"first_dealer": 1}}

#: boxes of the page at the top of the page (scrolled to 0): what is where, and what is wrong
MEASURE = r"""(() => {
  window.scrollTo(0, 0);
  const vw = window.innerWidth, vh = window.innerHeight;
  const shown = (e) => { if (!e || e.closest('[hidden]')) return null;
    const fold = e.closest('details:not([open])'); if (fold && !e.closest('summary') && e !== fold) return null;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? r : null; };
  const box = (r) => !r ? null : [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];
  const label = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '') +
    ' "' + (e.textContent || '').trim().slice(0, 30) + '"';
  const out = { vw, vh, scroll: document.documentElement.scrollWidth, problems: [] };
  const hand = [...document.querySelectorAll('#hand .card')].filter(shown);
  out.handCards = hand.length;
  out.hand = hand.length ? box(shown(hand[0])) : null;
  // the control that plays: a card of the hand pointed at (then a lit place of the table, as a
  // player does) shows the preview's Play; else the first move button; all put back after
  let play = null;
  const c = document.querySelector('#hand .card.playable');
  if (c) {
    c.click();
    for (let k = 0; k < 4 && !document.getElementById('confirm'); k++) {
      const f = document.querySelector('#gamebox .target.live:not(.picked)'); if (!f) break; f.click();
    }
    window.scrollTo(0, 0);
    play = shown(document.getElementById('confirm'));
  }
  if (!play) play = [...document.querySelectorAll('#moves button.move, #gamebox .target.live')].map(shown).find((r) => r);
  out.play = box(play);
  const x = document.querySelector('#moves .cancel'); if (x) x.click();
  // nothing cut at the screen's edge, nothing clipped by its own box
  for (const e of document.querySelectorAll('#board *, header *')) {
    const r = shown(e); if (!r) continue;
    if (r.right > vw + 1 || r.left < -1) out.problems.push('off screen ' + JSON.stringify(box(r)) + ' ' + label(e));
    const st = getComputedStyle(e);
    if (/(hidden|auto|scroll|clip)/.test(st.overflowX) && e.scrollWidth > e.clientWidth + 2 && !e.closest('#text'))
      out.problems.push('clipped ' + e.scrollWidth + '>' + e.clientWidth + ' ' + label(e));
  }
  // seat boxes and captions never overlap one another
  const parts = [...document.querySelectorAll('.tseat, .ctext, .tlast, .lcaption, .caption, .seatbox')]
    .map((e) => [e, shown(e)]).filter(([, r]) => r);
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const [a, ra] = parts[i], [b, rb] = parts[j];
    if (a.contains(b) || b.contains(a)) continue;
    const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (w > 1 && h > 1) out.problems.push('overlap ' + label(a) + ' / ' + label(b));
  }
  // no row repeating the hand (a list of the hand's cards again, above or below it)
  const mine = new Set([...document.querySelectorAll('#hand .card[data-card]')].map((e) => e.dataset.card));
  for (const row of document.querySelectorAll('#board .cards, #moves .cardrow')) {
    if (row.closest('#hand') || !shown(row)) continue;
    const cards = [...row.querySelectorAll('.card[data-card]')].map((e) => e.dataset.card);
    const again = cards.filter((x) => mine.has(x)).length;
    if (mine.size >= 4 && again >= Math.max(4, mine.size / 2)) out.problems.push('hand repeated in ' + label(row));
  }
  return out;
})()"""


async def _alice_turn(page: Any, alice: Any) -> None:
    """Until the page asks Alice for a move (a round's result, if one is up, is continued)."""
    while not await page.js(MY_TURN):
        assert not alice.task.done(), "the game ended before Alice's turn"
        await page.js(OVER)
        await asyncio.sleep(0.1)


async def _play_one(page: Any, alice: Any) -> None:
    """Alice makes her open move through the page (cards picked one by one where needed)."""
    before = await page.js("S.turn.turn")
    while not alice.task.done() and await page.js(f"S.turn && !S.answered && S.turn.turn === {before}"):
        await page.js(CLICK)
        await asyncio.sleep(0.1)


@pytest.mark.parametrize("game", GAMES)
async def test_the_table_fits_a_desk_and_a_phone(game: str, tmp_path: Path) -> None:
    gi = next(g for g in games() if g.name == game)
    players = gi.min_players if game != "trois-roses" else 3
    browser = await Browser(tmp_path / "profile").start()
    alice = await human(tmp_path, "Alice")
    bots: list[asyncio.Task] = []
    try:
        host(alice, game, players, OPTIONS.get(game), on_listening=bot_spawner(tmp_path, game,
                                                                               players, bots))
        page = await browser.page(alice.url)
        await page.size(1280, 800)
        await page.wait_for("S.rules !== undefined && S.rules !== null", timeout=120)
        found: dict[str, list[str]] = {}
        for turn in range(TURNS):
            for width, height, mobile in SIZES:
                await page.size(width, height, mobile=mobile)
                await _alice_turn(page, alice)
                await asyncio.sleep(0.3)  # the page lays itself out anew
                m = await page.js(MEASURE)
                keep_shot(await page.screenshot(tmp_path / f"layout-{game}-{width}-{turn}.png",
                                                full=False))
                problems = list(m["problems"])
                if m["scroll"] > width:
                    problems.append(f"horizontal scroll: {m['scroll']} > {width}")
                if not m["hand"] or m["hand"][3] > height:
                    problems.append(f"hand below the first screen: {m['hand']}")
                if not m["play"] or m["play"][3] > height:
                    problems.append(f"no Play control in the first screen: {m['play']}")
                if problems:
                    found[f"turn {turn + 1} at {width}x{height}"] = problems
            await _play_one(page, alice)
        assert not found, found
    finally:
        await close_table(browser, [alice], bots)
