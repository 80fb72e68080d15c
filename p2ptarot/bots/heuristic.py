"""A bot that plays each game by its strategy module, found by convention
(`p2ptarot/bots/<game package>.py` with `choose(view, seat, legal, rng) -> Move`), over its own
seat's view; random play otherwise."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from p2ptarot.engine import UnknownGame, layer_module
from p2ptarot.engine.types import Move

from .random_bot import RandomBot

Strategy = Callable[[Mapping[str, Any], int, Sequence[Move], random.Random], Move]


@lru_cache(maxsize=None)
def strategy(game: str) -> Strategy | None:
    """The strategy of `game` (the view's "game" field), or None."""
    try:
        module = layer_module(game, "bots")
    except UnknownGame:
        return None
    return getattr(module, "choose", None) if module is not None else None


class HeuristicBot(RandomBot):
    """Reads only the seat's JSON view and the legal moves (never the omniscient state); plays
    like `RandomBot` where the game registers no strategy."""

    uses_view = True

    def choose(self, seat: int, view: Mapping[str, Any] | None, legal: Sequence[Move]) -> Move:
        chosen = strategy(str(view.get("game", ""))) if view else None
        if chosen is None or len(legal) == 1:
            return super().choose(seat, view, legal)
        return chosen(view, seat, legal, self.rng)  # type: ignore[arg-type]  # each game's strategy takes its own view shape, not the generic Mapping
