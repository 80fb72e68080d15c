"""Les paris divins: simultaneous card-and-bet rounds for 2–12 players on the Tarot des Roses
(spec/games/roses.md, rules §3)."""

from __future__ import annotations

from p2ptarot.engine.registry import GameInfo, register
from p2ptarot.cards.roses_tables import DECK

from .rules import CATALOGUE, PARIS_DIVINS
from .state import ParisDivinsState

register(GameInfo(name="paris-divins", title="Les paris divins", min_players=2, max_players=12,
                  variants=CATALOGUE, default_variant=PARIS_DIVINS.name, decks=(DECK,),
                  state=ParisDivinsState,
                  summaries={"fr": {"standard": "8 cartes, 6 jetons, mises 1/2/3 (règles §3)"}}))
