"""A table hosted by a bot (`host --bot`) cannot be held by a joiner that never says Ready
(issue 21 item 6): once every seat is taken, the lobby grace runs; when it is over the table
starts with the ready players, the silent joiner is told it is left out, and the game plays to a
verified end. Real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2ptarot.app.events import LobbyState
from p2ptarot.app.hub import Hub
from p2ptarot.bots import make as make_bot
from p2ptarot.peer.config import DEFAULT_LOBBY_GRACE, PeerConfig, RunError
from p2ptarot.peer.lobby import _Grace
from p2ptarot.peer.run import bot_chooser, run_host, run_join
from p2ptarot.peer.store import read_transcript
from p2ptarot.table.control import JoinFrame
from p2ptarot.table.room import Room, RoomSeat
from p2ptarot.transcript import verify_transcript

pytestmark = pytest.mark.network
WAIT = 60.0  # safety net against a hang, never asserted on
GRACE = 1.5


def cfg(tmp: Path, name: str, hub: Hub | None = None, ready: bool = True,
        bot: bool = False) -> PeerConfig:
    return PeerConfig(data_dir=tmp / name, name=name, interface="127.0.0.1", timeout=60,
                      move_timeout=300, linger=1.0, lobby_timeout=300, hub=hub, ready=ready,
                      bot=bot, lobby_grace=GRACE)


def test_the_grace_runs_from_the_first_full_table_and_only_for_a_bot_host() -> None:
    room = Room("sinople", None, 3, RoomSeat(b"h" * 32, "Host", "", ready=True, bot=True), 2, 6)
    grace = _Grace(10.0, active=True)
    grace.note(room, 0.0)
    assert grace.wait(0.0) is None and not grace.due(100.0)  # one seat of three: no grace
    room.join(b"a" * 32, JoinFrame(name="Ann"))
    room.join(b"s" * 32, JoinFrame(name="Squat", ready=False))
    grace.note(room, 5.0)
    assert grace.wait(5.0) == 10.0 and not grace.due(14.9) and grace.due(15.0)
    assert grace.wait(15.0) is None  # over: only a lobby event can change anything now
    room.leave(b"s" * 32)  # a seat freed does not restart the wait: it ran from the first full
    grace.note(room, 16.0)
    assert grace.wait(16.0) is None and grace.due(16.0)
    early = _Grace(10.0, active=True)  # freed before the grace ended: it keeps running
    full = Room("sinople", None, 2, RoomSeat(b"h" * 32, "Host", "", ready=True, bot=True), 2, 6)
    full.join(b"s" * 32, JoinFrame(name="Squat", ready=False))
    early.note(full, 0.0)
    full.leave(b"s" * 32)
    early.note(full, 4.0)
    full.join(b"s" * 32, JoinFrame(name="Squat", ready=False))
    early.note(full, 6.0)
    assert early.wait(6.0) == 4.0 and early.due(10.0)
    person = _Grace(10.0, active=False)  # a person hosting has a Start button instead
    person.note(Room("sinople", None, 1, RoomSeat(b"p" * 32, "P", "", ready=True), 1, 6), 0.0)
    assert not person.due(1000.0)
    assert DEFAULT_LOBBY_GRACE > 0


#: the table the grace is tested on: a short whole game follows (Les paris divins), not nine
#: rounds of sinople (whole sinople games are the network and browser tests')
GAME = "paris-divins"


async def test_a_silent_joiner_cannot_hold_a_bot_hosted_table(tmp_path: Path) -> None:
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(run_host(cfg(tmp_path, "Hostbot", bot=True), GAME, None, 3,
                                        bot_chooser(make_bot("random", 1)),
                                        on_listening=listening.set_result))
    tasks: list[asyncio.Task] = [host]
    try:
        url = await asyncio.wait_for(listening, WAIT)
        squatter_hub = Hub()
        squatter = asyncio.create_task(run_join(cfg(tmp_path, "Squat", squatter_hub, ready=False),
                                                url, GAME, bot_chooser(make_bot("random", 2))))
        tasks.append(squatter)
        async with asyncio.timeout(WAIT):  # seated, not ready: the table is not full yet
            while not any(isinstance(e, LobbyState) and e.seat == 1 for e in squatter_hub.history):
                await asyncio.sleep(0.02)
        await asyncio.sleep(2 * GRACE)
        assert not host.done() and not squatter.done()  # a seat free: the grace has not started
        player = asyncio.create_task(run_join(cfg(tmp_path, "Ann"), url, GAME,
                                              bot_chooser(make_bot("random", 3))))
        tasks.append(player)
        with pytest.raises(RunError, match="without you"):
            await asyncio.wait_for(squatter, WAIT)
        rh, ra = await asyncio.wait_for(asyncio.gather(host, player), 600)
        assert rh.outcome is not None and rh.outcome == ra.outcome
        transcript = read_transcript(rh.transcript)
        assert [s.name for s in transcript.charter.charter.seats] == ["Hostbot", "Ann"]
        assert verify_transcript(transcript).valid
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def test_a_squatter_churning_every_15_s_is_left_out_after_the_grace() -> None:
    """The red team's squatter: it sits (not ready) on the last seat of a bot-hosted table,
    leaves after 14 s and sits again 1 s later, for ever. The host's pump is replayed second by
    second on the sans-I/O room with the default grace: the table starts with the ready players
    at the grace's end after the first full moment (it used to restart at every sit), long before
    the lobby timeout, whether the squatter is seated at that moment or not."""
    grace = _Grace(DEFAULT_LOBBY_GRACE, active=True)
    room = Room(GAME, None, 3, RoomSeat(b"h" * 32, "Hostbot", "", ready=True, bot=True), 2, 6)
    room.join(b"a" * 32, JoinFrame(name="Ann"))
    started = None
    for now in range(0, 600):  # the lobby timeout's default
        if now % 15 == 0:
            room.join(b"s" * 32, JoinFrame(name="Squat", ready=False))
        elif now % 15 == 14:
            room.leave(b"s" * 32)
        grace.note(room, float(now))
        if grace.due(float(now)) and room.roster().can_start_now:
            started = now
            break
    assert started == DEFAULT_LOBBY_GRACE
    chosen = room.start_now()
    assert [s.name for s in chosen] == ["Hostbot", "Ann"]


async def test_a_squatter_who_leaves_and_sits_again_cannot_hold_a_bot_hosted_table(
        tmp_path: Path) -> None:
    """The same churn over real sockets, faster than the grace: the squatter's joiner quits (its
    link closed on purpose, its seat freed at once) and joins again, over and over. The table
    starts with Hostbot and Ann when the grace that began at the first full moment is over."""
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(run_host(cfg(tmp_path, "Hostbot", bot=True), GAME, None, 3,
                                        bot_chooser(make_bot("random", 1)),
                                        on_listening=listening.set_result))
    tasks: list[asyncio.Task] = [host]
    sits = 0
    try:
        url = await asyncio.wait_for(listening, WAIT)
        ann_hub = Hub()
        player = asyncio.create_task(run_join(cfg(tmp_path, "Ann", ann_hub), url, GAME,
                                              bot_chooser(make_bot("random", 3))))
        tasks.append(player)
        async with asyncio.timeout(WAIT):
            while not any(isinstance(e, LobbyState) and e.seat == 1 for e in ann_hub.history):
                await asyncio.sleep(0.02)
            while not host.done():
                hub = Hub()
                squatter = asyncio.create_task(run_join(
                    cfg(tmp_path, "Squat", hub, ready=False), url, GAME,
                    bot_chooser(make_bot("random", 2))))
                while not squatter.done() and not any(
                        isinstance(e, LobbyState) and e.seat == 2 for e in hub.history):
                    await asyncio.sleep(0.02)
                if not squatter.done():
                    sits += 1
                    await asyncio.sleep(GRACE / 3)  # seated a while, then it leaves
                squatter.cancel()
                await asyncio.gather(squatter, return_exceptions=True)
                if sits > 1 and player.done():
                    break
        rh, ra = await asyncio.wait_for(asyncio.gather(host, player), 600)
        assert sits >= 2  # it did sit again after leaving, and the table started all the same
        assert rh.outcome is not None and rh.outcome == ra.outcome
        transcript = read_transcript(rh.transcript)
        assert [s.name for s in transcript.charter.charter.seats] == ["Hostbot", "Ann"]
        assert verify_transcript(transcript).valid
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
