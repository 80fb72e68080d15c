"""The engine contract shared by every game (see spec/ENGINE.md).

Games subclass `GameState`; everything else (table protocol, bots, simulator, verifier) talks to
a game only through this contract.
"""

from .errors import BadConfiguration, EngineError, IllegalMove, NotYourTurn, UnknownGame
from .local import Agent, Dealer, RandomDealer, StackedDealer, play
from .registry import GameInfo, create, games, info, register
from .state import GameState
from .types import (NOBODY, PUBLIC, Claim, Move, Outcome, Pass, RandomChoice, Reveal, Shuffle,
                    Turn, TurnKind, move_from_json)

__all__ = [
    "Agent", "BadConfiguration", "Claim", "Dealer", "EngineError", "GameInfo", "GameState",
    "IllegalMove", "Move", "NOBODY", "NotYourTurn", "Outcome", "PUBLIC", "Pass", "RandomChoice",
    "RandomDealer", "Reveal", "Shuffle", "StackedDealer", "Turn", "TurnKind", "UnknownGame",
    "create", "games", "info", "move_from_json", "play", "register",
]
