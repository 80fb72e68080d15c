"""Sinople tarot: 9 rounds of trick play, each scoring one figure (spec/games/sinople.md)."""

from __future__ import annotations

from p2ptarot.engine.registry import GameInfo, register

from .state import SinopleState
from .rules import FIGURE_DECK, NUMERIC_DECK

register(GameInfo(name="sinople", title="Sinople tarot", min_players=2, max_players=5,
                  decks=(FIGURE_DECK, NUMERIC_DECK), state=SinopleState))
