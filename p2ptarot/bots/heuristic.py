"""A bot that plays each game by a per-game heuristic over its own seat's view."""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from p2ptarot.engine.types import Move

from . import arcanoid, arcanum, sinople

Strategy = Callable[[Mapping[str, Any], int, Sequence[Move], random.Random], Move]
#: game name (the view's "game" field) -> strategy; games without one fall back to random play
STRATEGIES: dict[str, Strategy] = {"sinople": sinople.choose, "arcanoid": arcanoid.choose,
                                   "arcanum": arcanum.choose}


class HeuristicBot:
    """Reads only the seat's JSON view and the legal moves (never the omniscient state)."""

    uses_view = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, seat: int, view: Mapping[str, Any] | None, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        strategy = STRATEGIES.get(view.get("game", "")) if view else None
        if strategy is None:
            return legal[self.rng.randrange(len(legal))]
        return strategy(view, seat, legal, self.rng)  # type: ignore[arg-type]
