"""The peer application layer: turns what a table does into events for people (sans-I/O).

`TableApp` is fed by the game pump (effects of the session, link changes, the current step) and
returns typed events; it never touches a socket or a clock (deadlines are passed in). The asyncio
side — fanning the events out to the front ends and carrying their commands back — is `hub.Hub`.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from p2ptarot.engine import info as game_info

from p2ptarot.present import screen as screens
from .events import (Event, GameAborted, GameFinished, MoveOption, MovePlayed, Presence,
                     RoundOver, Standing, TableOpened, TurnStarted, ViewChanged, Waiting)
from .clock import rule_text
from .facts import (Fact, GameOver, GameStopped, Heard, LinkChanged, MoveRecorded, ViewNow,
                    WaitingOn)
from .results import round_rows, totals
from p2ptarot.present.rulebook import rules
from p2ptarot.i18n import N_, _, language
from p2ptarot.i18n.message import render as say


class TableApp:
    """One table seen from one seat (or from the public when `seat` is None)."""

    def __init__(self, game: str, variant: str | None, names: Sequence[str], seat: int | None,
                 move_timeout: int = 0, stand_in_after: int = 0) -> None:
        self.game = game
        self.variant = variant
        self.names = tuple(names)
        self.seat = seat
        self.move_timeout = move_timeout
        #: the table's stand-in policy (charter): the human chooser's grace, 0 = never
        self.stand_in_after = stand_in_after
        self._bot_seats: set[int] = set()  # seats whose last move its stand-in bot chose
        self._automatic = False  # this seat's next recorded move was made by its peer itself
        self._turns = 0
        self._last_view: str | None = None
        self._last_waiting: tuple[Any, ...] | None = None
        self._last_deadline: float | None = None
        self._since: list[str] = []
        self._away: set[int] = set()
        self._rounds_seen = 0
        #: seats that have sent nothing since the last round ended (nothing goes on the wire
        #: while a seat's player reads the round's result, so the others cannot tell reading
        #: from the next deal's first computations: spec/APP.md, "Round ends")
        self._quiet: set[int] = set()
        self._seen: set[int] = set()
        #: the view before the latest one (a round's last view, when the latest starts the next)
        self._views: tuple[dict[str, Any] | None, dict[str, Any] | None] = (None, None)

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "nobody"
        return self.names[seat]

    def opened(self) -> TableOpened:
        try:
            title = game_info(self.game).title_in(language())
        except Exception:
            title = self.game
        from p2ptarot.present.rulebook import LANGUAGES  # noqa: PLC0415 - package data, read once
        books = {code: rules(self.game, code) for code in LANGUAGES}
        return TableOpened(self.game, title, self.variant, self.seat, self.names, self.move_timeout,
                           self.stand_in_after, rule_text(self.move_timeout, self.stand_in_after),
                           {code: b.to_json() for code, b in books.items() if b is not None})

    # ---- what the session did ---------------------------------------------------------------
    def take(self, fact: Fact) -> list[Event]:
        """The events for people that ``fact`` makes (none when nothing shown changed): the
        one entry the game pump's watcher uses, dispatched by the fact's type."""
        return [e for e in _FACTS[type(fact)](self, fact) if e is not None]

    def move_recorded(self, step: int, seat: int, move_json: dict[str, Any],
                      view_before: dict[str, Any], automatic: bool = False,
                      by: str | None = None) -> MovePlayed:
        """A move entered the log; worded from the view the mover's move was judged in."""
        sentence = screens.describe(move_json, view_before, self.names)
        if seat == self.seat and self._automatic:
            automatic, self._automatic = True, False
        ev = MovePlayed(step, seat, self.name(seat), sentence, automatic, by)
        if seat != self.seat:
            self._since.append(_("{name}: {move}").format(name=ev.name, move=sentence))
        return ev

    def automatic_next(self) -> None:
        """This seat's next move is one its peer makes by itself (an Eleusis judgment): its line
        in the log says so (and nothing else announces it: one line per move)."""
        self._automatic = True

    def view_changed(self, view: dict[str, Any]) -> ViewChanged | None:
        """The view after a batch of effects; None when nothing a person sees changed."""
        key = json.dumps(view, sort_keys=True, default=str)
        if key == self._last_view:
            return None
        self._last_view = key
        self._views = (self._views[1], view)
        return ViewChanged(screens.screen(view, self.names), screens.render_text(view, self.names),
                           view)

    @property
    def rounds_seen(self) -> int:
        """How many rounds `rounds_over` has announced."""
        return self._rounds_seen

    def rounds_over(self, view: dict[str, Any]) -> list[RoundOver]:
        """Rounds that ended since the last call, worded with names and card names."""
        rows = round_rows(view, self.names)
        out = [RoundOver(i + 1, rows[i], totals(view, self.names))
               for i in range(self._rounds_seen, len(rows))]
        before = self._views[0]
        if out and before is not None:
            try:
                lines = screens.presenter(self.game).round_lines(before, view, self.names)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                lines = []  # a nicety: never let it end a game
            out[-1] = RoundOver(out[-1].number, out[-1].result, out[-1].totals, tuple(lines))
        if out:
            try:
                note = screens.presenter(self.game).totals_note(view)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                note = ""
            out = [RoundOver(r.number, r.result, r.totals, r.details, note) for r in out]
        self._rounds_seen = max(self._rounds_seen, len(rows))
        if out:
            self._quiet = set(range(len(self.names)))
        return out

    def heard(self, seat: int) -> None:
        """A message of `seat` entered the log: it is past the round's result."""
        self._quiet.discard(seat)

    def turn(self, legal: Sequence[Any], view: dict[str, Any], deadline: float | None) -> TurnStarted:
        """Our seat must move: numbered options and what happened since our last turn."""
        self._turns += 1
        since, self._since = tuple(self._since), []
        return TurnStarted(self._turns, screens.move_options(legal, view, self.names), deadline, since)

    def waiting(self, seats: Sequence[int], what: str, deadline: float | None) -> Waiting | None:
        """What the table waits for (None when unchanged since the last call)."""
        key = (tuple(seats), what)
        # the same seats again at a later step (one seat moving twice) is news: a new deadline
        if key == self._last_waiting and (deadline is None or self._last_deadline is None
                                          or abs(deadline - self._last_deadline) < 2.0):
            return None
        self._last_waiting, self._last_deadline = key, deadline
        # "waiting for Bob and you": our own seat among others is named as the reader; a seat
        # its stand-in bot plays says so ("Bob's bot")
        def who(s: int) -> str:
            if s == self.seat:
                return _("you")
            return _("{name}'s bot").format(name=self.name(s)) if s in self._bot_seats else self.name(s)
        others = [s for s in seats if s != self.seat]
        between = what != "move" and bool(others) and all(s in self._quiet for s in others)
        return Waiting(tuple(seats), tuple(who(s) for s in seats),
                       BETWEEN_ROUNDS if between else busy_words(what), deadline,
                       yours=self.seat is not None and tuple(seats) == (self.seat,))

    def stand_in(self, seat: int, by_bot: bool) -> Presence | None:
        """A seat's move entered the log, marked (or not) as its stand-in bot's: announce the
        first bot move of a takeover and the first own move after it, once each."""
        if by_bot and seat not in self._bot_seats:
            self._bot_seats.add(seat)
            return Presence(seat, self.name(seat), "stand-in")
        if not by_bot and seat in self._bot_seats:
            self._bot_seats.discard(seat)
            return Presence(seat, self.name(seat), "back")
        return None

    @property
    def bot_seats(self) -> frozenset[int]:
        """Seats a stand-in bot plays now (as their last moves tell)."""
        return frozenset(self._bot_seats)

    def link(self, seat: int, up: bool, since: float | None = None) -> Presence | None:
        """A peer's link changed: announced at once. A lost link is re-dialled for as long as
        the table lives, so a player whose link dropped is 'disconnected — reconnecting', since
        `since` (Unix time), not accused of anything."""
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
        return Presence(seat, self.name(seat), "left", since)

    def finished(self, scores: Sequence[int], winners: Sequence[int], transcript: str = "",
                 view: dict[str, Any] | None = None) -> GameFinished:
        standings = final_standings(self.game, self.names, scores, winners, view or {})
        book = rules(self.game, language())
        label = (book.help.get("score") if book is not None else None) or _("score")
        mine = next((s for s in standings if s.seat == self.seat), None)
        personal = ""
        if mine is not None:
            shared = sum(s.rank == mine.rank for s in standings) > 1
            personal = (_("you finished {place} of {count}").format(place=ordinal(mine.rank),
                                                                    count=len(standings))
                        + (" " + _("(shared)") if shared else "")
                        + (" — " + _("you won!") if mine.winner else ""))
        return GameFinished(standings, transcript, tuple(round_rows(view or {}, self.names)),
                            label, personal)

    def aborted(self, blame: int | None, reason: str, step: int | None) -> GameAborted:
        return GameAborted(blame, self.name(blame) if blame is not None else "",
                           screens.name_seats(say(reason), self.names), step)



def _move(app: TableApp, f: MoveRecorded) -> list[Event | None]:
    return [app.stand_in(f.seat, f.by == "bot"),
            app.move_recorded(f.step, f.seat, f.move, f.view_before,
                              by=f.by if f.by == "bot" else None)]


def _view(app: TableApp, f: ViewNow) -> list[Event | None]:
    return [app.view_changed(f.view), *app.rounds_over(f.view)]


def _heard(app: TableApp, f: Heard) -> list[Event | None]:
    app.heard(f.seat)
    return []


def _over(app: TableApp, f: GameOver) -> list[Event | None]:
    return [app.view_changed(f.view), app.finished(f.scores, f.winners, f.transcript, f.view)]


#: how each fact becomes events
_FACTS: dict[type, Callable[[TableApp, Any], list[Event | None]]] = {
    Heard: _heard, MoveRecorded: _move, ViewNow: _view,
    WaitingOn: lambda app, f: [app.waiting(f.seats, f.what, f.deadline)],
    LinkChanged: lambda app, f: [app.link(f.seat, f.up, f.since)],
    GameOver: _over,
    GameStopped: lambda app, f: [app.aborted(f.blame, f.reason, f.step)]}


def ordinal(n: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th' (French: '1er', '2e')."""
    if language() == "fr":
        return f"{n}er" if n == 1 else f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def final_standings(game: str, names: Sequence[str], scores: Sequence[int], winners: Sequence[int],
                    view: dict[str, Any]) -> tuple[Standing, ...]:
    """Places by the game's rules: the signed winners first (the engine already applied the
    tie-breaks for the win), then the others by score and the presenter's tie-break key
    (`rank_key(view, seat)`: sinople's children and wives, Arcanum's cards in hand); seats equal
    on all of it share a place."""
    key_of = screens.presenter(game).rank_key

    def key(s: int) -> tuple[Any, ...]:
        try:
            extra = tuple(key_of(view, s))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            extra = ()
        return (s in winners, scores[s], *extra)
    order = sorted(range(len(scores)), key=lambda s: (tuple(-x if isinstance(x, (int, float)) and not isinstance(x, bool) else not x for x in key(s)), s))
    out: list[Standing] = []
    for i, s in enumerate(order):
        rank = out[-1].rank if out and key(order[i - 1]) == key(s) else i + 1
        name = names[s] if 0 <= s < len(names) else f"seat {s + 1}"
        out.append(Standing(name, s, int(scores[s]), s in winners, rank))
    return tuple(out)


#: what the table waits for after a round ended, until a waited seat's first message of the next
#: deal: it is true whether its player still reads the result or its peer already deals
BETWEEN_ROUNDS = "between-rounds"
#: the cryptographic steps of the table, as a player reads them
_MENTAL_WORDS = {"key": N_("setting up the deck"), "shuffle": N_("shuffling the cards"),
                 "shares": N_("dealing the cards"), "reencrypt": N_("passing cards on")}
_CRYPTOGRAPHY = N_("the cards' cryptography")


def busy_words(what: str) -> str:
    """'mental.shares for tarot-78/arcanoid epoch 0 (op 4)' -> 'dealing the cards': what the table
    is busy with, in words (other steps are kept as they are)."""
    if what.startswith("mental."):
        kind = what[len("mental."):].split(" ", 1)[0]
        return _(_MENTAL_WORDS.get(kind, _CRYPTOGRAPHY))
    return what


def option_for(turn: TurnStarted, index: int) -> MoveOption | None:
    """The option numbered `index` (1-based, as shown) of a turn."""
    return turn.options[index - 1] if 1 <= index <= len(turn.options) else None


__all__ = ["TableApp", "busy_words", "final_standings", "option_for"]
