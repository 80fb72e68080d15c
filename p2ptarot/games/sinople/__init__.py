"""Sinople tarot: 9 rounds of trick play, each scoring one figure (spec/games/sinople.md)."""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine.registry import GameInfo, register

from .moves import MOVES, Play, Show
from .state import SinopleState
from .tables import FIGURE_DECK, NUMERIC_DECK


def _factory(players: int, variant: str | None, options: Mapping[str, Any], viewer: int | None,
             omniscient: bool) -> SinopleState:
    return SinopleState(players, variant, options, omniscient=omniscient, viewer=viewer)


register(GameInfo(name="sinople", title="Sinople tarot", min_players=2, max_players=5,
                  decks=(FIGURE_DECK, NUMERIC_DECK), factory=_factory,
                  presenter="p2ptarot.present.sinople", bots="p2ptarot.bots.sinople"))

__all__ = ["MOVES", "Play", "Show", "SinopleState"]
