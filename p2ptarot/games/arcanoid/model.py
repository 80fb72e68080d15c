"""Mutable round bookkeeping (rules §2): participants, table arcana, and the decision contexts.

Participants are players (pid = seat) and demons (pid >= N, controlled by their master's seat).
Every card slot is a handle; zones are lists of handles. The draw pile's top is index 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .battle import Record


@dataclass
class Participant:
    pid: int
    seat: int  # the real seat that decides its moves (a demon's master)
    demon: bool = False
    usa: bool = False  # GAZA: the automatic participant (seat NOBODY, hand hidden from all)
    hand: list[int] = field(default_factory=list)
    visible: list[int] = field(default_factory=list)  # Strength visible slots
    hand_cap: int = 6
    vis_cap: int = 0
    reserve: list[int] = field(default_factory=list)
    chariot: int = -1
    records: dict[str, Record] = field(default_factory=dict)
    finished: bool = False
    devil: int = -1  # demon: the Devil card on the table while it is in the round
    strength_bonus: int = 0  # demon: +1/+2 from its Strength (moves to the Justice, A45)
    # demon first-turn rule (§6.15, A48): ready once `ready_pred` took a normal turn
    ready: bool = True
    ready_pred: int = -1
    ready_mark: int = 0
    ready_global: int = 0

    @property
    def in_round(self) -> bool:
        return not self.finished


@dataclass
class HermitState:
    """An active Hermit (§6.9, `[0-8-9]`): `used` Hermit moves taken, `pledges` the gaps
    (named by the participant whose turn follows them) where a pledged move is due."""

    owner: int
    handle: int
    moves: int = 3  # Rules.hermit_moves
    used: int = 0
    pledges: list[int] = field(default_factory=list)

    @property
    def free(self) -> int:
        return self.moves - self.used - len(self.pledges)


@dataclass
class TemperanceState:
    owner: int
    field: str
    handle: int


@dataclass
class Ctx:
    """What the pending decision is about; `legal_moves` and move checks dispatch on `name`."""

    name: str
    actor: int = -1  # participant deciding (turn, wheel, call-again, hermit offer)
    data: dict[str, Any] = field(default_factory=dict)
    answers: dict[int, Any] = field(default_factory=dict)  # multi-seat windows: seat -> move
