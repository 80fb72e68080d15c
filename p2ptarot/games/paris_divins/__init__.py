"""Les paris divins: simultaneous card-and-bet rounds for 2–12 players on the Tarot des Roses
(spec/games/roses.md, rules §3)."""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.engine.registry import GameInfo, VariantInfo, register
from p2ptarot.games.roses_common.tables import DECK

from .moves import BETS, MOVES, Wager
from .rules import PARIS_DIVINS
from .state import ParisDivinsState


def _factory(players: int, variant: str | None, options: Mapping[str, Any], viewer: int | None,
             omniscient: bool) -> ParisDivinsState:
    return ParisDivinsState(players, variant, options, omniscient=omniscient, viewer=viewer)


register(GameInfo(
    name="paris-divins", title="Les paris divins", min_players=2, max_players=12,
    variants=(VariantInfo(PARIS_DIVINS.name, summary="8 cards, supply 6, stakes 1/2/3 (rules §3)"),),
    default_variant=PARIS_DIVINS.name, decks=(DECK,), factory=_factory,
    presenter="p2ptarot.present.paris_divins", bots="p2ptarot.bots.paris_divins"))

__all__ = ["BETS", "MOVES", "ParisDivinsState", "Wager"]
