"""arcanoïd, DRESDEN and the §8 variants (spec/games/arcanoid.md): a pure
rules engine.

Importing this package registers the game with the engine registry.
"""

from p2ptarot.cards.arcanoid_tables import DECK
from p2ptarot.engine import GameInfo, register

from .rules import DRESDEN, OPTIONS
from .state import ArcanoidState
from .variants import SUMMARIES_FR, catalogue, combination_info


register(GameInfo(name="arcanoid", title="Arcanoïd", min_players=2, max_players=10,
                  variants=catalogue(), default_variant=DRESDEN.name, decks=(DECK,),
                  state=ArcanoidState, options=OPTIONS,
                  combine=combination_info,
                  summaries={"fr": SUMMARIES_FR}))
