"""The terminal's prompt lives only while the turn is open (issue 33, item 3): a move made in
the page (the player's other front end) or played by the time rule closes it, and so does the
end of the game; news printed afterwards is not followed by a stale "your move" line."""

from __future__ import annotations

import asyncio
import time

from p2ptarot.app.events import GameFinished, MovePlayed, Notice, Standing, Waiting
from p2ptarot.app.hub import Hub
from p2ptarot.app.table import TableApp
from p2ptarot.cli.front import Terminal

from tests.app import test_app_layer as _layer

NAMES = ("Ann", "Bob", "Carol")


def _open_turn() -> tuple[Terminal, Hub, list[str], int]:
    seat, view, legal = _layer._states("sinople", 3, lambda v, l: len(l) >= 2)[0]
    hub = Hub()
    app = TableApp("sinople", None, NAMES, seat, 600, 60)
    hub.open_table(app)
    said: list[str] = []
    term = Terminal(hub, say=said.append, lang="en")
    hub.publish(app.opened())
    hub.deadline = time.time() + 561
    hub.publish(app.turn(legal, view, hub.deadline))
    assert said[-1].splitlines()[-1].startswith(f"{NAMES[seat]}, ")  # the prompt is open
    return term, hub, said, seat


def _prompts(lines: list[str], name: str) -> list[str]:
    return [ln for chunk in lines for ln in chunk.splitlines()
            if ln.startswith(f"{name}, ") and "left" in ln]


def test_a_move_made_in_the_page_closes_the_terminal_prompt() -> None:
    term, hub, said, seat = _open_turn()
    before = len(said)
    hub.publish(MovePlayed(7, seat, NAMES[seat], "Play the 3 of spades"))
    hub.publish(Notice("Bob: hello"))
    hub.publish(Waiting((1,), ("Bob",), "move", time.time() + 500))
    assert not _prompts(said[before:], NAMES[seat])
    assert term.prompt() == "" or not _still_asking(term)
    raws: list[str] = []
    term.raw, term.live = raws.append, True

    async def one_tick() -> None:
        task = asyncio.ensure_future(term.remind())
        await asyncio.sleep(1.3)
        task.cancel()
    asyncio.run(one_tick())
    assert raws == []  # the countdown no longer redraws a prompt


def test_another_seats_move_keeps_the_prompt_under_the_news() -> None:
    term, hub, said, seat = _open_turn()
    before = len(said)
    other = (seat + 1) % 3
    hub.publish(MovePlayed(7, other, NAMES[other], "Play the 3 of spades"))
    assert _prompts(said[before:], NAMES[seat])


def test_the_end_of_the_game_closes_the_prompt() -> None:
    term, hub, said, seat = _open_turn()
    before = len(said)
    hub.publish(GameFinished(tuple(Standing(n, i, 10 - i, i == 0, i + 1)
                                   for i, n in enumerate(NAMES))))
    hub.publish(Notice("the transcript is saved"))
    assert not _prompts(said[before:], NAMES[seat])
    assert not _still_asking(term)


def _still_asking(term: Terminal) -> bool:
    return term.turn is not None and not term.answered
