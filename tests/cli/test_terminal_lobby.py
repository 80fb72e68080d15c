"""The terminal in the lobby: the roster as it changes ('seat 2: Bob (ready)'), and typed
`ready`, `wait`, `start`, `say TEXT` become lobby commands while a move typed ahead waits for
the game's first prompt."""

from __future__ import annotations

import asyncio
import io

import pytest

from p2ptarot.app.events import LobbyState, Ready, StartNow, TableOpened, command_from_json
from p2ptarot.app.hub import Hub
from p2ptarot.cli.console import Console
from p2ptarot.cli.front import Terminal


def test_the_roster_is_printed_when_it_changes() -> None:
    hub, said = Hub(), []
    Terminal(hub, say=said.append)
    state = LobbyState("sinople", 3, ("Alice", "Bob"), ready=(True, False), bots=(False, False),
                       seat=1)
    hub.publish(state)
    text = "\n".join(said)
    assert "lobby: sinople, seats taken 2 of 3" in text
    assert "seat 1: Alice (host, ready)" in text and "seat 2: Bob (you, not ready)" in text
    assert "seat 3: (free)" in text and "type `ready`" in text
    said.clear()
    hub.publish(state)  # the same roster again: nothing new to print
    assert said == []
    hub.publish(LobbyState("sinople", 3, ("Alice", "Bob"), ready=(True, True), bots=(False, False),
                           seat=1))
    assert "seat 2: Bob (you, ready)" in "\n".join(said) and "type `ready`" not in "\n".join(said)


def test_the_host_is_offered_start_now_when_the_count_allows_it() -> None:
    hub, said = Hub(), []
    Terminal(hub, say=said.append)
    hub.publish(LobbyState("sinople", 4, ("Alice", "bot-1"), ready=(True, True), bots=(False, True),
                           can_start=True, seat=0, host=True))
    assert "seat 2: bot-1 (bot, ready)" in "\n".join(said)
    assert "type `start` to start now" in "\n".join(said)


async def test_lobby_lines_become_commands_and_a_move_typed_ahead_waits() -> None:
    hub, said = Hub(), []
    term = Terminal(hub, say=said.append)
    hub.publish(LobbyState("sinople", 3, ("Alice", "Bob"), ready=(True, False), seat=1))
    console = Console(io.StringIO("say Hello There\nready\nstart\n3\nwait\n"))
    reader = asyncio.create_task(term.read_commands(console))
    try:
        async with asyncio.timeout(10):
            while not console.typed_ahead or len(hub._lobby) < 2:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # nothing more is consumed: `3` is held for the game
        assert hub.take_chat() == ["Hello There"]  # the chat keeps its case
        assert hub.take_lobby() == [Ready(True), StartNow()]
        hub.publish(TableOpened("sinople", "Sinople", None, 1, ("Alice", "Bob", "Carol"), 300))
        assert not term.in_lobby
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
    assert await console.line() == "3"  # the move waits for the first prompt
    assert await console.line() == "wait"


@pytest.mark.parametrize("bad", [{"cmd": "ready", "ready": "yes"}, {"cmd": "ready", "ready": 1},
                                 {"cmd": "ready", "ready": None}])
def test_a_hostile_ready_command_is_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        command_from_json(bad)


def test_ready_and_start_commands_from_the_page() -> None:
    assert command_from_json({"cmd": "ready", "ready": False}) == Ready(False)
    assert command_from_json({"cmd": "ready"}) == Ready(True)
    assert command_from_json({"cmd": "start"}) == StartNow()
