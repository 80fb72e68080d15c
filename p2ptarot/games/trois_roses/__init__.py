"""Le jeu des trois roses: trick-taking for 3–5 players on the Tarot des Roses (roses.md §2)."""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine.registry import GameInfo, register
from p2ptarot.games.roses_common.tables import DECK

from .moves import MOVES, Play
from .rules import TROIS_ROSES, VARIANTS
from .state import TroisRosesState


def _factory(players: int, variant: str | None, options: Mapping[str, Any], viewer: int | None,
             omniscient: bool) -> TroisRosesState:
    return TroisRosesState(players, variant, options, omniscient=omniscient, viewer=viewer)


register(GameInfo(name="trois-roses", title="Le jeu des trois roses (Tarot des Roses)", min_players=3,
                  max_players=5, variants=tuple(VARIANTS), default_variant=TROIS_ROSES.name,
                  decks=(DECK,), factory=_factory))

__all__ = ["MOVES", "Play", "TroisRosesState"]
