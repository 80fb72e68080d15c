"""A round's result holds the next deal (issue 23): until the player continues, leaves, or the
limit; a screen nobody reads (no front end, a stand-in bot) holds only BOT_PAUSE seconds."""

from __future__ import annotations

import asyncio

from p2ptarot.app.events import Continue, PlayMove, RoundHeld, command_from_json
from p2ptarot.app.hub import BOT_PAUSE, HOLD_MAX, Hub
from p2ptarot.cli.front import HOLD_TEXT, Terminal


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_the_deal_waits_for_continue_and_the_page_command_parses() -> None:
    hub = Hub(clock=lambda: 1000.0)
    hub.attach()  # a page is open
    said: list[str] = []
    Terminal(hub, say=said.append)
    hold = asyncio.create_task(hub.hold_round(3, 600.0))
    await _settle()
    assert not hold.done() and hub.round_held == 3
    assert hub.history[-1] == RoundHeld(3, 1000.0 + HOLD_MAX)  # capped at HOLD_MAX
    assert "press Enter when you have read it: the next deal waits for you" in said[-1]
    hub.send(PlayMove(1, 1))  # a move is no answer to the hold
    await _settle()
    assert not hold.done()
    hub.send(command_from_json({"cmd": "continue"}))
    await asyncio.wait_for(hold, 5)
    assert hub.round_held is None and hub.history[-1] == RoundHeld(3, 1000.0, held=False)
    assert isinstance(hub.commands.get_nowait(), PlayMove) and hub.commands.empty()  # not queued


async def test_leaving_ends_the_hold() -> None:
    hub = Hub(clock=lambda: 0.0)
    hub.attach()
    hold = asyncio.create_task(hub.hold_round(1, 100.0))
    await _settle()
    assert not hold.done()
    hub.leaving.set()
    await asyncio.wait_for(hold, 5)
    assert hub.round_held is None


async def test_nobody_reading_holds_only_a_short_pause() -> None:
    hub = Hub(clock=lambda: 50.0)  # no front end open
    hold = asyncio.create_task(hub.hold_round(2, 100.0))
    await _settle()
    assert hub.history[-1] == RoundHeld(2, 50.0 + BOT_PAUSE)
    hub.send(Continue())
    await asyncio.wait_for(hold, 5)
    hub.attach()
    hub.stand_in = True  # a bot plays the seat: the same short pause
    hold = asyncio.create_task(hub.hold_round(3, 100.0))
    await _settle()
    assert hub.history[-1] == RoundHeld(3, 50.0 + BOT_PAUSE)
    hub.send(Continue())
    await asyncio.wait_for(hold, 5)


async def test_a_continue_before_the_hold_starts_is_not_lost() -> None:
    from p2ptarot.app.events import RoundOver

    hub = Hub(clock=lambda: 0.0)
    hub.attach()
    hub.publish(RoundOver(1, {"winner": "Ann"}, {}))
    hub.send(Continue())  # the page's Continue, before this peer has anything to hold
    await asyncio.wait_for(hub.hold_round(1, 100.0), 5)
    assert not any(isinstance(e, RoundHeld) for e in hub.history)
    hub.publish(RoundOver(2, {"winner": "Bob"}, {}))
    hold = asyncio.create_task(hub.hold_round(2, 100.0))  # round 2 is not read yet
    await _settle()
    assert not hold.done() and hub.round_held == 2
    hub.send(Continue())
    await asyncio.wait_for(hold, 5)


async def test_a_move_of_the_player_counts_as_read() -> None:
    from p2ptarot.app.events import RoundOver

    hub = Hub(clock=lambda: 0.0)
    hub.attach()
    hub.publish(RoundOver(1, {"winner": "Ann"}, {}))
    hub.send(PlayMove(4, 2))  # the next round opened with his own choice: he played it
    await asyncio.wait_for(hub.hold_round(1, 100.0), 5)
    assert hub.round_held is None and isinstance(hub.commands.get_nowait(), PlayMove)


def test_during_a_hold_the_others_read_a_wording_true_either_way() -> None:
    """Nothing on the wire says a seat holds: after a round ended and until a waited seat's first
    message, the others read 'reading the round's result, or starting the next deal', not the
    step's own words (spec/APP.md, "Round ends")."""
    from p2ptarot.app.table import TableApp

    app = TableApp("sinople", None, ("Alice", "Bob", "Cat"), 1)
    step = "mental.shuffle for tarot-78/sinople epoch 1 (op 0)"
    assert app.waiting([0], step, None).what == "shuffling the cards"  # no round over yet
    app._quiet = {0, 1, 2}  # as `rounds_over` leaves it when a round ended
    ev = app.waiting([0, 2], step, 5.0)
    assert ev.what == "between-rounds"
    assert ev.sentence == ("waiting for Alice and Cat (reading the round's result, or starting "
                           "the next deal)")
    app.heard(0)  # Alice's first message of the next deal: she is at work
    assert app.waiting([0, 2], step, 9.0).what == "shuffling the cards"
    assert app.waiting([2], "move", 9.0).what == "move"  # a move is waited for as a move
