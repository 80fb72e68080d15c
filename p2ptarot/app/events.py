"""What a table tells its front ends (events) and what a front end asks of it (commands).

The terminal and the browser page consume the same typed, frozen events, so they cannot disagree
about what happened. Everything a person reads is already worded here: player names from the
charter, seats counted from 1 (`seat_label`), move sentences from the game's presenter.
Each event has `to_json()` (the browser receives exactly that, with a "type" key).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from p2ptarot.i18n import N_, _
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # a bot peer loads these events without the presenters `present` brings in
    from p2ptarot.present.options import MoveOption

#: what a seat is asked for: its move (`Waiting.what`; other steps are worded by the app layer)
MOVE_WORD = N_("move")


def seat_label(seat: int) -> str:
    """The seat a person reads: internal seat 0 is 'seat 1' (the rules count from 1)."""
    return _("seat {n}").format(n=seat + 1)


@dataclass(frozen=True)
class Event:
    TYPE: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, **asdict(self)}


@dataclass(frozen=True)
class TableOpened(Event):
    """The charter is signed: who sits where, and which seat is ours (None for a spectator)."""

    TYPE: ClassVar[str] = "table"
    game: str
    title: str
    variant: str | None
    seat: int | None
    names: tuple[str, ...]
    move_timeout: int
    #: the table's stand-in policy (charter): seconds after its player left before a bot plays a
    #: seat, and whether a bot plays a connected player's overdue move (0: never, the seat is blamed)
    stand_in_after: int = 0
    #: the time rule in words (`clock.rule_text`), shown before the game
    rule: str = ""
    #: the game's rules in players' words, by language ({"en": Rules.to_json(), "fr": ...})
    rules: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LobbyState(Event):
    """The seats of a table filling up (names in seat order, who is ready, which are bots), how
    many seats in all, our seat, whether we host it and whether it could start now."""

    TYPE: ClassVar[str] = "lobby"
    game: str
    seats_total: int
    names: tuple[str, ...]
    address: str = ""
    ready: tuple[bool, ...] = ()
    bots: tuple[bool, ...] = ()
    can_start: bool = False
    seat: int | None = None
    host: bool = False

    def is_ready(self, seat: int) -> bool:
        return seat < len(self.ready) and self.ready[seat]

    @property
    def lines(self) -> list[str]:
        """'seat 2: Bob (ready)' for every seat, free seats included."""
        out = []
        for i in range(self.seats_total):
            if i >= len(self.names):
                out.append(_("{seat}: (free)").format(seat=seat_label(i)))
                continue
            marks = [_("you") if i == self.seat else "", _("host") if i == 0 else "",
                     _("bot") if i < len(self.bots) and self.bots[i] else "",
                     _("ready") if self.is_ready(i) else _("not ready")]
            out.append(_("{seat}: {name} ({marks})").format(
                seat=seat_label(i), name=self.names[i], marks=", ".join(m for m in marks if m)))
        return out


@dataclass(frozen=True)
class ViewChanged(Event):
    """Our seat's (or the public) view changed; `screen` is its screen model for drawing."""

    TYPE: ClassVar[str] = "view"
    screen: dict[str, Any]
    text: str
    view: dict[str, Any]


@dataclass(frozen=True)
class TurnStarted(Event):
    """Our seat must choose one of `options` (numbered from 1) before `deadline` (Unix time)."""

    TYPE: ClassVar[str] = "turn"
    turn: int
    options: tuple[MoveOption, ...]
    deadline: float | None
    since: tuple[str, ...] = ()


@dataclass(frozen=True)
class MovePlayed(Event):
    """A move entered the log: who made it (name and seat) and what it did, as a sentence.
    `by` is "bot" when the seat's stand-in bot chose it (the seat's own claim, unverifiable)."""

    TYPE: ClassVar[str] = "move"
    step: int
    seat: int
    name: str
    sentence: str
    automatic: bool = False
    by: str | None = None


@dataclass(frozen=True)
class Waiting(Event):
    """What the table waits for now, and until when (past it the table is abandoned, blaming
    nobody)."""

    TYPE: ClassVar[str] = "waiting"
    seats: tuple[int, ...]
    names: tuple[str, ...]
    what: str
    deadline: float | None
    yours: bool = False

    @property
    def sentence(self) -> str:
        if self.yours:
            return _("your move ({what})").format(what=_(self.what) if self.what else "")
        if self.what == "move" or not self.what:
            return _("waiting for {names}").format(names=_and(self.names))
        if self.what == "between-rounds":
            return _("waiting for {names} (reading the round's result, or starting the next deal)"
                     ).format(names=_and(self.names))
        return _("{what}: waiting for {names}").format(what=_(self.what), names=_and(self.names))


@dataclass(frozen=True)
class Presence(Event):
    """A player's link came up or went down ('joined', 'left': disconnected, and re-dialled
    since `since`, Unix time; 'rejoined'), or, read from the log, a stand-in bot started playing
    their seat ('stand-in') or they took it back ('back')."""

    TYPE: ClassVar[str] = "presence"
    seat: int
    name: str
    status: str
    since: float | None = None

    @property
    def sentence(self) -> str:
        if self.status == "left":
            return _("{name} is disconnected — reconnecting").format(name=self.name)
        if self.status in ("rejoined", "back"):
            return _("{name} is back").format(name=self.name)
        if self.status == "stand-in":
            return _("{name}'s seat is played by a bot until {name} comes back").format(name=self.name)
        if self.status == "joined":
            return _("{name} joined").format(name=self.name)
        return f"{self.name} {self.status}"

    def line(self, now: float) -> str:
        """The sentence with the time since the link dropped: 'Bob is disconnected —
        reconnecting (0:42)' (a front end redraws it every second)."""
        if self.status != "left" or self.since is None:
            return self.sentence
        elapsed = max(0, int(now - self.since))
        return f"{self.sentence} ({elapsed // 60}:{elapsed % 60:02d})"


@dataclass(frozen=True)
class Standing:
    name: str
    seat: int
    score: int
    winner: bool
    #: the place (1 = first); players the rules cannot tell apart share it
    rank: int = 0


@dataclass(frozen=True)
class GameFinished(Event):
    """The game ended and every seat signed the same outcome."""

    TYPE: ClassVar[str] = "finished"
    standings: tuple[Standing, ...]
    transcript: str = ""
    rounds: tuple[dict[str, Any], ...] = ()
    #: what the score counts ("figures won", "VP"), from the rules
    score_label: str = "score"
    #: the reader's own line ("you finished 2nd of 3"), '' for a spectator
    personal: str = ""


@dataclass(frozen=True)
class RoundOver(Event):
    """A round ended: its record (worded) and the running totals by name."""

    TYPE: ClassVar[str] = "round"
    number: int
    result: dict[str, Any]
    totals: dict[str, Any]
    #: what the round's end shows beyond its record (Eleusis: each judgment re-checked)
    details: tuple[str, ...] = ()
    #: a footnote to the totals (Eleusis: they include §4.16's +10 for seats that have not dealt)
    note: str = ""


@dataclass(frozen=True)
class GameAborted(Event):
    """The game ended on a fault (or because a player left): who is blamed and why."""

    TYPE: ClassVar[str] = "aborted"
    blame: int | None
    blame_name: str
    reason: str
    step: int | None = None


@dataclass(frozen=True)
class Notice(Event):
    """A plain sentence for the player (resuming, a forced move played for you...)."""

    TYPE: ClassVar[str] = "notice"
    text: str


@dataclass(frozen=True)
class RoundHeld(Event):
    """The next deal waits for this seat's player: the round's result stays on the screen until
    a `Continue` or `until` (Unix time); `held` False when the table goes on."""

    TYPE: ClassVar[str] = "hold"
    number: int
    until: float
    held: bool = True


@dataclass(frozen=True)
class Restart(Event):
    """The page's table changed (back to the lobby, a rematch): start afresh. Sent to the open
    pages only, never kept in the history (a page opened later starts afresh anyway)."""

    TYPE: ClassVar[str] = "restart"


@dataclass(frozen=True)
class TimeWarning(Event):
    """Our move's time is running out: `left` seconds, and what the table does then."""

    TYPE: ClassVar[str] = "clock"
    left: int
    text: str


@dataclass(frozen=True)
class StandInChanged(Event):
    """Our own seat's stand-in bot started (`active`) or stopped playing for us, and why."""

    TYPE: ClassVar[str] = "standin"
    active: bool
    reason: str = ""

    @property
    def sentence(self) -> str:
        if self.active:
            return _("a bot plays your seat ({reason}); type back (or click 'Take my seat "
                     "back') to play again").format(reason=self.reason)
        return (_("you have your seat back ({reason})").format(reason=self.reason) if self.reason
                else _("you have your seat back"))


@dataclass(frozen=True)
class FormReply(Event):
    """The table's answer to a written move (`WriteMove`): taken, or why not, with the line and
    column of the fault in the text (1-based; 0 when the fault is not in the text)."""

    TYPE: ClassVar[str] = "form"
    form: str
    ok: bool
    text: str
    line: int = 0
    column: int = 0
    excerpt: str = ""
    played: bool = False


@dataclass(frozen=True)
class ChatLine(Event):
    TYPE: ClassVar[str] = "chat"
    name: str
    text: str


@dataclass(frozen=True)
class TablesSeen(Event):
    """The open tables a lobby sees on the LAN (each: game, variant, host name and fingerprint,
    seats taken and free, the target to join it by)."""

    TYPE: ClassVar[str] = "tables"
    tables: tuple[dict[str, Any], ...]
    name: str = ""
    #: the games a table can be hosted for from the page (name, title, players, variants)
    games: tuple[dict[str, Any], ...] = ()
    #: the lobby also lists and hosts tables on the NOSTR relays (`p2ptarot web --online`)
    online: bool = False


@dataclass(frozen=True)
class ConnectionChecked(Event):
    """The page's "Check my connection": `running` while the checks run, then each check
    (`{"check", "ok", "text"}`: check one of interfaces, relay, stun, nat, turn), the verdict
    (`LAN`, `direct`, `through TURN`, `relay only (slow)` or `nothing`), its sentence with the
    reason, and what to do; every text already in the player's words."""

    TYPE: ClassVar[str] = "doctor"
    running: bool
    checks: tuple[dict[str, Any], ...] = ()
    verdict: str = ""
    said: str = ""
    advice: tuple[str, ...] = ()


@dataclass(frozen=True)
class LinkPaths(Event):
    """Online tables: the path each link to another seat took (`direct`, `turn` through a TURN
    server, `relay` on the NOSTR relays) and its round-trip time in ms (None until measured);
    each row: seat, name, path, rtt_ms."""

    TYPE: ClassVar[str] = "paths"
    links: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class ReplayLoaded(Event):
    """A transcript to step through: the players' names, one frame per move, the verdict."""

    TYPE: ClassVar[str] = "replay"
    names: tuple[str, ...]
    frames: tuple[dict[str, Any], ...]
    verdict: str


# ---- commands (front end -> table) ---------------------------------------------------------------
@dataclass(frozen=True)
class Command:
    pass


@dataclass(frozen=True)
class PlayMove(Command):
    """Play option `index` (1-based, as shown) of turn `turn`."""

    turn: int
    index: int


@dataclass(frozen=True)
class PlayComposed(Command):
    """Play a move the list cannot hold, written by the player (an Eleusis rule or run) through
    the game presenter's `compose`; local front ends only (never built from page input)."""

    turn: int
    move: Any


@dataclass(frozen=True)
class WriteMove(Command):
    """A move written in one of the page's forms (an Eleusis rule, hint or run): plain fields
    only, strictly parsed (`command_from_json`); the game's presenter (`page_move`) validates them
    against the view and builds the move. `check` asks for the verdict only (nothing is played)."""

    turn: int
    form: str
    text: str = ""
    choices: tuple[str, ...] = ()
    handles: tuple[int, ...] = ()
    check: bool = False


#: the forms a page may write, and the bounds of their fields
WRITE_FORMS = ("rule", "hint", "run")
#: the longest text a form carries: ERL's own limit on a rule (spec/ERL.md, 4096 bytes)
MAX_WRITTEN_BYTES = 4096
MAX_CHOICES = 8
MAX_CHOICE_CHARS = 40
MAX_HANDLES = 8


@dataclass(frozen=True)
class Leave(Command):
    reason: str = "left the table"


@dataclass(frozen=True)
class HandOver(Command):
    """Let the stand-in bot play this seat from now on (until the player comes back)."""


@dataclass(frozen=True)
class TakeBack(Command):
    """The player is back: the stand-in bot stops playing this seat."""


@dataclass(frozen=True)
class Continue(Command):
    """The player has read the round's result: the next deal may start."""


@dataclass(frozen=True)
class Chat(Command):
    text: str


@dataclass(frozen=True)
class Sit(Command):
    """Join the table at `target` (an address or fingerprint, as `p2ptarot join` takes)."""

    target: str
    name: str = ""
    #: an online table: contact no STUN server but the ones the lobby was given (the page's
    #: equivalent of `--no-default-stun`)
    no_default_stun: bool = False


@dataclass(frozen=True)
class CheckConnection(Command):
    """The page's "Check my connection": run the doctor's checks with the lobby's settings
    (`no_default_stun` as the page's setting says) and publish a `ConnectionChecked`."""

    no_default_stun: bool = False


@dataclass(frozen=True)
class Host(Command):
    """Open a table from the page (`p2ptarot web`): game, variant ('' for its default), seats
    in all, how many of them local bots fill, and the host's name."""

    game: str
    variant: str
    seats: int
    bots: int
    name: str = ""
    #: open it on the NOSTR relays (`p2ptarot web --online`) rather than on the LAN
    online: bool = False
    #: the game's table options (its `rules.OPTIONS`, checked by the lobby; a rematch keeps them)
    options: tuple[tuple[str, Any], ...] = ()
    #: online: contact no STUN server but the ones the lobby was given (as `Sit`'s)
    no_default_stun: bool = False


@dataclass(frozen=True)
class BackToLobby(Command):
    """After a game in `p2ptarot web`: show the open tables again (the page starts afresh)."""


@dataclass(frozen=True)
class Rematch(Command):
    """After a game hosted from the page: a new table of the same game, seats and bots."""


@dataclass(frozen=True)
class Ready(Command):
    """In the lobby: this player is ready to start (or, `ready=False`, not yet)."""

    ready: bool = True


@dataclass(frozen=True)
class StartNow(Command):
    """In the lobby, the host only: start with the players seated (a count the game allows)."""


def command_from_json(data: Any) -> Command:
    """A command from untrusted page input; ValueError when malformed (never a crash)."""
    if not isinstance(data, dict):
        raise ValueError(tr("a command is a JSON object"))
    cmd = data.get("cmd")
    if cmd == "move":
        turn, index = data.get("turn"), data.get("index")
        if type(turn) is not int or type(index) is not int:
            raise ValueError(tr("move needs integer turn and index"))
        return PlayMove(turn, index)
    if cmd == "leave":
        return Leave()
    if cmd == "bot":
        return HandOver()
    if cmd == "back":
        return TakeBack()
    if cmd == "continue":
        return Continue()
    if cmd == "chat":
        text = data.get("text")
        if not isinstance(text, str):
            raise ValueError(tr("chat needs a text"))
        return Chat(text[:300])
    if cmd == "sit":
        target, name = data.get("target"), data.get("name", "")
        if not isinstance(target, str) or not isinstance(name, str):
            raise ValueError(tr("sit needs a target"))
        return Sit(target[:300], name[:40], _no_default_stun(data, "sit"))
    if cmd == "doctor":
        return CheckConnection(_no_default_stun(data, "doctor"))
    if cmd == "host":
        game, variant, name = data.get("game"), data.get("variant", ""), data.get("name", "")
        seats, bots = data.get("seats"), data.get("bots", 0)
        if not isinstance(game, str) or not isinstance(variant, str) or not isinstance(name, str) \
                or type(seats) is not int or type(bots) is not int:
            raise ValueError(tr("host needs a game, a variant, whole numbers of seats and bots"))
        if not 1 <= seats <= 64 or not 0 <= bots < seats:
            raise ValueError(tr("host: seats 1 to 64, bots fewer than the seats"))
        online = data.get("online", False)
        if not isinstance(online, bool):
            raise ValueError(tr("host: online is true or false"))
        options = data.get("options", {})
        if not isinstance(options, dict) or len(options) > 16 or not all(
                isinstance(k, str) and len(k) <= 40 and (type(v) in (int, bool) or
                                                         (isinstance(v, str) and len(v) <= 40))
                for k, v in options.items()):
            raise ValueError(tr("host: options map names to numbers, words or true/false"))
        return Host(game[:40], variant[:40], seats, bots, name[:40], online,
                    tuple(sorted(options.items())), _no_default_stun(data, "host"))
    if cmd == "lobby":
        return BackToLobby()
    if cmd == "rematch":
        return Rematch()
    if cmd == "ready":
        ready = data.get("ready", True)
        if not isinstance(ready, bool):
            raise ValueError(tr("ready takes true or false"))
        return Ready(ready)
    if cmd == "start":
        return StartNow()
    if cmd == "write":
        return _write_from_json(data)
    raise ValueError(tr("unknown command {cmd}", cmd=repr(cmd)))


def _no_default_stun(data: dict[str, Any], cmd: str) -> bool:
    value = data.get("no_default_stun", False)
    if not isinstance(value, bool):
        raise ValueError(tr("{cmd}: no_default_stun is true or false", cmd=cmd))
    return value


def _write_from_json(data: dict[str, Any]) -> WriteMove:
    """A `WriteMove` from page input: every field typed and bounded, nothing else kept."""
    turn, form = data.get("turn"), data.get("form")
    if type(turn) is not int:
        raise ValueError(tr("write needs an integer turn"))
    if form not in WRITE_FORMS:
        raise ValueError(tr("write needs a form among {forms}", forms=', '.join(WRITE_FORMS)))
    text = data.get("text", "")
    if not isinstance(text, str):
        raise ValueError(tr("a written text is a string"))
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:  # a lone surrogate, which JSON lets through
        raise ValueError(tr("a written text is valid Unicode")) from None
    if size > MAX_WRITTEN_BYTES:
        raise ValueError(tr("a written text is at most {max} bytes", max=MAX_WRITTEN_BYTES))
    choices = data.get("choices", [])
    if not isinstance(choices, list) or len(choices) > MAX_CHOICES or not all(
            isinstance(c, str) and len(c) <= MAX_CHOICE_CHARS and c.isprintable() for c in choices):
        raise ValueError(tr("choices are at most {max} short strings", max=MAX_CHOICES))
    handles = data.get("handles", [])
    if not isinstance(handles, list) or len(handles) > MAX_HANDLES or not all(
            type(h) is int and 0 <= h < 1 << 16 for h in handles):
        raise ValueError(tr("handles are at most {max} small integers", max=MAX_HANDLES))
    check = data.get("check", False)
    if type(check) is not bool:
        raise ValueError(tr("check is true or false"))
    return WriteMove(turn, form, text, tuple(choices), tuple(handles), check)


def _and(names: tuple[str, ...] | list[str]) -> str:
    names = list(names)
    if not names:
        return _("nobody")
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


__all__ = ["Chat", "ChatLine", "Command", "Event", "FormReply", "GameAborted", "GameFinished",
           "HandOver", "Host", "Leave", "LobbyState", "MovePlayed", "Notice",
           "PlayComposed", "PlayMove", "Presence", "Ready", "ReplayLoaded", "RoundHeld", "RoundOver", "Sit",
           "StandInChanged", "StartNow", "BackToLobby", "Continue", "Rematch", "TablesSeen", "TakeBack", "Standing", "TableOpened",
           "Restart", "TimeWarning", "TurnStarted", "ViewChanged", "Waiting", "WriteMove", "command_from_json",
           "seat_label"]


def __getattr__(name: str) -> Any:
    """`MoveOption` (a `TurnStarted` field's type) loads on first use: importing it runs the
    `present` package, whose presenters and card faces a bot peer never needs (issue 36)."""
    if name == "MoveOption":
        from p2ptarot.present.options import MoveOption  # noqa: PLC0415 - deferred on purpose
        globals()[name] = MoveOption
        return MoveOption
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
