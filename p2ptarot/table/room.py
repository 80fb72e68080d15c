"""The lobby room a host keeps while its table fills up (sans-I/O: no socket, no clock).

The host feeds it what joiners said (`join`, `ready`, `chat` control frames, typed by
`control.parse_control` but otherwise untrusted) and link losses; it answers with roster snapshots to broadcast,
chat lines to relay, and whether the table may start. Every input is keyed by the peer key the
authenticated link proved, so a joiner can only ever speak for its own seat.

Start rule: the table starts when every seat is taken and every seated player is ready. The host
may also start at once with fewer players when the game is played by that many (the charter then
seats exactly the players present).

A joiner whose link drops keeps its seat, *away*, for `away_limit` seconds (its peer re-dials):
the same key joining again takes it back; past the limit the seat is freed. An away seat counts
as not ready (it cannot be started with, and holds the table only that long). The clock is the
caller's: every timed input takes `now` (seconds, monotonic).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .control import MAX_ROSTER, ChatFrame, JoinFrame, LobbyFrame
from .names import clean_name, printable
from p2ptarot.i18n.message import tr

#: longest lobby chat line relayed (characters), and the least time between two lines of a peer
MAX_CHAT = 300
CHAT_INTERVAL = 0.5
MAX_ADDRESS = 200
#: seconds a dropped joiner's seat is kept for it by default (its peer re-dials meanwhile)
AWAY_LIMIT = 30.0


class RoomError(Exception):
    """The host asked for something the room cannot do (a sentence for the user)."""


@dataclass(frozen=True)
class RoomSeat:
    key: bytes
    name: str
    address: str
    ready: bool
    bot: bool = False


@dataclass(frozen=True)
class Roster:
    """What every seated player is shown: names in seat order, ready flags, how many seats."""

    game: str
    variant: str | None
    seats_total: int
    seats: tuple[RoomSeat, ...]
    #: every seat is taken and everyone is ready: the table starts by itself
    full_and_ready: bool
    #: the host may start now with itself and the joiners who are ready (a valid count)
    can_start_now: bool

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def ready(self) -> tuple[bool, ...]:
        return tuple(s.ready for s in self.seats)

    def frame(self, you: int | None = None) -> LobbyFrame:
        """The `lobby` control frame the host sends a joiner (`you`: that joiner's seat); no
        keys or addresses, names are enough."""
        return LobbyFrame(game=self.game, variant=self.variant or "", seats=self.seats_total,
                          names=list(self.names), ready=list(self.ready),
                          bots=[s.bot for s in self.seats], can_start=self.can_start_now,
                          you=you if you is not None else -1)


@dataclass(frozen=True)
class ChatRelay:
    """A lobby chat line to relay to every seated player, with the sender's seat."""

    seat: int
    name: str
    text: str

    def frame(self) -> ChatFrame:
        return ChatFrame(seat=self.seat, name=self.name, text=self.text)


def clean_chat(raw: object) -> str | None:
    """A chat line as shown: printable, single-spaced, at most 300 characters; None when empty
    or not a string."""
    if not isinstance(raw, str):
        return None
    text = " ".join(printable(raw, MAX_CHAT * 4).split())[:MAX_CHAT]
    return text or None


class Away:
    """Keys whose link dropped, and since when: each is given up `limit` seconds after (the
    lobby's away seats, and the seats the host still waits on to sign the charter)."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self._since: dict[bytes, float] = {}

    def lost(self, key: bytes, now: float) -> bool:
        """`key`'s link dropped; True unless it was already away (its clock is not restarted)."""
        if key in self._since:
            return False
        self._since[key] = now
        return True

    def back(self, key: bytes) -> bool:
        """`key` is linked again; True when it was away."""
        return self._since.pop(key, None) is not None

    def __contains__(self, key: object) -> bool:
        return key in self._since

    def expired(self, now: float) -> list[bytes]:
        """The keys away for `limit` seconds or more, given up (forgotten) now, oldest first."""
        gone = sorted((since, key) for key, since in self._since.items()
                      if now - since >= self.limit)
        for _since, key in gone:
            del self._since[key]
        return [key for _since, key in gone]

    def wait(self, now: float) -> float | None:
        """Seconds until the next key is given up (None: nobody is away)."""
        if not self._since:
            return None
        return max(0.0, min(self._since.values()) + self.limit - now)


class Room:
    """The seats of a filling table, the host's own first."""

    def __init__(self, game: str, variant: str | None, seats_total: int, host: RoomSeat,
                 min_players: int, max_players: int, away_limit: float = AWAY_LIMIT) -> None:
        if not min_players <= seats_total <= max_players:
            raise RoomError(tr("{game} is played by {low} to {high} players, not {count}",
                               game=game, low=min_players, high=max_players, count=seats_total))
        self.game, self.variant = game, variant
        self.seats_total = seats_total
        self.min_players, self.max_players = min_players, max_players
        self._seats: list[RoomSeat] = [host]
        self._last_chat: dict[bytes, float] = {}
        self._away = Away(away_limit)

    # ---- what joiners do (every argument but `key` comes from the wire) --------------------------
    def join(self, key: bytes, frame: JoinFrame) -> str | None:
        """Seat a joiner; None when seated (or already seated: nothing changes), 'back' when an
        away seat is taken back (with the join's ready flag; name and address stay), else why
        not ('full')."""
        seat = self.seat_of(key)
        if seat is not None:
            if not self._away.back(key):
                return None
            was = self._seats[seat]
            self._seats[seat] = replace(was, ready=was.bot or frame.ready)
            return "back"
        if len(self._seats) >= self.seats_total:
            return "full"
        self._seats.append(RoomSeat(key, clean_name(frame.name),
                                    printable(frame.address, MAX_ADDRESS),
                                    ready=frame.ready or frame.bot, bot=frame.bot))
        return None

    def leave(self, key: bytes) -> bool:
        """A joiner is gone for good: its seat is freed (the host's seat never is)."""
        seat = self.seat_of(key)
        if seat is None or seat == 0:
            return False
        del self._seats[seat]
        self._last_chat.pop(key, None)
        self._away.back(key)
        return True

    def lost(self, key: bytes, now: float) -> bool:
        """A joiner's link went down: its seat is kept, away, for `away_limit` seconds; True
        when a seated joiner became away (not for the host, a stranger or one already away)."""
        seat = self.seat_of(key)
        if seat is None or seat == 0:
            return False
        return self._away.lost(key, now)

    def expire(self, now: float) -> list[RoomSeat]:
        """The away seats whose limit passed, freed now."""
        gone = []
        for key in self._away.expired(now):
            seat = self.seat_of(key)
            if seat is not None:
                gone.append(self._seats[seat])
                self.leave(key)
        return gone

    def away_wait(self, now: float) -> float | None:
        """Seconds until the next away seat is freed (None: nobody is away)."""
        return self._away.wait(now)

    def is_away(self, key: bytes) -> bool:
        return key in self._away

    def set_ready(self, key: bytes, ready: object) -> bool:
        """A seated player's ready flag; True when it changed. Bots stay ready."""
        seat = self.seat_of(key)
        if seat is None or not isinstance(ready, bool) or self._seats[seat].bot:
            return False
        if self._seats[seat].ready == ready:
            return False
        self._seats[seat] = replace(self._seats[seat], ready=ready)
        return True

    def chat(self, key: bytes, text: object, now: float) -> ChatRelay | None:
        """A seated player's chat line to relay (None: a stranger, not text, or too soon after
        this player's last line: a flood is dropped, not queued). `now`: seconds, monotonic."""
        seat = self.seat_of(key)
        clean = clean_chat(text)
        if seat is None or clean is None:
            return None
        last = self._last_chat.get(key)
        if last is not None and now - last < CHAT_INTERVAL:
            return None
        self._last_chat[key] = now
        return ChatRelay(seat, self._seats[seat].name, clean)

    # ---- the host's decisions ---------------------------------------------------------------------
    def start_now(self) -> list[RoomSeat]:
        """The seats of a table the host starts now: the host (starting says it is ready) and the
        joiners who are ready, in seat order. A joiner who is not ready is left out (the lobby pump
        tells it so), so nobody can hold a table by never saying Ready. RoomError when the game
        is not played by that many."""
        chosen = [replace(self._seats[0], ready=True)] + [s for s in self._present()[1:] if s.ready]
        count = len(chosen)
        if not self.min_players <= count <= self.max_players:
            raise RoomError(tr("{game} needs {low} to {high} players; {count} ready",
                               game=self.game, low=self.min_players, high=self.max_players,
                               count=count))
        return chosen

    @property
    def should_start(self) -> bool:
        """Every seat is taken and every seated player is ready (and linked)."""
        return len(self._seats) == self.seats_total and all(s.ready for s in self._present())

    # ---- reading ----------------------------------------------------------------------------------
    def seat_of(self, key: bytes) -> int | None:
        return next((i for i, s in enumerate(self._seats) if s.key == key), None)

    @property
    def seats(self) -> tuple[RoomSeat, ...]:
        return tuple(self._seats)

    def _present(self) -> list[RoomSeat]:
        """The seats as the start rule sees them: an away seat is not ready."""
        return [replace(s, ready=False) if s.ready and s.key in self._away else s
                for s in self._seats]

    def roster(self) -> Roster:
        """The roster shown to everyone (an away seat shows as not ready)."""
        seats = self._present()
        count = 1 + sum(s.ready for s in seats[1:])  # who "start now" would seat
        now = self.min_players <= count <= self.max_players
        return Roster(self.game, self.variant, self.seats_total, tuple(seats),
                      self.should_start, now)


# ---- the joiner's side: what the host sent, checked ------------------------------------------------

@dataclass(frozen=True)
class RosterSeen:
    """A `lobby` frame from the host, validated: names (cleaned), ready and bot flags in seat
    order, the seats in all, whether the host could start now, and the receiver's seat."""

    seats_total: int
    names: tuple[str, ...]
    ready: tuple[bool, ...]
    bots: tuple[bool, ...]
    can_start: bool
    you: int | None


def parse_roster(frame: LobbyFrame) -> RosterSeen | None:
    """A host's `lobby` frame, or None when its lists disagree (the model checked each field's
    type and size)."""
    names, ready, bots = frame.names, frame.ready, frame.bots
    if len(names) > frame.seats or len(ready) != len(names) or len(bots) not in (0, len(names)):
        return None
    return RosterSeen(frame.seats, tuple(clean_name(n) for n in names), tuple(ready),
                      tuple(bots) if bots else (False,) * len(names), frame.can_start,
                      frame.you if 0 <= frame.you < len(names) else None)


def parse_chat_relay(frame: ChatFrame, roster: RosterSeen | None) -> ChatRelay | None:
    """A lobby chat line the host relayed: the sender is named by its seat in the last roster
    (the name in the frame is not trusted), the text cleaned like any chat line."""
    seat, text = frame.seat, clean_chat(frame.text)
    if roster is None or seat is None or not 0 <= seat < len(roster.names) or text is None:
        return None
    return ChatRelay(seat, roster.names[seat], text)


__all__ = ["AWAY_LIMIT", "Away", "MAX_ROSTER", "RosterSeen", "parse_chat_relay", "parse_roster", "ChatRelay", "Room", "RoomError", "RoomSeat", "Roster", "clean_chat"]
