"""What its driver (the peer's game pump) hands a `Session` besides bytes: the local seat's choice of move.

`Session.act(move, by=...)` takes a plain engine `Move` (the player chose it) or the `move` of a
`StandInMove` with `by="bot"` (the seat's stand-in bot chose it while its player was away)."""

from __future__ import annotations

from dataclasses import dataclass

from p2ptarot.engine import Move


@dataclass(frozen=True, slots=True)
class StandInMove:
    """A chooser's answer to `NeedMove` made by the seat's stand-in bot, not its player: the
    game pump passes it to `Session.act(move, by="bot")`, which marks the move's body."""

    move: Move
