"""The peer application layer: turns what a table does into events for people (sans-I/O).

`TableApp` is fed by the runner (effects of the session, link changes, the current step) and
returns typed events; it never touches a socket or a clock (deadlines are passed in). `Hub` fans
the events out to the front ends (terminal printer, browser pages) and carries their commands
back; it keeps the history so a page opened late (or reloaded) draws the same table.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable, Sequence

from p2ptarot.engine import info as game_info

from . import screen as screens
from .events import (Command, Event, GameAborted, GameFinished, MoveOption, MovePlayed, Presence,
                     RoundOver, Standing, TableOpened, TablesSeen, TurnStarted, ViewChanged,
                     Waiting)
from .faces import card_name, is_card

#: keys of a round record whose integer value is a seat
_SEAT_KEYS = {"winner", "seat", "dealer", "opener", "taker", "loser"}
#: where a view keeps its finished rounds (list of records)
_ROUND_KEYS = ("history", "round_winners", "rounds_played")


#: a list of more cards than this in a round record is a pile, too long for a results table
_MAX_LISTED = 6


def _word(key: str, value: Any, names: Sequence[str], seats_by_default: bool) -> Any:
    if value is None:
        return "nobody" if key in _SEAT_KEYS else "-"
    if is_card(value):
        return card_name(value)
    if isinstance(value, list) and len(value) == len(names) and len(names) > 1 \
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return ", ".join(f"{n} {v}" for n, v in zip(names, value))  # one number per player
    if isinstance(value, int) and not isinstance(value, bool) and (key in _SEAT_KEYS or seats_by_default):
        return names[value] if 0 <= value < len(names) else "nobody"
    if isinstance(value, list):
        return ", ".join(str(_word(key, v, names, seats_by_default)) for v in value) or "-"
    return value


def _leaves(value: Any) -> int:
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    return 1


def round_rows(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Each finished round of `view` as {column: words}: seats become names, cards card names.
    A record whose values are all integers (arcanoïd: field -> winning seat) maps to names."""
    for key in _ROUND_KEYS:
        records = view.get(key)
        if isinstance(records, list) and records and all(isinstance(r, dict) for r in records):
            out = []
            for r in records:
                all_seats = all(isinstance(v, int) and not isinstance(v, bool) for v in r.values())
                out.append({str(k): _word(str(k), v, names, all_seats) for k, v in r.items()
                            if k != "round" and _leaves(v) <= _MAX_LISTED})
            return out
    return []


def totals(view: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Running totals per player when the view keeps them (e.g. fields won so far)."""
    for key in ("fields_won", "scores", "totals"):
        t = view.get(key)
        if isinstance(t, dict):
            return {names[int(s)] if str(s).isdigit() and int(s) < len(names) else str(s): v
                    for s, v in t.items()}
        if isinstance(t, list) and len(t) == len(names):
            return {names[i]: v for i, v in enumerate(t)}
    return {}


class TableApp:
    """One table seen from one seat (or from the public when `seat` is None)."""

    def __init__(self, game: str, variant: str | None, names: Sequence[str], seat: int | None,
                 move_timeout: int = 0) -> None:
        self.game = game
        self.variant = variant
        self.names = tuple(names)
        self.seat = seat
        self.move_timeout = move_timeout
        self._turns = 0
        self._last_view: str | None = None
        self._last_waiting: tuple[Any, ...] | None = None
        self._since: list[str] = []
        self._away: set[int] = set()
        self._rounds_seen = 0
        self._seen: set[int] = set()

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "nobody"
        return self.names[seat]

    def opened(self) -> TableOpened:
        try:
            title = game_info(self.game).title
        except Exception:
            title = self.game
        return TableOpened(self.game, title, self.variant, self.seat, self.names, self.move_timeout)

    # ---- what the session did ---------------------------------------------------------------
    def move_recorded(self, step: int, seat: int, move_json: dict[str, Any],
                      view_before: dict[str, Any], automatic: bool = False) -> MovePlayed:
        """A move entered the log; worded from the view the mover's move was judged in."""
        sentence = screens.describe(move_json, view_before, self.names)
        ev = MovePlayed(step, seat, self.name(seat), sentence, automatic)
        if seat != self.seat:
            self._since.append(f"{ev.name}: {sentence}")
        return ev

    def view_changed(self, view: dict[str, Any]) -> ViewChanged | None:
        """The view after a batch of effects; None when nothing a person sees changed."""
        key = json.dumps(view, sort_keys=True, default=str)
        if key == self._last_view:
            return None
        self._last_view = key
        return ViewChanged(screens.screen(view, self.names), screens.render_text(view, self.names),
                           view)

    def rounds_over(self, view: dict[str, Any]) -> list[RoundOver]:
        """Rounds that ended since the last call, worded with names and card names."""
        rows = round_rows(view, self.names)
        out = [RoundOver(i + 1, rows[i], totals(view, self.names))
               for i in range(self._rounds_seen, len(rows))]
        self._rounds_seen = max(self._rounds_seen, len(rows))
        return out

    def turn(self, legal: Sequence[Any], view: dict[str, Any], deadline: float | None) -> TurnStarted:
        """Our seat must move: numbered options and what happened since our last turn."""
        self._turns += 1
        since, self._since = tuple(self._since), []
        return TurnStarted(self._turns, screens.move_options(legal, view, self.names), deadline, since)

    def waiting(self, seats: Sequence[int], what: str, deadline: float | None) -> Waiting | None:
        """What the table waits for (None when unchanged since the last call)."""
        key = (tuple(seats), what)
        if key == self._last_waiting:
            return None
        self._last_waiting = key
        return Waiting(tuple(seats), tuple(self.name(s) for s in seats), what, deadline,
                       yours=self.seat is not None and tuple(seats) == (self.seat,))

    def link(self, seat: int, up: bool) -> Presence | None:
        """A peer's link changed: announced at once (a left player may come back)."""
        if seat == self.seat:
            return None
        if up:
            status = "rejoined" if seat in self._away else "joined"
            if status == "joined" and seat in self._seen:
                return None
            self._away.discard(seat)
            self._seen.add(seat)
            return Presence(seat, self.name(seat), status)
        if seat in self._away:
            return None
        self._away.add(seat)
        return Presence(seat, self.name(seat), "left")

    def finished(self, scores: Sequence[int], winners: Sequence[int], transcript: str = "",
                 view: dict[str, Any] | None = None) -> GameFinished:
        order = sorted(range(len(scores)), key=lambda s: (s not in winners, -scores[s], s))
        standings = tuple(Standing(self.name(s), s, int(scores[s]), s in winners) for s in order)
        return GameFinished(standings, transcript, tuple(round_rows(view or {}, self.names)))

    def aborted(self, blame: int | None, reason: str, step: int | None) -> GameAborted:
        return GameAborted(blame, self.name(blame) if blame is not None else "",
                           screens.name_seats(reason, self.names), step)


class Hub:
    """Fan-out of events to every front end, and the inbox of their commands."""

    def __init__(self) -> None:
        self.history: list[Event] = []
        self._queues: list[asyncio.Queue[Event]] = []
        self._listeners: list[Callable[[Event], None]] = []
        self.commands: asyncio.Queue[Command] = asyncio.Queue()
        #: set when a front end asks to leave: the CLI ends the game at once, whatever it waits for
        self.leaving = asyncio.Event()
        self.leave_reason = ""
        #: the decision the human chooser is waiting on (for a front end that composes a move)
        self.need: Any = None
        #: show the public view (a spectator, a watched bot) rather than the seat's own
        self.public = False
        self.turn: TurnStarted | None = None
        #: the table being played (set by the runner once the charter is signed)
        self.app: TableApp | None = None
        #: when the seat the table waits for will be blamed (Unix time), from the last Waiting
        self.deadline: float | None = None

    def publish(self, event: Event | None) -> None:
        if event is None:
            return
        if isinstance(event, TurnStarted):
            self.turn = event
        elif isinstance(event, Waiting):
            self.deadline = event.deadline
        self.history.append(event)
        for q in self._queues:
            q.put_nowait(event)
        for fn in self._listeners:
            fn(event)

    def listen(self, fn: Callable[[Event], None]) -> None:
        """Call `fn` for every later event (the terminal printer)."""
        self._listeners.append(fn)

    def subscribe(self) -> asyncio.Queue[Event]:
        """A queue of every event so far, then every later one (a browser page)."""
        q: asyncio.Queue[Event] = asyncio.Queue()
        for ev in self.catch_up():
            q.put_nowait(ev)
        self._queues.append(q)
        return q

    def catch_up(self) -> list[Event]:
        """The history a page opened late needs: every event that tells something, but only the
        latest of the ones that replace each other (view, what the table waits for, the turn)."""
        latest: dict[type, int] = {}
        for i, ev in enumerate(self.history):
            if isinstance(ev, (ViewChanged, Waiting, TurnStarted, TablesSeen)):
                latest[type(ev)] = i
        keep = set(latest.values())
        return [ev for i, ev in enumerate(self.history)
                if i in keep or not isinstance(ev, (ViewChanged, Waiting, TurnStarted, TablesSeen))]

    def unsubscribe(self, q: asyncio.Queue[Event]) -> None:
        if q in self._queues:
            self._queues.remove(q)

    def send(self, command: Command) -> None:
        from .events import Leave
        if isinstance(command, Leave):
            self.leave_reason = command.reason
            self.leaving.set()
        self.commands.put_nowait(command)


def option_for(turn: TurnStarted, index: int) -> MoveOption | None:
    """The option numbered `index` (1-based, as shown) of a turn."""
    return turn.options[index - 1] if 1 <= index <= len(turn.options) else None


__all__ = ["Hub", "TableApp", "option_for"]
