"""The terminal's two short menus (issue 23): a long Arcanum move list becomes first the cards,
then the chosen card's targets; 0 goes back; a short list still plays from one menu."""

from __future__ import annotations

from p2ptarot.app.events import PlayMove, TurnStarted
from p2ptarot.app.hub import Hub
from p2ptarot.cli.front import Terminal
from p2ptarot.cli.menus import ONE_MENU_UP_TO, first_menu
from p2ptarot.present.screen import move_options

from tests.app import test_app_layer as _layer

NAMES = ("Alice", "Bob", "Carol")


def _many_per_card(view: object, legal: list) -> bool:
    cards = [m.to_json().get("handle") for m in legal]
    return len(legal) > 2 * ONE_MENU_UP_TO and max(cards.count(c) for c in cards) >= 3


def _terminal(game: str, want: object) -> tuple[Terminal, Hub, TurnStarted, list[str]]:
    seat, view, legal = _layer._states(game, 3, want)[0]
    hub = Hub()
    said: list[str] = []
    term = Terminal(hub, say=said.append, lang="en")
    term.me = NAMES[seat]
    turn = TurnStarted(1, move_options(legal, view, NAMES), None)
    hub.publish(turn)
    return term, hub, turn, said


def test_a_long_arcanum_list_is_first_the_card_then_its_targets() -> None:
    term, hub, turn, said = _terminal("arcanum", _many_per_card)
    menu = first_menu(turn.options)
    assert len(menu) < len(turn.options)  # shorter than the flat list
    assert sorted(n for e in menu for n in e.options) == list(range(1, len(turn.options) + 1))
    first = said[-1]
    assert first.rstrip().endswith(f"Alice, your move [1-{len(menu)}, h for help]:")
    k, entry = next((k, e) for k, e in enumerate(menu, 1) if len(e.options) >= 3)
    assert f"{k}. {entry.label}" in first and "choices" in entry.label
    term.handle_line(str(k))  # the card: its targets are listed, nothing is played yet
    assert hub.commands.empty()
    second = said[-1].splitlines()
    assert second[0] == f" -- {entry.name} --" and "0. back to the first menu" in said[-1]
    assert entry.label.startswith(entry.name) and entry.name in turn.options[entry.options[0] - 1].sentence
    assert second[-1] == f"Alice, {entry.name}: which one? [1-{len(entry.options)}, 0 back]:"
    for j, n in enumerate(entry.options, 1):
        assert f"  {j}. {turn.options[n - 1].sentence}" in second
    term.handle_line(str(len(entry.options) + 1))
    assert said[-1] == f"  please type a number from 1 to {len(entry.options)}, or 0 to go back"
    term.handle_line("0")  # back to the cards
    assert said[-1].rstrip().endswith("your move [1-" + str(len(menu)) + ", h for help]:")
    term.handle_line(str(k))
    term.handle_line("2")  # the second target of that card
    played = hub.commands.get_nowait()
    assert played == PlayMove(1, entry.options[1])
    assert turn.options[entry.options[1] - 1].card == turn.options[entry.options[0] - 1].card


def test_a_short_list_plays_from_one_menu() -> None:
    term, hub, turn, said = _terminal("sinople", lambda v, l: 3 <= len(l) <= ONE_MENU_UP_TO)
    assert [e.options for e in first_menu(turn.options)] == [(n,) for n in range(1, len(turn.options) + 1)]
    assert f"  1. {turn.options[0].sentence}" in said[-1]
    term.handle_line("2")
    assert hub.commands.get_nowait() == PlayMove(1, 2)
