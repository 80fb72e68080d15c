"""Bot players. They implement `p2ptarot.engine.Agent`: they see their seat's view and legal moves
only, never the omniscient state, so the same bot can sit at a networked table.
"""

from __future__ import annotations

import random
from typing import Callable

from p2ptarot.engine.local import Agent

from .heuristic import HeuristicBot
from .random_bot import RandomBot
from p2ptarot.i18n.message import tr

BOTS: dict[str, Callable[[random.Random], Agent]] = {"random": RandomBot, "heuristic": HeuristicBot}


class UnknownBot(ValueError):
    """No bot of that name."""


def make(name: str, seed: int | str) -> Agent:
    """A bot by name ("random", "heuristic") with its own generator seeded by `seed`."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise UnknownBot(tr("unknown bot {name} (known: {known})",
                            name=repr(name), known=', '.join(sorted(BOTS)))) from None
    return cls(random.Random(seed))


__all__ = ["BOTS", "HeuristicBot", "RandomBot", "UnknownBot", "make"]
