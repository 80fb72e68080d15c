"""Tables for the browser tests, all in one event loop on 127.0.0.1: human seats driven through
their web page (a `Hub`, a `WebServer`, the human chooser) and bot seats."""

from __future__ import annotations

import asyncio
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from p2ptarot.app.human import human_chooser, until_left
from p2ptarot.app.hub import Hub
from p2ptarot.bots import make as make_bot
from p2ptarot.peer.config import GameResult, PeerConfig
from p2ptarot.peer.run import bot_chooser, run_host, run_join, run_resume
from p2ptarot.web.server import WebServer

#: clicks the page's first playable card, else its first move button, else the cards of the first
#: several-card move in the card picker (Arcanum's discard down to 7); says which
CLICK = """(() => {
  const confirm = () => { const k = document.getElementById('confirm'); if (k) { k.click(); return true; } return false; };
  if (confirm()) return 'card';
  const c = document.querySelector('#hand .card.playable[data-option]') || document.querySelector('#hand .card.playable');
  if (c) {
    c.click();
    if (confirm()) return 'card';
    const f = document.querySelector('#gamebox .target.live:not(.picked)'); if (f) { f.click(); if (confirm()) return 'card'; }
  }
  const b = document.querySelector('#moves button.move');
  if (b) { b.click(); return 'button'; }
  // a lit field not yet part of the choice (Arcanum's Fields: one chip per track, a click each call)
  const f = document.querySelector('#gamebox .target.live:not(.picked)'); if (f) { f.click(); if (confirm()) return 'card'; }
  const po = document.getElementById('pick-open'); if (po) po.click();  // the picker, in the hand's place
  const go = document.getElementById('pick-play');  // several cards at once: the first such move's
  if (go && !go.disabled) { go.click(); return 'cards'; }
  const o = go && S.turn.options.find((m) => (m.cards || []).length >= 2);
  if (o) {
    const chosen = [...document.querySelectorAll('#card-picker .card.chosen')].map((c) => c.dataset.card);
    if (chosen.some((c) => !o.cards.includes(c))) { go.nextSibling.click(); return 'pick'; }
    const next = o.cards.find((c) => !chosen.includes(c));
    const c = next && document.querySelector('#card-picker .card[data-card="' + next + '"]');
    if (c) { c.click(); return 'pick'; }
  }
  return '';
})()"""
#: it is this page's turn (a move is awaited from it)
#: the dealer's forms in Eleusis: a library rule committed, no hint
ELEUSIS_FORMS = """(() => {
  const c = document.getElementById('erl-commit');
  if (c) { const x = document.getElementById('erl-examples'); x.value = '0'; x.dispatchEvent(new Event('change')); c.click(); return 'rule'; }
  const h = document.getElementById('hint-give'); if (h) { h.click(); return 'hint'; }
  return '';
})()"""
MY_TURN = "(S.turn && !S.answered)"
#: the game is over (final standings shown, or the banner of a stopped table); clicks nothing
FINISHED = """(() => { const h = document.querySelector('#results h2');
  return (h && h.textContent === 'Final standings') || !document.getElementById('banner').hidden; })()"""
#: FINISHED, after clicking a round's Continue if one is up (for tests that play through round ends)
OVER = "(() => { const go = document.getElementById('continue'); if (go) go.click(); return " + FINISHED + "; })()"


@dataclass
class Seat:
    name: str
    cfg: PeerConfig
    hub: Hub | None = None
    server: WebServer | None = None
    url: str = ""
    task: asyncio.Task[GameResult] | None = None
    notes: list[str] = field(default_factory=list)


def config(tmp: Path, name: str, hub: Hub | None, timeout: int = 60) -> PeerConfig:
    return PeerConfig(data_dir=tmp / name, name=name, interface="127.0.0.1", timeout=timeout,
                      move_timeout=300, linger=1.0, lobby_timeout=120, hub=hub)


async def human(tmp: Path, name: str) -> Seat:
    hub = Hub()
    server = WebServer(hub, host="127.0.0.1")
    url = await server.start()
    return Seat(name, config(tmp, name, hub), hub, server, url)


def host(seat: Seat, game: str, seats: int, options: dict[str, Any] | None = None,
         on_listening: Any = None) -> None:
    assert seat.hub is not None
    seat.task = asyncio.create_task(until_left(seat.hub, run_host(
        seat.cfg, game, None, seats, human_chooser(seat.hub, seat.name), options,
        on_listening=on_listening)))


def join_human(seat: Seat, url: str, game: str) -> None:
    assert seat.hub is not None
    seat.task = asyncio.create_task(until_left(seat.hub, run_join(
        seat.cfg, url, game, human_chooser(seat.hub, seat.name))))


def resume_human(seat: Seat) -> None:
    assert seat.hub is not None
    seat.task = asyncio.create_task(until_left(seat.hub, run_resume(
        seat.cfg, human_chooser(seat.hub, seat.name))))


def join_bot(tmp: Path, name: str, url: str, game: str, seed: int) -> asyncio.Task[GameResult]:
    cfg = config(tmp, name, None)
    return asyncio.create_task(run_join(cfg, url, game, bot_chooser(make_bot("heuristic", seed))))


def bot_spawner(tmp: Path, game: str, players: int,
                bots: list[asyncio.Task[GameResult]]) -> Callable[[str], None]:
    """The `on_listening` of a human host: seats `players - 1` bots (Bot1, Bot2…, seeded by
    seat) at the table's address, collecting their tasks in `bots`."""
    def spawn(url: str) -> None:
        for k in range(players - 1):
            bots.append(join_bot(tmp, f"Bot{k + 1}", url, game, seed=k + 1))
    return spawn


async def close_table(browser: Any, seats: list[Seat], bots: Sequence[asyncio.Task[Any]] = ()) -> None:
    """End a browser test's table whatever state it is in: the human seats leave, every game
    task stops, then the browser and the seats' page servers close."""
    from p2ptarot.app.events import Leave

    for seat in seats:
        seat.hub.send(Leave("test over"))
    tasks = [t for t in [*(seat.task for seat in seats), *bots] if t is not None]
    for task in tasks:
        if not task.done():
            task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await browser.close()
    for seat in seats:
        await seat.server.close()


async def play_previewed(page: Any, hub: Hub) -> Any:
    """Click the preview's "Play" on a page whose turn the test published to `hub` itself, and
    return the command the page sent (older commands in the hub's queue are dropped first)."""
    while not hub.commands.empty():
        hub.commands.get_nowait()
    await page.js("document.getElementById('confirm').click()")
    return await asyncio.wait_for(hub.commands.get(), 10)


def keep_shot(path: Path) -> None:
    """Copy a screenshot where a person can look at it (P2PTAROT_SHOTS=dir)."""
    where = os.environ.get("P2PTAROT_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(where) / path.name)


#: CLICK without the card picker: for a test that picks a several-card move's cards itself
CLICK_NO_PICKER = CLICK.split("  const go = document.getElementById('pick-play');")[0] + "  return '';\n})()"
