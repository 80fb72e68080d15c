"""The arcanoïd move vocabulary (spec/games/arcanoid.md §Moves).

Cards are named by handle. A card that a move turns face up travels with its value (`card` /
`cards`, same order as the handles) so the table protocol can check the reveal against it; a card
that stays face down (a discard, the Wheel's discards) travels as a bare handle.
Participants are named by participant id (`pid`): seats 0..N-1 are the players, demons get
N, N+1, …; a demon's moves are sent by its master's seat. `-1` means "none" (or the Justice, for
the Hanged Man's target).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from p2ptarot.engine import Move, Pass

NONE = -1
JUSTICE_TARGET = -1


# ---- normal-turn moves (§3) -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Discard(Move):
    """3.1: one available card, face down."""
    KIND: ClassVar[str] = "discard"
    handle: int


@dataclass(frozen=True, slots=True)
class Abdicate(Move):
    """E1: a zero-card record on `field`."""
    KIND: ClassVar[str] = "abdicate"
    field: str


@dataclass(frozen=True, slots=True)
class Engage(Move):
    """E2–E8: cards face up on one field (two fields for E6/E7b couples). `transmute` is the
    handle the Magician transmutes, or -1."""
    KIND: ClassVar[str] = "engage"
    fields: tuple[str, ...]
    handles: tuple[int, ...]
    cards: tuple[str, ...]
    transmute: int = NONE


@dataclass(frozen=True, slots=True)
class ChariotEngage(Move):
    """C4: the whole reserve plus `handles` from A(p) as one engagement; the Chariot is discarded."""
    KIND: ClassVar[str] = "chariot-engage"
    fields: tuple[str, ...]
    handles: tuple[int, ...]
    cards: tuple[str, ...]
    transmute: int = NONE


@dataclass(frozen=True, slots=True)
class ChariotLoad(Move):
    """C1: the Chariot plus at least one other card, face up."""
    KIND: ClassVar[str] = "chariot-load"
    handle: int
    card: str
    handles: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChariotAdd(Move):
    """C2: one or two more cards into the reserve."""
    KIND: ClassVar[str] = "chariot-add"
    handles: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChariotDiscard(Move):
    """C3: the Chariot and its reserve to the discard pile."""
    KIND: ClassVar[str] = "chariot-discard"


@dataclass(frozen=True, slots=True)
class Play(Move):
    """An arcanum with no parameter: Justice, Hermit, Wheel, Death, Devil."""
    KIND: ClassVar[str] = "play"
    handle: int
    card: str


@dataclass(frozen=True, slots=True)
class Priestess(Move):
    """High Priestess: look at `target`'s hidden hand."""
    KIND: ClassVar[str] = "priestess"
    handle: int
    card: str
    target: int


@dataclass(frozen=True, slots=True)
class Pope(Move):
    """Pope: `category` is a suit, 'trumps' or 'fool'."""
    KIND: ClassVar[str] = "pope"
    handle: int
    card: str
    category: str


@dataclass(frozen=True, slots=True)
class Strength(Move):
    """Strength: `option` is 'visible' (two visible cards) or 'hidden' (one hidden card)."""
    KIND: ClassVar[str] = "strength"
    handle: int
    card: str
    option: str


@dataclass(frozen=True, slots=True)
class HangedMan(Move):
    """Hanged Man on participant `target`, or on the Justice (`target` = -1)."""
    KIND: ClassVar[str] = "hanged-man"
    handle: int
    card: str
    target: int


@dataclass(frozen=True, slots=True)
class Temperance(Move):
    KIND: ClassVar[str] = "temperance"
    handle: int
    card: str
    field: str


@dataclass(frozen=True, slots=True)
class Tower(Move):
    """Tower: remove `target`'s card engagement on `field`, or nothing (`target` = -1)."""
    KIND: ClassVar[str] = "tower"
    handle: int
    card: str
    target: int
    field: str


@dataclass(frozen=True, slots=True)
class Call(Move):
    """Star, Moon or Sun: the first call, for card `called`."""
    KIND: ClassVar[str] = "call"
    handle: int
    card: str
    called: str


@dataclass(frozen=True, slots=True)
class Judgement(Move):
    """E9: `target` receives a judged abdication on `field`."""
    KIND: ClassVar[str] = "judgement"
    handle: int
    card: str
    target: int
    field: str


@dataclass(frozen=True, slots=True)
class World(Move):
    """E10: the World on a field where nothing was ever engaged."""
    KIND: ClassVar[str] = "world"
    handle: int
    card: str
    field: str


# ---- follow-up decisions inside a move --------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WheelDiscard(Move):
    """Wheel: discard `handles` face down down to capacity; `promote` newly drawn hand cards
    (values in `cards`) into the visible slots emptied by discarding visible cards `[10-11]`."""
    KIND: ClassVar[str] = "wheel-discard"
    handles: tuple[int, ...]
    promote: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CallAgain(Move):
    """Moon/Sun: another call after a failed one (Pass stops calling)."""
    KIND: ClassVar[str] = "call-again"
    called: str


# ---- out-of-turn answers ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HermitMove(Move):
    """Take a Hermit turn now (Pass declines)."""
    KIND: ClassVar[str] = "hermit-move"


@dataclass(frozen=True, slots=True)
class Fool(Move):
    """Fool window: participant `user` steals the attempt with the Fool at `handle`. A Hermit
    owner using the Justice's Fool may cut in before participant `cut` (pledge, `[0-8-9]`);
    `cut` = -1 is an ordinary acceptance."""
    KIND: ClassVar[str] = "fool"
    handle: int
    card: str
    user: int
    cut: int = NONE


@dataclass(frozen=True, slots=True)
class Show(Move):
    """Pope: every card of the called category in the hidden hand (the claim: all of them)."""
    KIND: ClassVar[str] = "show"
    handles: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Give(Move):
    """Star/Moon/Sun: hand over the called card face up (Pass = "not me", a claim)."""
    KIND: ClassVar[str] = "give"
    handle: int
    card: str


@dataclass(frozen=True, slots=True)
class Vote(Move):
    """Renewal vote: `choice` is 'yes' or 'no' (§2.7)."""
    KIND: ClassVar[str] = "vote"
    choice: str


ALL_MOVES: tuple[type[Move], ...] = (
    Discard, Abdicate, Engage, ChariotEngage, ChariotLoad, ChariotAdd, ChariotDiscard, Play,
    Priestess, Pope, Strength, HangedMan, Temperance, Tower, Call, Judgement, World, WheelDiscard,
    CallAgain, HermitMove, Fool, Show, Give, Vote, Pass)
MOVES = {m.KIND: m for m in ALL_MOVES}
