"""The baseline player: a uniformly random legal move."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from p2ptarot.engine.types import Move


class RandomBot:
    """Picks uniformly among the legal moves; never reads the view (so the driver skips it)."""

    uses_view = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, seat: int, view: Mapping[str, Any] | None, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return legal[self.rng.randrange(len(legal))]
