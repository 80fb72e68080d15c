"""The Eleusis move vocabulary (spec/games/eleusis.md §3).

Cards that a move makes public ride along with their handles so the table protocol can check the
reveals before the engine sees the move. Verdicts are words ("right"/"wrong", "yes"/"no") so that
moves parse strictly (no bools in the wire format).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from p2ptarot.engine.types import Commit, Move, Open, Pass
from p2ptarot.i18n.message import tr

RIGHT, WRONG = "right", "wrong"
YES, NO = "yes", "no"
#: the words above as a player reads them in an event or a verdict's reason (English: the same)
SAID = {RIGHT: tr("right"), WRONG: tr("wrong"), YES: tr("yes"), NO: tr("no")}


@dataclass(frozen=True, slots=True)
class Hint(Move):
    """The dealer's hints, before the deal: structured hints (checked when the rule opens) and
    free text (table talk). Empty when he gives none."""

    KIND: ClassVar[str] = "hint"
    hints: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Play(Move):
    """A single card (one handle) or a run of 2…4, face up in the given order (§4.4)."""

    KIND: ClassVar[str] = "play"
    handles: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoPlay(Move):
    """"No play": the player shows his whole hand and claims no card of it is correct (§4.8)."""

    KIND: ClassVar[str] = "no-play"
    handles: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Judge(Move):
    """The dealer's "right"/"wrong" on the play waiting for judgment, with no Sage (§4.5, §4.8)."""

    KIND: ClassVar[str] = "judge"
    verdict: str


@dataclass(frozen=True, slots=True)
class Call(Move):
    """The Sage's "right"/"wrong" on another player's play or "no play" (§4.10, §4.11)."""

    KIND: ClassVar[str] = "call"
    verdict: str


@dataclass(frozen=True, slots=True)
class Answer(Move):
    """The dealer's "yes"/"no" to the Sage's call or to the Sage's pick (R15, R16)."""

    KIND: ClassVar[str] = "answer"
    answer: str


@dataclass(frozen=True, slots=True)
class Pick(Move):
    """A card of a shown "no play" hand named as correct: by the dealer (it goes to the main line)
    or by the Sage in case 4 of §4.11 (a proposal the dealer answers)."""

    KIND: ClassVar[str] = "pick"
    handle: int
    card: str


@dataclass(frozen=True, slots=True)
class DeclareSage(Move):
    """Right after his own play is resolved, a player declares himself Sage (§4.9)."""

    KIND: ClassVar[str] = "sage"


MOVES: dict[str, type[Move]] = {cls.KIND: cls for cls in (
    Commit, Open, Hint, Play, NoPlay, Judge, Call, Answer, Pick, DeclareSage, Pass)}
