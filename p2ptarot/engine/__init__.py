"""The engine contract shared by every game (see spec/ENGINE.md).

Games subclass `GameState`; everything else (table protocol, bots, simulator, verifier) talks to
a game only through this contract.
"""

from .errors import BadConfiguration, EngineError, IllegalMove, NotYourTurn, UnknownGame
from .local import Agent, Dealer, RandomDealer, StackedDealer, play
from .registry import (PLANNED, PLAYABLE, GameInfo, Option, VariantInfo, all_players, create,
                       games, info, last_seat, layer_module, register)
from .state import GameState
from .types import (NOBODY, PUBLIC, Claim, Commit, Finding, Move, Open, Outcome, Pass,
                    RandomChoice, Reveal, Secret, Shuffle, Turn, TurnKind, move_from_json)

__all__ = [
    "Agent", "BadConfiguration", "Claim", "Commit", "Dealer", "EngineError", "Finding",
    "GameInfo", "GameState", "IllegalMove", "Move", "NOBODY", "NotYourTurn", "Open", "Option", "Outcome",
    "PLANNED", "PLAYABLE", "PUBLIC", "Pass", "RandomChoice", "RandomDealer", "Reveal", "Secret", "Shuffle",
    "StackedDealer", "Turn", "TurnKind", "UnknownGame", "VariantInfo", "all_players", "create", "games", "info",
    "last_seat", "layer_module", "move_from_json", "play", "register",
]
