"""The terminal front end: prints the table's events for a person and turns typed lines into
commands (a move's number, h, m, v; Ctrl-D leaves at any time).

It reads only events of the peer application layer (`p2ptarot.app`), the same ones a browser
page receives, so both always tell the same story: names instead of seat numbers, seats counted
from 1, "waiting for Bob", what happened since your last turn, results as tables.
"""

from __future__ import annotations

import asyncio
import json
import queue
import time
from typing import Any, Callable, Sequence

from p2ptarot.app.events import (Chat, ChatLine, Continue, Event, GameAborted, GameFinished, HandOver,
                                 Leave, LobbyState, MovePlayed, Notice, PlayComposed, PlayMove,
                                 Presence, Ready, RoundHeld, RoundOver, StandInChanged, StartNow, TableOpened,
                                 TakeBack, TimeWarning, TurnStarted, ViewChanged,
                                 Waiting)
from p2ptarot.app.clock import countdown, rule_text
from p2ptarot.app.results import column
from p2ptarot.present.screen import presenter
from p2ptarot.app.hub import Hub
from p2ptarot.i18n import N_, _, language

from .console import Console
from .menus import TEXT as MENU, Entry, words as menu_words, first_menu, menu_lines, sub_lines, submenu
from .text_table import table

HELP = N_("type a move's number to play it (a long list: first the card, then its target; 0 goes "
        "back); m = list the moves again; rules (or r) = the rules of "
        "this game; rules WORD = what a card, location or move does (e.g. rules trump-9, "
        "rules loc-3); v = the raw JSON view; "
        "w = write your own move where the game allows it (an Eleusis rule or run); "
        "say TEXT = chat with the table; "
        "bot = let a bot play for you (this program keeps running; back, or any move, takes "
        "your seat back); h or ? = this help; "
        "Ctrl-D or Ctrl-C = leave the table (come back with join --resume)")
#: the round's end, while the next deal waits for this player
HOLD_TEXT = N_("  (press Enter when you have read it: the next deal waits for you, {left} left at most)")
LOBBY_HELP = N_("in the lobby: ready = you are ready to start; wait = not yet; say TEXT = chat; "
              "start = (host) start now with the players who are ready; Ctrl-D = leave")
Print = Callable[[str], None]


def _left(deadline: float | None) -> str:
    if deadline is None:
        return ""
    return _("{time} left").format(time=countdown(deadline - time.time()))


def system_language() -> str:
    """The process's interface language (`--lang`, else the system's locale: p2ptarot.i18n)."""
    return language()


def _wrap_words(text: str, width: int = 96) -> list[str]:
    import textwrap
    return textwrap.wrap(text, width) or [""]


def standings_lines(ev: GameFinished) -> list[str]:
    rows = [(s.rank or i, s.name, _("seat {n}").format(n=s.seat + 1), s.score,
             _("winner") if s.winner else "")
            for i, s in enumerate(ev.standings, start=1)]
    out = ["", _("== Final standings ==")] + table(rows, (_("place"), _("player"), _("seat"),
                                                         ev.score_label or _("score"), ""))
    if ev.personal:
        out.append(ev.personal)
    if ev.rounds:
        keys = list(dict.fromkeys(k for r in ev.rounds for k in r))
        out += ["", _("Rounds:")] + table([[i] + [r.get(k, "") for k in keys]
                                           for i, r in enumerate(ev.rounds, start=1)],
                                          [_("round")] + keys)
    if ev.transcript:
        out.append(_("transcript: {path}").format(path=ev.transcript))
    return out


def options_lines(turn: TurnStarted) -> list[str]:
    """The first menu of a turn's moves (cli/menus.py)."""
    return menu_lines(first_menu(turn.options))


def turn_open(term: "Terminal") -> bool:
    return term.turn is not None and not term.answered


class Terminal:
    """Prints events; `spectator=True` prints the table as it goes without asking anything."""

    def __init__(self, hub: Hub, say: Print = print, spectator: bool = False,
                 raw: Print | None = None, live: bool = False, lang: str | None = None) -> None:
        self.hub, self.spectator = hub, spectator
        self._say = say
        #: writes without a newline (the live countdown's redraw); `live`: stdout is a terminal
        self.raw: Print = raw or (lambda text: None)
        self.live = live and raw is not None
        #: nothing was printed since the prompt (the countdown may redraw it in place)
        self._prompt_is_last = False
        self.me: str | None = None
        #: the player's seat (None: a spectator): its moves close the open prompt
        self.seat: int | None = None
        self.screen_text = ""
        #: the table's rules (from TableOpened) in the player's language, for `rules`
        self.rules: dict[str, Any] = {}
        self.lang = lang or system_language()
        self.view: dict[str, Any] | None = None
        self.turn: TurnStarted | None = None
        #: the menu shown now, and the entry it details (None: the turn's first menu)
        self.menu: list[Entry] = []
        self.sub: Entry | None = None
        #: the entries chosen on the way to this menu, with the menu each was chosen from (0 pops)
        self.path: list[tuple[Entry, list[Entry]]] = []
        self.answered = True
        self.waiting_for = ""
        #: lines for a move being written (`w`): the presenter's composer reads them in a thread
        self.composing: queue.Queue[str] | None = None
        #: the table is filling up (a LobbyState came, no TableOpened yet): lobby lines are read
        self.in_lobby = False
        self._roster: tuple[str, ...] = ()
        #: a line that is not a lobby command was typed in the lobby: it waits for the game
        self._held = False
        hub.listen(self.on_event)

    # ---- output -----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self._say(text)
        self._prompt_is_last = False

    def on_event(self, ev: Event) -> None:
        out = self._lines(ev)
        if out:
            if not isinstance(ev, TurnStarted) and turn_open(self) and self.composing is None:
                out.append(self.prompt())  # the prompt again under the news: its clock lives on
            self.say("\n".join(out))
            self._prompt_is_last = turn_open(self) and self.composing is None

    def _lines(self, ev: Event) -> list[str]:
        if isinstance(ev, LobbyState):
            return self._lobby_lines(ev)
        if isinstance(ev, TableOpened):
            self.in_lobby = False
            self.rules = ev.rules.get(self.lang) or ev.rules.get("en") or {}
            self.me = ev.names[ev.seat] if ev.seat is not None else None
            self.seat = ev.seat
            who = ", ".join((_("{name} (seat {n}, you)") if i == ev.seat else _("{name} (seat {n})"))
                            .format(name=n, n=i + 1) for i, n in enumerate(ev.names))
            if self.spectator:
                return [f"== {ev.title} — {who} =="]
            rule = ev.rule or rule_text(ev.move_timeout, ev.stand_in_after)
            return [f"== {ev.title} — {who} ==", _("time: {rule}").format(rule=rule),
                    _("type bot to let a bot play for you; rules = the rules of this game; "
                      "Ctrl-D leaves the table")]
        if isinstance(ev, TimeWarning):
            return [f"  ** {ev.text} **"] if turn_open(self) else []
        if isinstance(ev, ViewChanged):
            self.screen_text, self.view = ev.text, ev.view
            return []
        if isinstance(ev, MovePlayed):
            if ev.seat == self.seat:
                self.answered, self.sub = True, None  # played (here, in a page, by the clock)
            who = _("{name} (you)").format(name=ev.name) if ev.name == self.me else ev.name
            if ev.by == "bot":
                who += " " + _("[bot]")
            return ["  " + _("{name}: {move}").format(name=who, move=ev.sentence)
                    + (" " + _("(automatic)") if ev.automatic else "")]
        if isinstance(ev, StandInChanged):
            if ev.active:
                self.answered = True  # the open turn (if any) is the bot's now
            return [ev.sentence]
        if isinstance(ev, Waiting):
            if ev.what not in ("move", "between-rounds") or ev.yours:
                return []
            text = ev.sentence + (f" ({_left(ev.deadline)})" if ev.deadline and not self.spectator else "")
            if text == self.waiting_for:
                return []
            self.waiting_for = text
            return [text + "..."]
        if isinstance(ev, TurnStarted):
            self.turn, self.answered, self.waiting_for = ev, False, ""
            self.menu, self.sub, self.path = first_menu(ev.options), None, []
            out = ["", self.screen_text]
            if ev.since:
                out += [_("Since your last turn:")] + [f"  {s}" for s in ev.since]
            out += options_lines(ev)
            out.append(self.prompt())
            return out
        if isinstance(ev, RoundOver):
            cols = list(ev.result)
            out = ["", _("== Round {n} over ==").format(n=ev.number)] \
                + table([[ev.result[k] for k in cols]], [column(k) for k in cols])
            if ev.totals:
                out += table([[n, v] for n, v in ev.totals.items()],
                             (_("player"), _("total") + (" *" if ev.note else "")))
            if ev.note:
                out.append("* " + ev.note)
            out += list(ev.details)
            return out
        if isinstance(ev, RoundHeld):
            return [_(HOLD_TEXT).format(left=countdown(ev.until - time.time()))] \
                if ev.held and not self.spectator and not self.hub.stand_in else []
        if isinstance(ev, (GameFinished, GameAborted)):
            self.answered, self.sub = True, None  # no prompt outlives the game
        if isinstance(ev, GameFinished):
            return standings_lines(ev)
        if isinstance(ev, GameAborted):
            who = (_("{name} (seat {n})").format(name=ev.blame_name, n=ev.blame + 1)
                   if ev.blame is not None else _("nobody"))
            return [_("game aborted: {who} is blamed: {reason}").format(who=who, reason=ev.reason)]
        if isinstance(ev, (Presence, Notice)):
            return [ev.sentence if isinstance(ev, Presence) else ev.text]
        if isinstance(ev, ChatLine):
            return [f"<{ev.name}> {ev.text}"]
        return []

    def _lobby_lines(self, ev: LobbyState) -> list[str]:
        """The roster whenever it changes: 'seat 2: Bob (ready)', free seats too."""
        if self.spectator:
            return []
        first = not self.in_lobby
        self.in_lobby = True
        lines = tuple(ev.lines)
        if lines == self._roster:
            return []
        self._roster = lines
        out = [_("-- lobby: {game}, seats taken {taken} of {total} --").format(
            game=ev.game, taken=len(ev.names), total=ev.seats_total)]
        out += [f"  {line}" for line in lines]
        you_ready = ev.seat is not None and ev.is_ready(ev.seat)
        if first:
            out.append("  " + _(LOBBY_HELP))
        if ev.seat is not None and not you_ready:
            out.append("  " + _("type `ready` when you are ready to start"))
        elif ev.host and ev.can_start and len(ev.names) < ev.seats_total:
            out.append("  " + _("type `start` to start now with the players who are ready"))
        return out

    def lobby_line(self, text: str) -> bool:
        """A line typed in the lobby; False when it is not a lobby command (a move typed ahead)."""
        word = text.strip().lower()
        if word == "ready":
            self.hub.send(Ready(True))
        elif word in ("wait", "not ready", "unready"):
            self.hub.send(Ready(False))
        elif word == "start":
            self.hub.send(StartNow())
        elif word in ("h", "?"):
            self.say("  " + _(LOBBY_HELP))
        elif word.startswith("say "):
            self.hub.send(Chat(text.strip()[4:]))
        elif word:
            return False
        return True

    def rules_text(self, word: str | None = None) -> str:
        """`rules`: the game's rules in players' words; `rules WORD`: one card, place or move."""
        book = self.rules
        if not book:
            return "  " + _("no rules for this table yet (the game has not started)")
        if word is None:
            out = [_("== {title}: the rules ==").format(title=book.get("title", ""))]
            for heading, body in book.get("sections", []):
                out += [f"-- {heading} --", *_wrap_words(body)]
            return "\n".join(out)
        helps = book.get("help", {})
        word = word.strip().lower()
        hits = [f"  {k}: {v}" for k, v in helps.items() if word == k or word in v.lower()]
        return "\n".join(hits[:12]) if hits else "  " + _("nothing about {word} (try: rules)").format(
            word=repr(word))

    def prompt(self) -> str:
        if self.turn is None:
            return ""
        left = _left(self.hub.deadline)
        me = self.me or _("you")
        ask = (menu_words("which").format(me=me, label=self.sub.name, n=len(self.menu))
               if self.sub is not None else menu_words("move").format(me=me, n=len(self.menu)))
        return ask + (f" ({left})" if left else "") + ":"

    # ---- input ------------------------------------------------------------------------------
    async def read_commands(self, console: Console, eof_leaves: bool = True) -> None:
        """Typed lines -> commands, until input closes (then: leave the table). Lines typed ahead
        wait for the next prompt (as `input()` would); Ctrl-D with nothing typed ahead leaves
        at once, whatever the table is doing. With `eof_leaves` False (the browser page is the
        player's other front end) closed input only stops the terminal's reading."""
        self.hub.attach()  # the player is here while the terminal reads (the stand-in waits)
        while True:
            if not turn_open(self) and (not self.in_lobby or self._held) and not self.hub.stand_in \
                    and self.hub.round_held is None:
                if console.closed_and_empty:
                    self._input_closed(eof_leaves)
                    return
                await asyncio.sleep(0.1)
                continue
            text = await console.line()
            self._prompt_is_last = False  # Enter moved the cursor under the prompt
            if text is not None and self.hub.round_held is not None and not turn_open(self):
                self.hub.send(Continue())  # read: the next deal may start
                continue
            if text is not None and not turn_open(self) and self.composing is None:
                if self.hub.stand_in and not self.in_lobby:  # the bot plays: `back`, `say`...
                    self.handle_line(text)
                    continue
                if not (self.in_lobby and self.lobby_line(text)):
                    console.unread(text)  # a move typed ahead: it waits for the first prompt
                    self._held = True
                continue
            if self.composing is not None:
                self.composing.put("" if text is None else text)  # EOF gives the writing up
                if text is not None:
                    continue
            if text is None:
                self._input_closed(eof_leaves)
                return
            if text.strip().lower() == "w" and turn_open(self):
                asyncio.ensure_future(self.compose())
                continue
            self.handle_line(text)

    def _input_closed(self, eof_leaves: bool) -> None:
        self.hub.detach()
        if eof_leaves:
            self.hub.send(Leave(_("standard input closed")))
        else:
            self.say(_("terminal input closed: play in the browser page (Ctrl-C leaves the table)"))

    async def compose(self) -> None:
        """`w`: the game presenter's composer asks its questions here; its move is played."""
        turn, need = self.turn, self.hub.need
        composer = presenter(str((need.view if need else {}).get("game"))).compose
        if turn is None or need is None or composer is None:
            self.say("  " + _("there is nothing to write here"))
            return
        lines: queue.Queue[str] = queue.Queue()
        self.composing = lines

        def ask(prompt: str) -> str:
            self.say(prompt)
            return lines.get()
        try:
            move = await asyncio.to_thread(composer, need.view, need.legal, ask, self.say)
        finally:
            self.composing = None
        if move is None:
            self._top(turn)
            self.say("\n".join(options_lines(turn)))
            return
        self.answered = True
        self.hub.send(PlayComposed(turn.turn, move))

    def handle_line(self, line: str) -> None:
        """One typed line: commands are read in any case, a chat line keeps its own."""
        line = line.strip()
        turn, text = self.turn, line.lower()
        if text.startswith("say "):
            self.hub.send(Chat(line[4:]))
            return
        if text == "bot":
            if self.hub.stand_in:
                self.say("  " + _("a bot already plays for you (back takes your seat back)"))
            else:
                self.hub.send(HandOver())
            return
        if self.hub.stand_in and text and text not in ("h", "?", "v", "rules", "r") \
                and not text.startswith("rules "):
            self.hub.send(TakeBack())  # any other line: the player is back
            return
        if text == "back":
            self.say("  " + _("you have your seat"))
            return
        if text in ("rules", "r"):
            self.say(self.rules_text())
        elif text.startswith("rules ") or text.startswith("r "):
            self.say(self.rules_text(text.split(None, 1)[1]))
        elif text in ("h", "?"):
            self.say("  " + _(HELP))
        elif text == "v":
            self.say(json.dumps(self.view, indent=1, sort_keys=True) if self.view else _("no view yet"))
        elif text == "m" and turn is not None and not self.answered:
            self._top(turn)
            self.say("\n".join(options_lines(turn)))
        elif turn is not None and not self.answered:
            self._menu_choice(turn, text)
        elif text:
            self.say("  " + _("not your turn") + (f"; {self.waiting_for}" if self.waiting_for else ""))

    def _top(self, turn: TurnStarted) -> None:
        """Back to the turn's first menu."""
        self.menu, self.sub, self.path = first_menu(turn.options), None, []

    def _menu_choice(self, turn: TurnStarted, text: str) -> None:
        """A number typed at a menu: its entry's only move is played, or the entry's own menu
        opens (the next card to pick, the targets); 0 goes back one menu."""
        if self.path and text in ("0", "b", "back"):
            self.menu = self.path.pop()[1]
            self.sub = self.path[-1][0] if self.path else None
            lines = (sub_lines(turn, self.sub, self.menu, len(self.path)) if self.sub is not None
                     else menu_lines(self.menu))
            self.say("\n".join(lines + [self.prompt()]))
            self._prompt_is_last = True
            return
        entries = self.menu
        if not (text.isdigit() and 1 <= int(text) <= len(entries)):
            self.say(menu_words("pick_sub" if self.path else "pick").format(n=len(entries)))
            return
        entry = entries[int(text) - 1]
        if len(entry.options) > 1:
            self.path.append((entry, self.menu))
            self.menu, self.sub = submenu(turn.options, entry), entry
            self.say("\n".join(sub_lines(turn, entry, self.menu, len(self.path)) + [self.prompt()]))
            self._prompt_is_last = True
            return
        self.answered, self.sub, self.path = True, None, []
        self.hub.send(PlayMove(turn.turn, entry.options[0]))

    async def remind(self, live: bool | None = None) -> None:
        """The prompt's countdown, kept live: at a terminal the prompt line is redrawn in place
        every second while nothing else was printed under it (the cursor and what the player
        types stay where they are); elsewhere (a pipe, a log) a line at every minute. The 60 s
        and 15 s warnings come from the table (`TimeWarning`)."""
        live = self.live if live is None else live
        told: set[tuple[int, int]] = set()
        while True:
            await asyncio.sleep(1.0)
            turn, deadline = self.turn, self.hub.deadline
            if turn is None or self.answered or deadline is None or self.composing is not None:
                continue
            left = int(deadline - time.time())
            if live and self._prompt_is_last:
                # save the cursor, up one line to the prompt, redraw it, restore the cursor
                self.raw("\x1b7\x1b[1A\r" + self.prompt() + "\x1b[K\x1b8")
            elif not live and left > 0 and left % 60 == 0 and (turn.turn, left) not in told:
                told.add((turn.turn, left))
                self.say("  (" + _("{time} left for your move").format(time=countdown(left)) + ")")
