"""The asyncio side of the application layer: fan-out of `TableApp`'s events to every front end
(terminal printer, browser pages) and the inbox of their commands. It keeps the history so a page
opened late (or reloaded) draws the same table.

Its surface for the layers around it — the peer publishes, the front ends subscribe and send:
`publish(event)`; `open_table(app)`, `introduce(name)`, `reset()`; `take_chat()`, `take_lobby()`,
`lobby_poke`, `commands`, `leaving`/`leave_reason`; `hand_over(reason)`, `hold_round(number,
limit)`, `move_deadline(...)`; `subscribe()`/`unsubscribe(q)`, `listen(fn)`, `attach()`/`detach()`,
`send(command)`; read-only for them: `app`, `me`, `history`, `turn`, `waiting`, `deadline`,
`stand_in`, `round_held`, `fronts`, `away_since`, `clock`. The peer depends on this layer, never
the reverse (README's layout).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from p2ptarot.i18n import _

from .events import (Chat, ChatLine, Command, Continue, Event, HandOver, Leave, LinkPaths, LobbyState, PlayComposed, PlayMove, Ready, RoundHeld, RoundOver, StandInChanged, StartNow, TablesSeen, TakeBack, TurnStarted, ViewChanged, Waiting, WriteMove)
from .table import TableApp

if TYPE_CHECKING:  # the Hub's queues load asyncio where a peer runs; replays never do
    import asyncio


class Hub:
    """Fan-out of events to every front end, and the inbox of their commands."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.history: list[Event] = []
        import asyncio  # noqa: PLC0415 - see TYPE_CHECKING above
        import time  # noqa: PLC0415

        #: the wall clock (Unix time) the presence is stamped with (tests pass their own)
        self.clock: Callable[[], float] = clock or time.time
        #: front ends the player has open now (pages, a terminal reading its input)
        self.fronts = 0
        #: since when no front end is open (Unix time; None while one is): the player has left
        self.away_since: float | None = self.clock()

        self._queues: list[asyncio.Queue[Event]] = []
        self._listeners: list[Callable[[Event], None]] = []
        self.commands: asyncio.Queue[Command] = asyncio.Queue()
        #: set when a front end asks to leave: the CLI ends the game at once, whatever it waits for
        self.leaving = asyncio.Event()
        self.leave_reason = ""
        self._chat: list[str] = []
        #: the decision the human chooser is waiting on (for a front end that composes a move)
        self.need: Any = None
        #: show the public view (a spectator, a watched bot) rather than the seat's own
        self.public = False
        self.turn: TurnStarted | None = None
        #: the table being played (`open_table`, once the charter is signed)
        self._app: TableApp | None = None
        #: when the table will be abandoned if the seats it waits for stay silent (Unix time)
        self.deadline: float | None = None
        self.waiting: Waiting | None = None
        #: the player's name before a table is opened (`introduce`; lobby chat lines show it)
        self._me = ""
        #: lobby commands (Ready, StartNow) for the lobby pump, and its wake-up call
        self._lobby: list[Command] = []
        self.lobby_poke = asyncio.Event()
        #: the stand-in bot plays this seat now (a grace elapsed, or the player handed it over)
        self.stand_in = False
        #: the round whose result holds the next deal until the player continues (None: none)
        self.round_held: int | None = None
        self._go_on = asyncio.Event()
        #: the last round shown (RoundOver) and the last the player continued from
        self._rounds_shown = 0
        self._continued = 0

    @property
    def app(self) -> TableApp | None:
        """The table being played, None before its charter is signed (and after `reset`)."""
        return self._app

    @property
    def me(self) -> str:
        """The player's name as the lobby knows it."""
        return self._me

    def open_table(self, app: TableApp) -> None:
        """The table whose charter was signed: its events are published from now on."""
        self._app = app

    def introduce(self, name: str) -> None:
        """The player's name before a table is opened."""
        self._me = name

    def reset(self) -> None:
        """A new table in the same page (back to the lobby, a rematch): the finished game's events
        are no longer replayed to a page that opens (or reloads)."""
        self.history.clear()
        self._app = self.turn = self.need = self.waiting = None
        self.deadline = None
        self.stand_in = False
        while not self.commands.empty():
            self.commands.get_nowait()
        from .events import Restart  # noqa: PLC0415
        for q in self._queues:  # the open pages reload; a page opened later has nothing to replay
            q.put_nowait(Restart())

    def publish(self, event: Event | None) -> None:
        if event is None:
            return
        if isinstance(event, TurnStarted):
            self.turn = event
        elif isinstance(event, RoundOver):
            self._rounds_shown = max(self._rounds_shown, event.number)
        elif isinstance(event, Waiting):
            self.deadline = event.deadline
            self.waiting = event
        self.history.append(event)
        for q in self._queues:
            q.put_nowait(event)
        for fn in self._listeners:
            fn(event)

    def move_deadline(self, seat: int | None, asked_at: float, move_timeout: int) -> float | None:
        """When `seat`'s open move will be blamed: the table's word when it waits for that move,
        else (its Waiting not published yet) the move time counted from when it was asked."""
        w = self.waiting
        if w is not None and w.what == "move" and seat in w.seats and w.deadline:
            return w.deadline
        return asked_at + move_timeout if move_timeout else None

    def attach(self) -> None:
        """A front end the player uses opened (a page, a terminal reading input)."""
        self.fronts += 1
        self.away_since = None

    def detach(self) -> None:
        """A front end closed; with none left the player has left (the stand-in's grace runs)."""
        self.fronts = max(0, self.fronts - 1)
        if self.fronts == 0 and self.away_since is None:
            self.away_since = self.clock()

    def listen(self, fn: Callable[[Event], None]) -> None:
        """Call `fn` for every later event (the terminal printer)."""
        self._listeners.append(fn)

    def subscribe(self) -> asyncio.Queue[Event]:
        """A queue of every event so far, then every later one (a browser page, which counts as
        the player's front end until `unsubscribe`)."""
        import asyncio  # noqa: PLC0415

        self.attach()
        q: asyncio.Queue[Event] = asyncio.Queue()
        for ev in self.catch_up():
            q.put_nowait(ev)
        self._queues.append(q)
        return q

    def take_chat(self) -> list[str]:
        """The chat lines typed since the last call (the game pump broadcasts them)."""
        out, self._chat = self._chat, []
        return out

    def take_lobby(self) -> list[Command]:
        """The lobby commands (Ready, StartNow) given since the last call."""
        out, self._lobby = self._lobby, []
        self.lobby_poke.clear()
        return out

    def catch_up(self) -> list[Event]:
        """The history a page opened late needs: every event that tells something, but only the
        latest of the ones that replace each other (view, what the table waits for, the turn)."""
        latest: dict[type, int] = {}
        for i, ev in enumerate(self.history):
            if isinstance(ev, _REPLACED):
                latest[type(ev)] = i
        keep = set(latest.values())
        return [ev for i, ev in enumerate(self.history)
                if i in keep or not isinstance(ev, _REPLACED)]

    def unsubscribe(self, q: asyncio.Queue[Event]) -> None:
        if q in self._queues:
            self._queues.remove(q)
            self.detach()

    def send(self, command: Command) -> None:
        if isinstance(command, Chat):  # goes to the other players, not to the chooser
            text = " ".join(command.text.split())[:300]
            if text and all(ch.isprintable() for ch in text):
                self._chat.append(text)
                self.publish(ChatLine(self.app.name(self.app.seat) if self.app else self.me or "you",
                                      text))
                self.lobby_poke.set()
            return
        if isinstance(command, (Ready, StartNow)):  # for the lobby, never the chooser
            self._lobby.append(command)
            self.lobby_poke.set()
            return
        if isinstance(command, Continue):  # for the held deal, never the chooser
            self._continued = max(self._continued, self._rounds_shown)
            self._go_on.set()
            self.round_held = None  # read: the next line typed is a move again
            return
        if isinstance(command, (PlayMove, PlayComposed, WriteMove)):
            self._continued = max(self._continued, self._rounds_shown)  # he has read it: he plays on
        if isinstance(command, Leave):
            self.leave_reason = command.reason
            self.leaving.set()
        elif isinstance(command, HandOver):
            self.hand_over(_("you asked for it"))
        elif isinstance(command, (TakeBack, PlayMove, PlayComposed, WriteMove)) and self.stand_in:
            self.stand_in = False  # any command of the player's takes the seat back
            self.publish(StandInChanged(False, _("you played") if not isinstance(command, TakeBack)
                                        else _("you asked for it")))
        self.commands.put_nowait(command)  # wakes a chooser waiting on the player

    async def hold_round(self, number: int, limit: float) -> None:
        """Round `number` is over: the next deal waits until the player continues (a `Continue`
        from the page or the terminal), leaves, or `limit` seconds pass; only `BOT_PAUSE`
        seconds when nobody reads this seat's screen (a bot plays it, no front end is open)."""
        import asyncio  # noqa: PLC0415

        if self._continued >= number:  # already read (Continue came before the hold)
            return
        nobody = self.stand_in or self.public or self.fronts == 0
        limit = min(limit, HOLD_MAX)
        wait = min(limit, BOT_PAUSE) if nobody else limit
        self.round_held = number
        self._go_on.clear()
        self.publish(RoundHeld(number, self.clock() + wait))
        waits = [asyncio.ensure_future(self._go_on.wait()), asyncio.ensure_future(self.leaving.wait())]
        try:
            await asyncio.wait(waits, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()
            self.round_held = None
            self.publish(RoundHeld(number, self.clock(), held=False))

    def hand_over(self, reason: str) -> None:
        """The stand-in bot plays this seat from now on (announced once)."""
        if not self.stand_in:
            self.stand_in = True
            self.publish(StandInChanged(True, reason))


#: events of which a late page needs only the latest
_REPLACED = (ViewChanged, Waiting, TurnStarted, TablesSeen, LobbyState, LinkPaths, RoundHeld)
#: seconds a round's result stays on a screen nobody reads before the next deal
BOT_PAUSE = 2.0
#: at most this long (and half the table's move time) a round's result holds the next deal
HOLD_MAX = 300.0


#: events of which a late page needs only the latest
_REPLACED = (ViewChanged, Waiting, TurnStarted, TablesSeen, LobbyState, LinkPaths, RoundHeld)
#: seconds a round's result stays on a screen nobody reads before the next deal
BOT_PAUSE = 2.0
#: at most this long (and half the table's move time) a round's result holds the next deal
HOLD_MAX = 300.0


__all__ = ["BOT_PAUSE", "HOLD_MAX", "Hub"]
