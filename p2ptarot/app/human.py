"""A human seat: the chooser the game pump calls, answered by whichever front end (terminal or
browser page) sends a `PlayMove` first.

A forced move (the only legal one) plays itself and is announced: nobody should be called a
cheater for not pressing a key to pass. `Leave` ends the seat's game loop with `LeftTable`.

The stand-in: under mental poker only this seat's own peer can play it (every card needs the
seat's decryption shares), so an absent player's bot runs here, in the seat's own process. It
takes the seat when the player has *left* (no front end open, `Hub.away_since`) for the table's
grace (the charter's `stand_in_after`) or hands it over (`HandOver`: the page's button, the
terminal's `bot`), and keeps it, turn after turn, until any command of the player's (`TakeBack`,
a move) takes it back. A connected player thinks as long as the move time allows: warned at 60 s
and 15 s left, then the table's rule applies (`clock`): the bot's choice is played for that one move, unmarked and
with no takeover (the player is here). The stand-in's moves are returned as `StandInMove`, so
their bodies carry `by: "bot"` in the log.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, TypeVar

from p2ptarot.i18n import _
from p2ptarot.table.inputs import StandInMove

from .clock import WARN_AT, next_step, warning_text
from .events import (HandOver, Leave, Notice, PlayComposed, PlayMove, StandInChanged, TakeBack,
                     TimeWarning, WriteMove)
from .forms import answer_written
from p2ptarot.present.screen import describe, presenter
from .hub import Hub
from .table import option_for


T = TypeVar("T")


def overdue_text(name: str, sentence: str) -> str:
    """What both front ends say when the move time ran out: one move played, the seat kept."""
    return _("time is up: one move was played for {name} ({move}), as the table's time rule "
             "says; {name} keeps the seat and plays the next move").format(name=name,
                                                                           move=sentence)


class LeftTable(Exception):
    """The player chose to leave; the game can be resumed later (`join --resume`)."""


def human_chooser(hub: Hub, name: str = "you",
                  stand_in: Callable[[Any], Awaitable[Any]] | None = None,
                  grace: float | None = None) -> Callable[[Any], Awaitable[Any]]:
    """`stand_in` (a bot's chooser) plays this seat while the player is away: once no front end
    has been open for `grace` seconds (None: the table's policy, `hub.app.stand_in_after`; 0:
    never by itself) or after an explicit hand-over, until the player's next command; and it
    plays a connected player's overdue move when the table's policy has a stand-in."""
    async def by_bot(need: Any) -> StandInMove:
        assert stand_in is not None
        return StandInMove(await stand_in(need))

    async def choose(need: Any) -> Any:
        app = hub.app
        names = app.names if app is not None else ()
        # the name the table signed (a resumed peer's --name may be another, or the default)
        who = app.name(app.seat) if app is not None and app.seat is not None else name
        hub.need = need
        away = hub.stand_in and stand_in is not None
        mod = presenter(str(need.view.get("game")))
        if mod.automatic(need.view, need.legal):  # e.g. an Eleusis judgment
            if away:  # the peer's own move, marked so the table does not think the player back
                return StandInMove(need.legal[0])
            if app is not None:  # told once, by the move's own line in the log, "(automatic)"
                app.automatic_next()
            return need.legal[0]
        if away:  # the player is away: the bot keeps the seat, forced moves included
            return await by_bot(need)
        # a lone listed move is forced, unless the player may write another (an Eleusis run)
        if len(need.legal) == 1 and mod.compose is None:
            sentence = describe(need.legal[0], need.view, names)
            hub.publish(Notice(_("only one move possible: {move} (played for you)").format(
                move=sentence)))
            return need.legal[0]
        if app is None:  # no table app (cannot happen under the game pump): first legal move
            return need.legal[0]
        turn = app.turn(need.legal, need.view, hub.deadline)
        hub.publish(turn)
        table_grace = grace if grace is not None else float(app.stand_in_after)
        warned: set[int] = set()
        asked_at = hub.clock()
        while True:
            if hub.stand_in and stand_in is not None:  # handed over while this turn was open
                return await by_bot(need)
            now = hub.clock()
            deadline = hub.move_deadline(app.seat, asked_at, app.move_timeout)
            step = next_step(now, deadline, hub.away_since, table_grace, frozenset(warned),
                             stand_in is not None)
            if step.kind == "away":
                hub.hand_over(_("{name} left the table (no page or terminal open for "
                                "{seconds} s)").format(name=who, seconds=f"{table_grace:g}"))
                continue
            if step.kind == "overdue":  # the charter's rule: this one move, the seat stays ours
                # not a takeover: the move goes out unmarked (PROTOCOL §5.1: `by` says the
                # player was away, and this player is here), so no peer announces a stand-in
                assert stand_in is not None
                move = await stand_in(need)
                hub.publish(Notice(overdue_text(who, describe(move, need.view, names))))
                return move
            if step.kind == "warn":
                warned.update(m for m in WARN_AT if m >= step.left)
                hub.publish(TimeWarning(step.left, warning_text(step.left, table_grace,
                                                                stand_in is not None)))
                continue
            # wake at the next mark, and at least every second (a page may close meanwhile)
            wait = 1.0 if step.at is None else min(1.0, max(0.0, step.at - now))
            try:  # (asyncio.timeout: 3.11's wait_for can drop a cancellation)
                async with asyncio.timeout(wait):
                    cmd = await hub.commands.get()
            except TimeoutError:
                continue
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
                if cmd.turn >= turn.turn:  # an answer to an earlier turn is simply late
                    hub.publish(Notice(_("that choice is not on offer now (turn {turn})").format(
                        turn=turn.turn)))
            elif isinstance(cmd, HandOver) and stand_in is None:
                hub.stand_in = False
                hub.publish(StandInChanged(False, _("no stand-in bot can play this seat here")))
            elif isinstance(cmd, (HandOver, TakeBack)):
                continue  # the loop's head plays the bot's move, or the player goes on
            elif isinstance(cmd, Leave):
                raise LeftTable(cmd.reason)
    return choose


def human_seat(hub: Hub, name: str, seed: int | str | None = None
               ) -> Callable[[Any], Awaitable[Any]]:
    """The chooser of a person's seat: the player through the hub, and a heuristic stand-in bot
    (in this very peer: it alone holds the seat's keys) for when the player is away."""
    import secrets

    from p2ptarot.bots import make  # local: bots load the games' heuristics

    bot = make("heuristic", seed if seed is not None else secrets.randbits(32))

    async def stand_in(need: Any) -> Any:
        return bot.choose(need.seat, need.view, list(need.legal))
    return human_chooser(hub, name, stand_in=stand_in)


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
            raise LeftTable(_("you left the table ({why})").format(why=hub.leave_reason)
                            if hub.leave_reason else _("you left the table"))
        return play.result()
    finally:
        leave.cancel()


__all__ = ["LeftTable", "human_chooser", "overdue_text", "human_seat", "until_left"]
