"""Arcanum in real Chromium (issue 33, item 5): a click on a lit place that several figures could
go to did nothing a player could see (the figures were outlined among the others, no move on
offer). Now the choice is offered at once: a button per figure that can go there, in the move
bar under the hand (inside the first screen at 1280x800 and 390x844); a button previews that
move and "Play" sends it. Two decisions from local games of the engine are published to a page:
moving any figure (the Fool's joker, the Empress, Temperance: a dozen moves to one place) and a
minor whose value names the place (its House's figures)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from p2ptarot.app.events import PlayMove, TableOpened, TurnStarted, ViewChanged
from p2ptarot.app.hub import Hub
from p2ptarot.engine import RandomDealer, create
from p2ptarot.present import screen as screens
from p2ptarot.present.options import MoveOption
from p2ptarot.present.rulebook import rules
from p2ptarot.web.server import WebServer
from tests.web.cdp import Browser

pytestmark = [pytest.mark.network, pytest.mark.slow]
NAMES = ("Alice", "Bob", "Carol")
SIZES = [(1280, 800, False), (390, 844, True)]


def _decision(want: Callable[[tuple[MoveOption, ...]], MoveOption | None]
              ) -> tuple[dict[str, Any], tuple[MoveOption, ...], MoveOption]:
    """Seat 0's first decision (random local games) where `want` picks an option."""
    for seed in range(30):
        state = create("arcanum", 3)
        dealer, rng = RandomDealer(random.Random(seed)), random.Random(seed)
        while not state.is_over():
            turn = state.turn()
            if turn.chance is not None:
                state.resolve_chance(dealer.shuffle(state, turn.chance)
                                     if hasattr(turn.chance, "deck") else dealer.choice(turn.chance))
                continue
            if turn.kind.value == "reveal":
                state.resolve_reveals()
                continue
            seat = next(s for s in turn.seats if state.legal_moves(s))
            legal = state.legal_moves(seat)
            if seat == 0:
                view = state.view(0)
                options = screens.move_options(legal, view, NAMES)
                found = want(options)
                if found is not None:
                    return view, options, found
            state.apply(seat, rng.choice(legal))
    raise AssertionError("no such decision in 30 games")


def _same_place(options: tuple[MoveOption, ...], o: MoveOption) -> list[MoveOption]:
    return [x for x in options if x.card == o.card and x.targets[:1] == o.targets[:1]]


def _any_figure(options: tuple[MoveOption, ...]) -> MoveOption | None:
    """A figure move with no card, where more than ten figures could go to its place."""
    return next((o for o in options if o.card is None and len(o.targets) == 2
                 and o.targets[0].startswith("loc-") and len(_same_place(options, o)) > 10), None)


def _minor(options: tuple[MoveOption, ...]) -> MoveOption | None:
    """A minor whose moves take one of several figures to the place its value names."""
    return next((o for o in options if o.card and len(o.targets) == 2
                 and o.targets[0].startswith("loc-") and len(_same_place(options, o)) >= 2
                 and all(x.targets[0] == o.targets[0] for x in options if x.card == o.card)),
                None)


async def _page_for(tmp: Path, view: dict[str, Any], options: tuple[MoveOption, ...],
                    width: int, height: int, mobile: bool) -> tuple[Hub, WebServer, Browser, Any]:
    hub = Hub()
    server = WebServer(hub, host="127.0.0.1")
    url = await server.start()
    hub.publish(TableOpened("arcanum", "Arcanum", None, 0, NAMES, 300, 0, "",
                            {c: b.to_json() for c in ("en", "fr")
                             if (b := rules("arcanum", c)) is not None}))
    hub.publish(ViewChanged(screens.screen(view, NAMES), screens.render_text(view, NAMES), view))
    hub.publish(TurnStarted(1, options, None))
    browser = await Browser(tmp / f"profile-{width}").start()
    page = await browser.page(url)
    await page.size(width, height, mobile=mobile)
    await page.wait_for("S.turn !== null && document.getElementById('arcanum-board') !== null",
                        timeout=60)
    return hub, server, browser, page


async def _sent(hub: Hub) -> PlayMove:
    for _ in range(300):  # a bound on the wait for the page's command, not a timing
        while not hub.commands.empty():
            cmd = hub.commands.get_nowait()
            if isinstance(cmd, PlayMove):
                return cmd
        await asyncio.sleep(0.1)
    raise AssertionError("the page sent no move")


async def _choose_and_play(page: Any, hub: Hub, options: tuple[MoveOption, ...],
                           chosen: MoveOption, height: int) -> None:
    """The chooser offers exactly the figures that can go to the place; the last one is played."""
    choices = _same_place(options, chosen)
    buttons = await page.js("[...document.querySelectorAll('#target-chooser button')]"
                            ".map((b) => b.dataset.target)")
    assert sorted(buttons) == sorted(x.targets[1] for x in choices)
    bottom = await page.js("document.getElementById('target-chooser').getBoundingClientRect().bottom")
    assert bottom <= height, bottom  # in the first screen, under the hand
    assert await page.js("document.documentElement.scrollWidth") <= await page.js("innerWidth")
    last = choices[-1]
    await page.js(f"document.querySelector('#target-chooser button[data-target=\"{last.targets[1]}\"]')"
                  ".click()")
    assert await page.js("document.querySelector('#preview .what').textContent") == \
        "▶ " + last.sentence
    await page.js("document.getElementById('confirm').click()")
    cmd = await _sent(hub)
    assert cmd.turn == 1 and options[cmd.index - 1].sentence == last.sentence


@pytest.mark.parametrize("width,height,mobile", SIZES)
async def test_a_place_many_figures_can_go_to_offers_them(width: int, height: int, mobile: bool,
                                                          tmp_path: Path) -> None:
    view, options, chosen = _decision(_any_figure)
    hub, server, browser, page = await _page_for(tmp_path, view, options, width, height, mobile)
    try:
        loc = chosen.targets[0]
        assert await page.js(f"document.querySelector('#arcanum-board .loc.live[data-target=\"{loc}\"]')"
                             " !== null")
        assert await page.js("document.getElementById('target-chooser') === null")
        await page.js(f"document.querySelector('#arcanum-board .loc[data-target=\"{loc}\"]').click()")
        await _choose_and_play(page, hub, options, chosen, height)
    finally:
        await browser.close()
        await server.close()


@pytest.mark.parametrize("width,height,mobile", SIZES)
async def test_a_minor_offers_the_figures_it_can_take_to_its_place(width: int, height: int,
                                                                  mobile: bool,
                                                                  tmp_path: Path) -> None:
    view, options, chosen = _decision(_minor)
    hub, server, browser, page = await _page_for(tmp_path, view, options, width, height, mobile)
    try:
        await page.js(f"document.querySelector('#hand .card[data-card=\"{chosen.card}\"]').click()")
        loc = chosen.targets[0]
        await page.js(f"document.querySelector('#arcanum-board .loc[data-target=\"{loc}\"]').click()")
        await _choose_and_play(page, hub, options, chosen, height)
    finally:
        await browser.close()
        await server.close()
