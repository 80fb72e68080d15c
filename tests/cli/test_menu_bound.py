"""Terminal menus never longer than a screen (issue 33, item 8): from bot games of every game,
the busiest decisions (the most legal moves) are turned into the terminal's menus and every
path through them is walked: at most `MENU_MAX` entries a level (`FLAT_MAX` for a level of plain
moves, a card a line: a trick game's hand), every move reached exactly
once, a multi-card move's cards picked one at a time (an entry adds one card to those picked on
the way), and 0 goes back."""

from __future__ import annotations

from typing import Any

import pytest

from p2ptarot.app.events import PlayMove, TurnStarted
from p2ptarot.app.hub import Hub
from p2ptarot.cli.front import Terminal
from p2ptarot.cli.menus import FLAT_MAX, MENU_MAX, Entry, first_menu, submenu
from p2ptarot.engine import games
from p2ptarot.present.screen import move_options

from tests.app import test_app_layer as _layer

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
#: the busiest decisions kept per game (and per seed) for the walk
BUSIEST = 6
SEEDS = (1, 2, 3)


def _busiest(game: str, players: int) -> list[tuple[int, Any, list[Any]]]:
    found: list[tuple[int, Any, list[Any]]] = []
    for seed in SEEDS:
        states = _layer._states(game, players, lambda v, l: len(l) > MENU_MAX, seed=seed,
                                limit=400)
        found += sorted(states, key=lambda s: -len(s[2]))[:BUSIEST]
    return found


def _walk(options: list[Any], entries: list[Entry], depth: int, reached: list[int],
          deepest: list[int]) -> None:
    # a level of plain moves (a trick game's hand, a card a line) may show up to FLAT_MAX
    bound = FLAT_MAX if all(len(e.options) == 1 for e in entries) else MENU_MAX
    assert 1 <= len(entries) <= bound, (depth, [e.label for e in entries])
    deepest[0] = max(deepest[0], depth)
    for e in entries:
        if len(e.options) == 1:
            reached.append(e.options[0])
            continue
        below = submenu(options, e)
        assert sorted(n for x in below for n in x.options) == sorted(e.options)
        # a card at a time: a deeper entry picks at most one more card (besides a card every
        # move of the entry names, such as the Chariot itself: that one is no choice)
        named = [set(options[n - 1].cards or ([options[n - 1].card] if options[n - 1].card else []))
                 for n in e.options]
        common = set.intersection(*named)
        for x in below:
            assert len(set(x.picked) - set(e.picked) - common) <= 1, (e.label, x.label)
        _walk(options, below, depth + 1, reached, deepest)


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_every_menu_of_the_busiest_decisions_fits_a_screen(game: str) -> None:
    gi = next(g for g in games() if g.name == game)
    walked = 0
    for players in sorted({gi.min_players, gi.max_players}):
        for seat, view, legal in _busiest(game, players):
            options = list(move_options(legal, view, NAMES[:players]))
            reached: list[int] = []
            deepest = [0]
            _walk(options, first_menu(options), 1, reached, deepest)
            assert sorted(reached) == list(range(1, len(options) + 1))
            assert deepest[0] <= 6, deepest
            walked += 1
    assert walked > 0 or game in ("sinople", "trois-roses", "paris-divins"), game


def test_a_multi_card_move_is_picked_a_card_at_a_time_with_0_back() -> None:
    """The busiest Arcanum decision naming several cards, played at the terminal: each menu is
    short, a card is added per menu, 0 goes back one menu, and the move chosen is the one sent."""
    def several(view: Any, legal: list[Any]) -> bool:
        return len(legal) > MENU_MAX and any(len(m.to_json().get("handles") or []) >= 3
                                             for m in legal)
    states = [s for seed in SEEDS for s in _layer._states("arcanum", 3, several, seed=seed,
                                                            limit=20)]
    assert states, "no Arcanum decision with several-card moves in the bot games"
    seat, view, legal = max(states, key=lambda s: len(s[2]))
    options = list(move_options(legal, view, NAMES[:3]))
    target = max(range(len(options)), key=lambda k: len(options[k].cards)) + 1
    hub = Hub()
    said: list[str] = []
    term = Terminal(hub, say=said.append, lang="en")
    term.me = NAMES[seat]
    hub.publish(TurnStarted(1, tuple(options), None))
    typed = 0
    while hub.commands.empty():
        k = next(i for i, e in enumerate(term.menu, 1) if target in e.options)
        if term.path and typed == 1:  # once: go back a menu and come again
            term.handle_line("0")
            assert len(term.path) == 0
            typed += 1
            continue
        term.handle_line(str(k))
        typed += 1
        assert len(term.menu) <= FLAT_MAX
        shown = said[-1].splitlines()
        assert len(shown) <= FLAT_MAX + 3  # heading, entries, the way back, the prompt
        assert typed < 20
    assert hub.commands.get_nowait() == PlayMove(1, target)
