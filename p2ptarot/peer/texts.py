"""What the game pump tells its player, composed apart from the pump: the sentences of a game's
end, a fault found in play and a long wait, through the catalogue (English and French); a cheater's
text is quoted printable only."""

from __future__ import annotations

from collections.abc import Sequence

from p2ptarot.i18n import _
from p2ptarot.i18n.message import render
from p2ptarot.table.effects import Aborted, Finished, Found
from p2ptarot.table.names import printable


def game_over(names: Sequence[str], e: Finished) -> str:
    scores = ", ".join(f"{names[i]} {score}" for i, score in enumerate(e.outcome.scores))
    won = ", ".join(names[w] for w in e.outcome.winners) or _("nobody")
    return _("game over: {scores}; won by {winners}").format(scores=scores, winners=won)


def at_fault(names: Sequence[str], e: Found) -> str:
    """A fault the rules punish in play (Eleusis void round)."""
    return _("{name} (seat {n}) is at fault: {reason}; play goes on").format(
        name=names[e.blame], n=e.blame + 1, reason=printable(render(e.reason)))


def aborted(names: Sequence[str], e: Aborted) -> str:
    who = (_("{name} (seat {n}) is blamed").format(name=names[e.blame], n=e.blame + 1)
           if e.blame is not None else _("nobody is blamed"))
    return _("game aborted at step {step}: {who}: {reason}").format(
        step=e.step, who=who, reason=printable(render(e.reason)))  # may quote a cheater's text


def waiting_for(names: Sequence[str], left: float) -> str:
    """A finished seat's long wait for others' `done`: whom for, and that the player may go."""
    return _("the game is over and its transcript is saved; waiting up to {seconds} s "
             "for {names} to confirm they have the end (you may leave now)").format(
                 seconds=f"{left:.0f}", names=", ".join(printable(n, 40) for n in names))


def resuming(saved: int) -> str:
    return _("resuming from {n} saved messages").format(n=saved)
