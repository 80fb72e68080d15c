"""A peer's settings and results, shared by the lobby, the game pump and the front ends."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Awaitable, Callable

from p2ptarot.app.clock import DEFAULT_MOVE_TIMEOUT
from p2ptarot.engine import Move, Outcome
from p2ptarot.net.lan import DEFAULT_HEARTBEAT, LanTransport
from p2ptarot.net.link import Transport
from p2ptarot.table.effects import Aborted, NeedMove
from p2ptarot.table.inputs import StandInMove
from p2ptarot.table.room import AWAY_LIMIT

from .clock import Clock

if TYPE_CHECKING:  # a bot peer has no hub: the player's front end is never loaded (issue 26)
    from p2ptarot.app.hub import Hub

#: answers a NeedMove: the move, or a StandInMove when the seat's stand-in bot chose it
Chooser = Callable[[NeedMove], Awaitable[Move | StandInMove]]
Say = Callable[[str], None]

#: the stand-in policy a person's table gets unless its host says otherwise (seconds): time to
#: think over a move, not minutes of a table held up by someone who walked away
DEFAULT_STAND_IN_AFTER = 60
#: seconds a table hosted by a bot waits for its joiners to say Ready once enough players sit;
#: then it starts with the ready ones (a joiner that never says Ready cannot hold it)
DEFAULT_LOBBY_GRACE = 60.0
#: seconds a lobby waits for a dropped link to come back before the table goes on without it
#: (a joiner re-dials its host that long; the host keeps the joiner's seat, or waits for its
#: charter signature, that long): a Wi-Fi blink or a laptop lid, not a player who walked away
DEFAULT_LOBBY_RECONNECT = AWAY_LIMIT


class RunError(Exception):
    """The lobby or the game could not proceed (a clear sentence for the user)."""


def _quiet(text: str) -> None:
    """The default `say`: a peer with no front end prints nothing."""


@dataclass
class PeerConfig:
    """Settings shared by `host` and `join`."""

    data_dir: Path
    name: str
    interface: str | None = None  # None: all interfaces (real users); tests pass 127.0.0.1
    port: int = 0
    #: seconds a cryptographic step may wait before this peer asks everyone for what it missed
    #: and says whom it waits for (a local setting; the table's limit is the charter's)
    timeout: int = 120
    #: host: the table's limit, written in the charter: seconds a step may wait on a seat (its
    #: move, or its link coming back) before the table is abandoned, blaming nobody
    move_timeout: int = DEFAULT_MOVE_TIMEOUT  # one default everywhere (app.clock)
    #: host: the table's stand-in policy written in the charter (seconds a human seat may leave
    #: its turn unanswered before its own peer lets a bot play for it; 0 = never)
    stand_in_after: int = 0
    linger: float = 2.0
    #: seconds a lobby (host: waiting for joiners; joiner: waiting for the table to fill) may take
    lobby_timeout: float = 600.0
    #: host played by a bot: seconds to wait for the last Ready once enough players sit
    lobby_grace: float = DEFAULT_LOBBY_GRACE
    #: seconds a dropped lobby link may take to come back (joiner: re-dialling its host; host:
    #: keeping the seat, or waiting for the signature, of a joiner whose link dropped)
    lobby_reconnect: float = DEFAULT_LOBBY_RECONNECT
    #: websocket heartbeat (seconds): a link silent this long is dropped, then re-dialled
    heartbeat: float = DEFAULT_HEARTBEAT
    say: Say = field(default=_quiet)
    #: the peer application layer the front ends listen to, if any
    hub: Hub | None = None
    #: a second hub fed with the public view only (a spectators' page), if any
    spectators: Hub | None = None
    #: this player is ready to start when it sits down (a page that shows a Ready button: False)
    ready: bool = True
    #: this seat is played by a bot (always ready; shown as a bot in the lobby)
    bot: bool = False
    #: tests and benchmarks only: identity, game seed, deck randomness and (host) the charter
    #: nonce derive from it, for a repeatable deal (`p2ptarot demo --seed`)
    test_seed: int | None = None
    #: how this peer reaches the others (None: the LAN transport on `interface`/`port`)
    transport: Transport | None = None
    #: the lobby's and the game pump's time (tests may pass their own)
    clock: Clock = field(default_factory=Clock)

    def links(self) -> Transport:
        """The transport to play over."""
        if self.transport is not None:
            return self.transport
        return LanTransport(self.interface, self.port, self.heartbeat)


@dataclass
class GameResult:
    table_id: bytes
    transcript: Path
    outcome: Outcome | None
    aborted: Aborted | None
