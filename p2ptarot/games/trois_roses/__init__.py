"""Le jeu des trois roses: trick-taking for 3–5 players on the Tarot des Roses
(spec/games/roses.md, rules §2)."""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine.registry import GameInfo, VariantInfo, register
from p2ptarot.games.roses_common.tables import DECK

from .moves import MOVES, Play
from .rules import SINGLE_DEAL, TROIS_ROSES
from .state import TroisRosesState


def _factory(players: int, variant: str | None, options: Mapping[str, Any], viewer: int | None,
             omniscient: bool) -> TroisRosesState:
    return TroisRosesState(players, variant, options, omniscient=omniscient, viewer=viewer)


register(GameInfo(
    name="trois-roses", title="Le jeu des trois roses", min_players=3, max_players=5,
    variants=(VariantInfo(TROIS_ROSES.name, summary="a match of one deal per player as dealer (TR3)"),
              VariantInfo(SINGLE_DEAL.name, parent=TROIS_ROSES.name, summary="one scored deal (TR3)")),
    default_variant=TROIS_ROSES.name, decks=(DECK,), factory=_factory,
    presenter="p2ptarot.present.trois_roses", bots="p2ptarot.bots.trois_roses"))

__all__ = ["MOVES", "Play", "TroisRosesState"]
