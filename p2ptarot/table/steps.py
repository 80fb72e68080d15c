"""The steps of the lockstep log: their kinds, what one step expects, and the typed pending work
that produces the next steps once the deck is idle (PROTOCOL §5)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from p2ptarot.engine import Move, Turn

from .envelope import Envelope
from .rounds import BlindRound, DrawRound


class StepKind(StrEnum):
    """The kind of a step, which is also the `kind` of every message it completes with."""

    DECK_KEY = "mental.key"
    DECK_SHUFFLE = "mental.shuffle"
    DECK_SHARES = "mental.shares"
    DECK_REENCRYPT = "mental.reencrypt"
    DECK_REVEAL_KEY = "mental.reveal-key"
    MOVE = "move"
    MOVE_COMMIT = "move.commit"
    MOVE_OPEN = "move.open"
    COIN_COMMIT = "coin.commit"
    COIN_OPEN = "coin.open"
    RESULT = "result"

    @property
    def is_deck(self) -> bool:
        return self.value.startswith("mental.")


#: the deck-protocol step kinds (the mental-poker layer makes and checks their bodies)
MENTAL_KINDS = tuple(k for k in StepKind if k.is_deck)
#: step kinds in which the local seat chooses a move (`NeedMove`, then `act`)
MOVE_STEP_KINDS = (StepKind.MOVE, StepKind.MOVE_COMMIT)


@dataclass(frozen=True, slots=True)
class StepSpec:
    """Who must speak in the current step, and what kind of message they send."""

    kind: StepKind
    seats: tuple[int, ...]
    label: str
    deck_op: tuple[str, int, int] | None = None  # (deck, epoch, op) of a deck-protocol step
    turn: Turn | None = None  # the engine turn a `move` step answers


# ---- pending work: typed steps, run in order once the deck is idle ------------------------------
@dataclass(frozen=True, slots=True)
class ResolveChance:
    """The deck carried out the engine's shuffle: tell the engine."""


@dataclass(frozen=True, slots=True)
class ResolveReveals:
    """The deck carried out the engine's reveals: feed the values learnt, then tell the engine."""


@dataclass(frozen=True, slots=True)
class FinishAudit:
    """The audit of one deck epoch is in: feed the engine every value it did not know."""

    deck: str
    epoch: int


@dataclass(frozen=True, slots=True)
class SyncKnown:
    """A move's reveal shares are in: feed the engine the values now known."""


@dataclass(frozen=True, slots=True)
class ApplyMove:
    """A received move, applied in its step's seat order. `opened`: the cards it opens were
    revealed already. `origin`: the step where the move was signed first (its commitment step in
    a blind turn)."""

    seat: int
    move: Move
    env: Envelope
    turn: Turn
    origin: int
    opened: bool = False
    digest: bytes | None = None  # a `Commit`'s commitment
    salt: bytes | None = None  # an `Open`'s salt


@dataclass(frozen=True, slots=True)
class SignResult:
    """The game is over and every epoch audited: every seat signs the outcome."""


Pending = (ResolveChance | ResolveReveals | FinishAudit | SyncKnown | ApplyMove | DrawRound
           | BlindRound | SignResult)
