"""Le jeu des trois roses: trick-taking for 3–5 players on the Tarot des Roses
(spec/games/roses.md, rules §2)."""

from __future__ import annotations

from p2ptarot.engine.registry import GameInfo, register
from p2ptarot.cards.roses_tables import DECK

from .rules import CATALOGUE, TROIS_ROSES
from .state import TroisRosesState

register(GameInfo(name="trois-roses", title="Le jeu des trois roses", min_players=3, max_players=5,
                  variants=CATALOGUE, default_variant=TROIS_ROSES.name, decks=(DECK,),
                  state=TroisRosesState,
                  summaries={"fr": {"standard": "une partie d'une donne par joueur comme donneur (TR3)",
                                    "single-deal": "une seule donne comptée (TR3)"}}))
