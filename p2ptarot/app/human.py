"""A human seat: the chooser the runner calls, answered by whichever front end (terminal or
browser page) sends a `PlayMove` first.

A forced move (the only legal one) plays itself and is announced: nobody should be called a
cheater for not pressing a key to pass. `Leave` ends the seat's game loop with `LeftTable`.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, TypeVar

from .events import Leave, Notice, PlayComposed, PlayMove, WriteMove
from .forms import answer_written
from .screen import describe, presenter
from .table import Hub, option_for


T = TypeVar("T")


class LeftTable(Exception):
    """The player chose to leave; the game can be resumed later (`join --resume`)."""


def human_chooser(hub: Hub, name: str = "you",
                  stand_in: Callable[[Any], Awaitable[Any]] | None = None,
                  grace: float | None = None) -> Callable[[Any], Awaitable[Any]]:
    """`stand_in` (a bot's chooser) plays a turn the player leaves unanswered for `grace`
    seconds, so an absent player is not blamed for silence; it is announced."""
    async def choose(need: Any) -> Any:
        app = hub.app
        names = app.names if app is not None else ()
        hub.need = need
        mod = presenter(str(need.view.get("game")))
        automatic = getattr(mod, "automatic", None)
        if automatic is not None and automatic(need.view, need.legal):  # e.g. an Eleusis judgment
            hub.publish(Notice(f"your peer: {describe(need.legal[0], need.view, names)}"))
            return need.legal[0]
        # a lone listed move is forced, unless the player may write another (an Eleusis run)
        if len(need.legal) == 1 and getattr(mod, "compose", None) is None:
            sentence = describe(need.legal[0], need.view, names)
            hub.publish(Notice(f"only one move possible: {sentence} (played for you)"))
            return need.legal[0]
        if app is None:  # no table app (cannot happen with the runner): first legal move
            return need.legal[0]
        turn = app.turn(need.legal, need.view, hub.deadline)
        hub.publish(turn)
        loop = asyncio.get_running_loop()
        until = loop.time() + grace if stand_in is not None and grace else None
        while True:
            try:
                cmd = await asyncio.wait_for(hub.commands.get(),
                                             None if until is None else max(0.0, until - loop.time()))
            except TimeoutError:
                assert stand_in is not None
                move = await stand_in(need)
                sentence = describe(move, need.view, names)
                hub.publish(Notice(f"{name} did not answer within {grace:g} s: a bot played "
                                   f"for them: {sentence}"))
                return move
            if isinstance(cmd, PlayComposed) and cmd.turn == turn.turn:
                return cmd.move
            if isinstance(cmd, WriteMove):  # a page form: the presenter builds and checks the move
                written, reply = answer_written(mod, need.view, need.legal, turn.turn, cmd)
                hub.publish(reply)
                if written is not None:
                    return written
            if isinstance(cmd, PlayMove):
                option = option_for(turn, cmd.index) if cmd.turn == turn.turn else None
                if option is not None:
                    return need.legal[option.index]
                hub.publish(Notice(f"that choice is not on offer now (turn {turn.turn})"))
            elif isinstance(cmd, Leave):
                raise LeftTable(cmd.reason)
    return choose


async def until_left(hub: Hub, game: Awaitable[T]) -> T:
    """Run `game` until it ends or a front end asks to leave (then it is cancelled at once, its
    links close so the other players are told, and LeftTable is raised)."""
    play = asyncio.ensure_future(game)
    leave = asyncio.ensure_future(hub.leaving.wait())
    try:
        await asyncio.wait({play, leave}, return_when=asyncio.FIRST_COMPLETED)
        if not play.done():
            play.cancel()
            try:
                await play
            except (asyncio.CancelledError, Exception):  # whatever it died of, we left
                pass
            why = f" ({hub.leave_reason})" if hub.leave_reason else ""
            raise LeftTable(f"you left the table{why}")
        return play.result()
    finally:
        leave.cancel()


__all__ = ["LeftTable", "human_chooser", "until_left"]
