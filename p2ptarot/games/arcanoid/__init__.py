"""arcanoïd, DRESDEN rules (rules/arcanoid.md; spec/games/arcanoid.md): a pure rules engine.

Importing this package registers the game with the engine registry.
"""

from p2ptarot.engine import GameInfo, register

from .state import ArcanoidState, factory

register(GameInfo(name="arcanoid", title="Arcanoïd", min_players=2, max_players=10,
                  variants=("DRESDEN",), default_variant="DRESDEN", decks=("tarot-78/arcanoid",),
                  factory=factory))

__all__ = ["ArcanoidState", "factory"]
