"""The time policy of a person's seat (sans-I/O: every function takes `now`, none reads a clock).

Thinking is never punished: a connected player keeps the seat however long a move takes. The
stand-in bot takes the seat only when its player has *left* (no page open, the terminal's input
gone) for the table's grace (the charter's `stand_in_after`), or when the player hands it over.
A connected player who runs out of the move time (the charter's `timeout`) is warned 60 s and
15 s before, and then the table follows the charter's rule, told to everyone before the game:
  * a table with a stand-in (`stand_in_after` > 0): the seat's own bot plays *that one move* a
    few seconds before the deadline (so it reaches every peer in time) and the player keeps the
    seat for the next turn;
  * a table without one (`stand_in_after` = 0): at the deadline the table is abandoned, blaming
    nobody, as for any silent seat (PROTOCOL §8: silence never convicts).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2ptarot.i18n import _

#: seconds a seat may think over one move, unless the host says otherwise: the slowest of the six
#: games (writing an Eleusis rule, planning an Arcanum turn) needs minutes, not seconds
DEFAULT_MOVE_TIMEOUT = 600
#: seconds left on the move clock when the player is warned (both front ends)
WARN_AT = (60, 15)
#: seconds before the deadline at which the stand-in plays a connected player's overdue move
#: (the others give the table up at the deadline: this move reaches them first)
LAST_MOMENT = 5.0


@dataclass(frozen=True)
class Step:
    """What the chooser does next: `kind` is 'warn' (with `left`, the seconds announced),
    'away' (the player left: the bot takes the seat), 'overdue' (the bot plays this one move) or
    'wait' (nothing until `at`, None = until a command)."""

    kind: str
    at: float | None = None
    left: int = 0


def next_step(now: float, deadline: float | None, away_since: float | None, grace: float,
              warned: frozenset[int], stand_in: bool = True) -> Step:
    """The next thing the clock asks of an open turn. `grace` is the table's stand-in grace
    (0: the bot never comes by itself); `stand_in` says whether this seat has a bot at all;
    `warned` holds the marks of WARN_AT already announced for this turn."""
    times: list[Step] = []
    if stand_in and grace > 0 and away_since is not None:
        times.append(Step("away", away_since + grace))
    if deadline is not None:
        for mark in WARN_AT:
            if mark not in warned and deadline - now > 1:
                times.append(Step("warn", deadline - mark, mark))
        if stand_in and grace > 0:
            times.append(Step("overdue", deadline - LAST_MOMENT))
    due = [s for s in times if s.at is not None and s.at <= now]
    if due:
        # a warning whose time passed long ago is still told with the time really left
        first = min(due, key=lambda s: (s.kind == "warn", s.at))
        if first.kind == "warn" and deadline is not None:
            left = [m for m in WARN_AT if m not in warned and deadline - now <= m]
            return Step("warn", first.at, min(left) if left else first.left)
        return first
    later = [s.at for s in times if s.at is not None]
    return Step("wait", min(later) if later else None)


def warning_text(left: int, grace: float, stand_in: bool = True) -> str:
    """'1 min left for your move: then a bot plays this one move for you (you keep your seat)'."""
    when = _("1 min") if left == 60 else _("{n} s").format(n=left)
    if stand_in and grace > 0:
        then = _("then a bot plays this one move for you (you keep your seat)")
    else:
        then = _("then the table is abandoned (nobody is blamed) and the game ends")
    return _("{time} left for your move: {then}").format(time=when, then=then)


def rule_text(move_timeout: int, grace: int) -> str:
    """The charter's time rule, told to every player when the table opens."""
    limit = _("{n} min").format(n=move_timeout // 60) + (
        " " + _("{n} s").format(n=move_timeout % 60) if move_timeout % 60 else "")
    if grace:
        return _("a move may take up to {limit}; you are warned 1 min and 15 s before; then a bot "
                 "plays that one move for you and you keep your seat. If you leave (page closed, "
                 "program stopped) a bot plays for you after {grace} s until you come back").format(
                     limit=limit, grace=grace)
    return _("a move may take up to {limit}; you are warned 1 min and 15 s before; then the "
             "table is abandoned (nobody is blamed). No bot plays for anyone who leaves").format(
                 limit=limit)


def countdown(seconds: float) -> str:
    """'4:59' (minutes and seconds, never negative)."""
    left = max(0, int(seconds))
    return f"{left // 60}:{left % 60:02d}"


__all__ = ["DEFAULT_MOVE_TIMEOUT", "LAST_MOMENT", "Step", "WARN_AT", "countdown", "next_step",
           "rule_text", "warning_text"]
