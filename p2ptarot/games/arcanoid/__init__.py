"""arcanoïd, DRESDEN and the §8 variants (spec/games/arcanoid.md): a pure
rules engine.

Importing this package registers the game with the engine registry.
"""

from p2ptarot.cards.arcanoid_tables import DECK
from p2ptarot.engine import GameInfo, register

from .rules import DRESDEN, OPTIONS
from .state import ArcanoidState
from .variants import GAZA, GAZA_DEFAULT_BASE, LISTED_COMBINATIONS, catalogue, combination_info

#: the variants' summaries in French, data beside the English ones (spec/APP.md, "Languages")
_FR = {"DRESDEN": "les règles de base (§1-§7)",
       "NASSAU": "personne ne s'engage sur un champ tempéré ; retirer la Tempérance",
       "KOBLENZ": "un engagement secret (face cachée) par manche",
       "MAINZ": "as simples ; le Chariot ajoute autant de cartes qu'on veut ; pas de couples E7b",
       "MALTA": "le Bateleur rend un engagement secret",
       "WORMS": "un as seul peut être renforcé une fois"}


def _gaza_fr(name: str) -> str:
    """'MALTA plus 1 participant USA automatique', as `variants.combined` words it in English."""
    parts = name.split("+")
    k = parts.count(GAZA)
    base = next((p for p in parts if p != GAZA), GAZA_DEFAULT_BASE)
    return f"{base} plus {k} participant{'s' * (k > 1)} USA automatique{'s' * (k > 1)}"



register(GameInfo(name="arcanoid", title="Arcanoïd", min_players=2, max_players=10,
                  variants=catalogue(), default_variant=DRESDEN.name, decks=(DECK,),
                  state=ArcanoidState, options=OPTIONS,
                  combine=combination_info,
                  summaries={"fr": _FR | {n: _gaza_fr(n) for n in LISTED_COMBINATIONS}}))
