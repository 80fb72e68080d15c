"""The stand-in bot in the seat's own peer (sans sockets): it takes the seat when a turn is left
unanswered for the table's grace or when the player hands it over, keeps it turn after turn,
gives it back on any command of the player's; every peer announces a takeover and a return
once, from the log's `by` markers."""

from __future__ import annotations

import asyncio
from typing import Any

from p2ptarot.app.events import (HandOver, Leave, MovePlayed, Notice, PlayMove, Presence,
                                 StandInChanged, TakeBack, TurnStarted, command_from_json)
from p2ptarot.app.human import LeftTable, human_chooser
from p2ptarot.app.hub import Hub
from p2ptarot.app.table import TableApp
from p2ptarot.cli.front import Terminal
from p2ptarot.table.effects import NeedMove
from p2ptarot.table.inputs import StandInMove

import pytest

from tests.app import test_app_layer as _layer

NAMES = ("Alice", "Bob", "Carol")
SEAT, VIEW, LEGAL = _layer._states("sinople", 3, lambda v, l: len(l) >= 3)[0]
FORCED = _layer._states("sinople", 3, lambda v, l: len(l) == 1)[0]


def _need() -> NeedMove:
    return NeedMove(SEAT, tuple(LEGAL), VIEW)


def _hub(stand_in_after: int = 0) -> Hub:
    hub = Hub()
    hub.open_table(TableApp("sinople", None, NAMES, SEAT, 300, stand_in_after))
    return hub


async def _bot(need: NeedMove) -> Any:
    return need.legal[-1]


async def _settle() -> None:
    """Let every ready task run (ordering, not time: nothing here waits on a clock)."""
    for _ in range(20):
        await asyncio.sleep(0)


def _changes(hub: Hub) -> list[StandInChanged]:
    return [e for e in hub.history if isinstance(e, StandInChanged)]


async def test_after_the_grace_the_bot_plays_and_keeps_the_seat_announced_once() -> None:
    hub = _hub()
    choose = human_chooser(hub, "Alice", stand_in=_bot, grace=0.02)
    first = await asyncio.wait_for(choose(_need()), 5)
    assert first == StandInMove(LEGAL[-1]) and hub.stand_in
    turns = sum(isinstance(e, TurnStarted) for e in hub.history)
    second = await asyncio.wait_for(choose(_need()), 5)  # no wait at all: the bot has the seat
    third = await asyncio.wait_for(choose(NeedMove(FORCED[0], tuple(FORCED[2]), FORCED[1])), 5)
    assert second == StandInMove(LEGAL[-1])
    assert third == StandInMove(FORCED[2][0])  # a forced move while away is the bot's too
    assert sum(isinstance(e, TurnStarted) for e in hub.history) == turns  # no prompt meanwhile
    changes = _changes(hub)
    assert len(changes) == 1 and changes[0].active
    # named as the table signed it (a resumed peer's --name may differ): issue 33, item 2
    assert changes[0].reason == \
        f"{NAMES[SEAT]} left the table (no page or terminal open for 0.02 s)"
    assert "type back" in changes[0].sentence


async def test_the_grace_comes_from_the_charter_and_zero_never_takes_the_seat() -> None:
    hub = _hub(stand_in_after=0)
    task = asyncio.ensure_future(human_chooser(hub, "Alice", stand_in=_bot)(_need()))
    await _settle()
    assert not task.done() and not hub.stand_in  # 0 = never by itself: it waits for Alice
    turn = hub.turn
    assert turn is not None
    hub.send(PlayMove(turn.turn, 1))
    move = await asyncio.wait_for(task, 5)
    assert move == LEGAL[turn.options[0].index] and not isinstance(move, StandInMove)
    assert not _changes(hub)
    policy = _hub(stand_in_after=1)
    assert policy.app is not None and policy.app.opened().stand_in_after == 1  # told to all
    move = await asyncio.wait_for(human_chooser(policy, "Alice", stand_in=_bot)(_need()), 10)
    assert move == StandInMove(LEGAL[-1])  # the charter's 1 s, with no local grace given
    assert _changes(policy)[0].reason == \
        f"{NAMES[SEAT]} left the table (no page or terminal open for 1 s)"


async def test_any_command_of_the_player_takes_the_seat_back() -> None:
    for back in (TakeBack(), PlayMove(1, 1)):
        hub = _hub()
        choose = human_chooser(hub, "Alice", stand_in=_bot, grace=0.01)
        assert isinstance(await asyncio.wait_for(choose(_need()), 5), StandInMove)
        hub.send(back)  # between two turns: a click, a typed line, `back`
        assert not hub.stand_in
        task = asyncio.ensure_future(human_chooser(hub, "Alice", stand_in=_bot, grace=None)(_need()))
        await _settle()
        assert not task.done()  # Alice's turn again: a stale click of turn 1 did not play it
        assert not any(isinstance(e, Notice) and "not on offer" in e.text for e in hub.history)
        turn = hub.turn
        assert turn is not None and turn.turn == 2
        hub.send(PlayMove(turn.turn, 2))
        assert await asyncio.wait_for(task, 5) == LEGAL[turn.options[1].index]
        assert [c.active for c in _changes(hub)] == [True, False]


async def test_handing_over_plays_the_open_turn_at_once_and_the_next_ones() -> None:
    hub = _hub(stand_in_after=0)
    choose = human_chooser(hub, "Alice", stand_in=_bot)
    task = asyncio.ensure_future(choose(_need()))
    await _settle()
    assert not task.done()
    hub.send(command_from_json({"cmd": "bot"}))  # the page's "let a bot play for me"
    assert await asyncio.wait_for(task, 5) == StandInMove(LEGAL[-1])
    assert await asyncio.wait_for(choose(_need()), 5) == StandInMove(LEGAL[-1])
    hub.send(HandOver())  # asked twice: announced once
    hub.send(command_from_json({"cmd": "back"}))
    assert [(c.active, c.reason) for c in _changes(hub)] == [(True, "you asked for it"),
                                                             (False, "you asked for it")]


async def test_leaving_still_leaves_while_the_turn_is_open() -> None:
    hub = _hub(stand_in_after=0)
    task = asyncio.ensure_future(human_chooser(hub, "Alice", stand_in=_bot)(_need()))
    await _settle()
    hub.send(Leave("bye"))
    with pytest.raises(LeftTable):
        await asyncio.wait_for(task, 5)


async def test_without_a_stand_in_bot_a_hand_over_is_refused_politely() -> None:
    hub = _hub()
    task = asyncio.ensure_future(human_chooser(hub, "Alice")(_need()))
    await _settle()
    hub.send(HandOver())
    await _settle()
    assert not task.done() and not hub.stand_in
    assert [(c.active, c.reason) for c in _changes(hub)][-1] == \
        (False, "no stand-in bot can play this seat here")
    task.cancel()


def test_every_peer_announces_a_takeover_and_a_return_once_from_the_log() -> None:
    app = TableApp("sinople", None, NAMES, seat=2)
    marks = [(1, True), (1, True), (0, False), (1, False), (1, False), (1, True), (0, True)]
    said = [app.stand_in(seat, bot) for seat, bot in marks]
    assert [(p.seat, p.status) if p else None for p in said] == [
        (1, "stand-in"), None, None, (1, "back"), None, (1, "stand-in"), (0, "stand-in")]
    assert said[0] is not None and said[0].sentence == \
        "Bob's seat is played by a bot until Bob comes back"
    assert said[3] is not None and said[3].sentence == "Bob is back"
    assert app.bot_seats == {0, 1}
    ev = app.move_recorded(5, 1, LEGAL[0].to_json(), VIEW, by="bot")
    assert isinstance(ev, MovePlayed) and ev.to_json()["by"] == "bot"
    assert isinstance(said[0], Presence) and said[0].to_json()["status"] == "stand-in"


def test_page_commands_bot_and_back() -> None:
    assert isinstance(command_from_json({"cmd": "bot"}), HandOver)
    assert isinstance(command_from_json({"cmd": "back"}), TakeBack)


def test_the_terminal_hands_over_with_bot_and_any_line_takes_the_seat_back() -> None:
    hub = _hub()
    said: list[str] = []
    term = Terminal(hub, say=said.append)
    term.handle_line("bot")
    assert hub.stand_in and isinstance(hub.commands.get_nowait(), HandOver)
    assert any("a bot plays your seat (you asked for it)" in s for s in said)
    term.handle_line("bot")
    assert any("already plays for you" in s for s in said)
    term.handle_line("h")  # help does not take the seat back
    assert hub.stand_in and any("bot = let a bot play for you" in s for s in said)
    term.handle_line("7")
    assert not hub.stand_in and isinstance(hub.commands.get_nowait(), TakeBack)
    assert any("you have your seat back" in s for s in said)
    hub.publish(MovePlayed(9, SEAT, "Alice", "Play a card", by="bot"))
    assert said[-1] == "  Alice [bot]: Play a card"


async def test_the_peers_own_automatic_moves_stay_marked_while_the_player_is_away() -> None:
    from p2ptarot.present.eleusis import automatic
    seat, view, legal = _layer._states("eleusis", 4, lambda v, l: automatic(v, l))[0]
    hub = _hub()
    hub.hand_over("test")

    async def no_bot(need: NeedMove) -> Any:
        raise AssertionError("a dealer's judgment is computed by the peer, not chosen by a bot")
    move = await human_chooser(hub, "Alice", stand_in=no_bot)(NeedMove(seat, tuple(legal), view))
    assert move == StandInMove(legal[0])  # marked: the table must not think Alice came back


async def test_an_overdue_move_is_played_for_the_player_with_no_takeover() -> None:
    """The time rule plays one move for a connected player who ran out of time: the move goes
    out unmarked (the player is here, PROTOCOL §5.1), nobody announces a bot, the seat stays."""
    now = [1000.0]
    hub = Hub(clock=lambda: now[0])
    hub.open_table(TableApp("sinople", None, NAMES, SEAT, 300, 60))
    hub.attach()  # a page or terminal is open: the player thinks, the grace never runs
    task = asyncio.ensure_future(human_chooser(hub, "Alice", stand_in=_bot)(_need()))
    await _settle()
    assert not task.done()
    now[0] += 301  # past the move time
    move = await asyncio.wait_for(task, 5)
    assert move == LEGAL[-1] and not isinstance(move, StandInMove)
    assert not hub.stand_in and not _changes(hub)
    notes = [e.text for e in hub.history if isinstance(e, Notice)]
    who = NAMES[SEAT]  # the table's name for the seat, not the chooser's default
    assert any(f"{who} keeps the seat" in n and f"one move was played for {who}" in n
               for n in notes)
    assert not any("bot" in n for n in notes)
    # every peer (this one too) reads the unmarked move: no takeover, no badge
    watcher = TableApp("sinople", None, NAMES, seat=0)
    assert watcher.stand_in(SEAT, False) is None and not watcher.bot_seats
    lines: list[str] = []
    term = Terminal(Hub(), say=lines.append)
    for ev in hub.history:
        term.on_event(ev)
    assert any(f"{who} keeps the seat" in line for line in lines)
    assert not any("[bot]" in line or "played by a bot" in line for line in lines)
