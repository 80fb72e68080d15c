"""Mental-poker deck protocol (Barnett–Smart over ristretto255), sans-I/O.

`MentalTable` (one per seat) runs every deck epoch of a table: joint key generation with proofs
of knowledge, a verified shuffle by every seat, dealing/revealing/showing/giving handles through
proven decryption shares and re-encryptions, reshuffles of piles, and the end-of-epoch audit (a public opening, by proven shares, of
exactly the handles the game's rules need: no key is ever published).
"""

from .epoch import DeckEpoch, card_point
from .errors import MentalError, MentalUsageError, MentalViolation, MessageDecodeError
from .events import CardLearned, Event, Expectation, OperationCompleted, Transfer
from .messages import (KeyMessage, MentalMessage, ReencryptionItem,
                       ReencryptionMessage, ShareItem, ShareMessage, ShuffleMessage,
                       message_from_dict)
from .randomness import RandomSource, SeededRandomSource, SystemRandomSource
from .table import MentalTable

__all__ = [
    "CardLearned", "DeckEpoch", "Event", "Expectation", "KeyMessage",
    "MentalError", "MentalMessage", "MentalTable", "MentalUsageError", "MentalViolation",
    "MessageDecodeError", "OperationCompleted", "RandomSource", "ReencryptionItem",
    "ReencryptionMessage", "SeededRandomSource", "ShareItem", "ShareMessage", "ShuffleMessage",
    "SystemRandomSource", "Transfer", "card_point", "message_from_dict",
]
