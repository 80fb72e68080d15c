"""The time policy of a person's seat: thinking is never punished. A connected player keeps the
seat however long the move takes; the bot comes only after the player left (for the table's
grace) or, at the move's deadline, for that one move when the table's rule has a stand-in.
Clocks here are fake (`Hub(clock=...)`): nothing waits on real time."""

from __future__ import annotations

import asyncio
from typing import Any

from p2ptarot.app.clock import (LAST_MOMENT, WARN_AT, countdown, next_step, rule_text,
                                warning_text)
from p2ptarot.app.events import Notice, PlayMove, StandInChanged, TimeWarning, Waiting
from p2ptarot.app.human import human_chooser
from p2ptarot.app.hub import Hub
from p2ptarot.app.table import TableApp
from p2ptarot.table.effects import NeedMove
from p2ptarot.table.inputs import StandInMove

from tests.app.test_stand_in_chooser import LEGAL, NAMES, SEAT, VIEW  # (same states)


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_connected_player_is_only_warned_then_the_overdue_move_is_the_bots() -> None:
    deadline = 1600.0
    assert next_step(1000, deadline, None, 60, frozenset()) == next_step(1000, deadline, None, 60,
                                                                         frozenset())
    wait = next_step(1000, deadline, None, 60, frozenset())
    assert wait.kind == "wait" and wait.at == deadline - 60  # the first warning is next
    assert next_step(1541, deadline, None, 60, frozenset()).kind == "warn"
    assert next_step(1541, deadline, None, 60, frozenset()).left == 60
    late = next_step(1590, deadline, None, 60, frozenset())  # both marks passed: say what is left
    assert (late.kind, late.left) == ("warn", 15)
    assert next_step(1590, deadline, None, 60, frozenset(WARN_AT)).at == deadline - LAST_MOMENT
    assert next_step(1596, deadline, None, 60, frozenset(WARN_AT)).kind == "overdue"
    # no stand-in at this table: warned, then nothing (the table is abandoned at the deadline)
    assert next_step(1596, deadline, None, 0, frozenset(WARN_AT)).kind == "wait"
    assert next_step(1596, deadline, None, 60, frozenset(WARN_AT), stand_in=False).kind == "wait"


def test_a_player_who_left_gets_the_bot_after_the_grace_only() -> None:
    assert next_step(1030, None, 1000, 60, frozenset()).kind == "wait"
    assert next_step(1061, None, 1000, 60, frozenset()).kind == "away"
    assert next_step(5000, None, 1000, 0, frozenset()).kind == "wait"  # 0: never by itself


def test_the_words() -> None:
    assert countdown(299.6) == "4:59" and countdown(-3) == "0:00" and countdown(61) == "1:01"
    assert warning_text(60, 60) == ("1 min left for your move: then a bot plays this one move for "
                                    "you (you keep your seat)")
    assert warning_text(15, 0).endswith("then the table is abandoned (nobody is blamed) and the game ends")
    assert rule_text(600, 60).startswith("a move may take up to 10 min; you are warned")
    assert "after 60 s until you come back" in rule_text(600, 60)
    assert "No bot plays" in rule_text(90, 0) and "1 min 30 s" in rule_text(90, 0)


def _hub(clock: FakeClock, grace: int) -> Hub:
    hub = Hub(clock=clock)
    hub.open_table(TableApp("sinople", None, NAMES, SEAT, 600, grace))
    return hub


async def _bot(need: NeedMove) -> Any:
    return need.legal[-1]


async def _until(cond: Any) -> None:
    for _ in range(400):
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the chooser did not get there")


async def test_five_minutes_of_thought_keep_the_seat_and_the_player_plays() -> None:
    clock = FakeClock()
    hub = _hub(clock, grace=60)
    hub.attach()  # the page is open
    task = asyncio.ensure_future(human_chooser(hub, "Alice", stand_in=_bot)(
        NeedMove(SEAT, tuple(LEGAL), VIEW)))
    await _until(lambda: hub.turn is not None)
    clock.now += 300  # five minutes of thought: far past the grace, well within the move time
    await asyncio.sleep(1.2)  # the chooser looks at the clock at least once a second
    assert not task.done() and not hub.stand_in
    assert not [e for e in hub.history if isinstance(e, (TimeWarning, StandInChanged))]
    assert hub.turn is not None
    hub.send(PlayMove(hub.turn.turn, 1))
    move = await asyncio.wait_for(task, 5)
    assert not isinstance(move, StandInMove)


async def test_warned_at_60_and_15_seconds_then_the_bot_plays_that_move_only() -> None:
    clock = FakeClock()
    hub = _hub(clock, grace=60)
    hub.attach()
    hub.publish(Waiting((SEAT,), ("you",), "move", clock.now + 600, yours=True))
    task = asyncio.ensure_future(human_chooser(hub, "Alice", stand_in=_bot)(
        NeedMove(SEAT, tuple(LEGAL), VIEW)))
    await _until(lambda: hub.turn is not None)
    clock.now += 541
    await _until(lambda: any(isinstance(e, TimeWarning) for e in hub.history))
    clock.now += 45
    await _until(lambda: sum(isinstance(e, TimeWarning) for e in hub.history) == 2)
    assert [e.left for e in hub.history if isinstance(e, TimeWarning)] == [60, 15]
    assert not task.done()
    clock.now += 10  # 4 s left: the charter's rule (a stand-in table) plays this move now
    move = await asyncio.wait_for(task, 5)
    # that one move, unmarked (the player is here: no stand-in marker, no takeover anywhere)
    assert move == LEGAL[-1] and not isinstance(move, StandInMove)
    assert not hub.stand_in  # the seat stays the player's: no takeover
    assert any(isinstance(e, Notice) and "keeps the seat and plays the next move" in e.text
               for e in hub.history)


async def test_a_closed_page_lets_the_bot_take_the_seat_after_the_grace() -> None:
    clock = FakeClock()
    hub = _hub(clock, grace=60)
    hub.attach()
    task = asyncio.ensure_future(human_chooser(hub, "Alice", stand_in=_bot)(
        NeedMove(SEAT, tuple(LEGAL), VIEW)))
    await _until(lambda: hub.turn is not None)
    hub.detach()  # the page closed
    clock.now += 30
    await asyncio.sleep(1.2)
    assert not task.done()  # a reload is not leaving
    clock.now += 31
    assert await asyncio.wait_for(task, 5) == StandInMove(LEGAL[-1])
    assert hub.stand_in
    hub.attach()  # she comes back: the seat is hers again on her first command
    assert hub.away_since is None
