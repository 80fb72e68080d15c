"""The Arcanum move vocabulary (spec/games/arcanum.md §Moves).

Cards are named by handle. A card a move turns face up travels with its value (`card` / `cards`,
same order as the handles) so the table can check the reveal; a card that stays face down (a hide,
a Wheel gift) travels as a bare handle. Figures are pawn ids (`fig-cups-queen`), locations 1–10,
Houses their ids. `figure=""`/`dest=0` mean "no move" (R13).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from p2ptarot.engine import Move, Pass


@dataclass(frozen=True, slots=True)
class PlayMinor(Move):
    """§6.1: the minor, face up, with its step-b move (or none when no move is possible)."""
    KIND: ClassVar[str] = "play-minor"
    handle: int
    card: str
    figure: str
    dest: int


@dataclass(frozen=True, slots=True)
class PlayMajor(Move):
    """§8: one major, face up; its choices are asked afterwards as separate decisions."""
    KIND: ClassVar[str] = "play-major"
    handle: int
    card: str


@dataclass(frozen=True, slots=True)
class Choose(Move):
    """A public choice among named options (draw 3 minors / 1 major, Artisan, Cathedral, Harbour,
    the Fool's mode, a forced-draw declaration under wheelHidesKind)."""
    KIND: ClassVar[str] = "choose"
    option: str


@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Cards from hand face up to their discard piles (hand limit, Castle, Chariot, Judgement,
    Market, Death)."""
    KIND: ClassVar[str] = "discard"
    handles: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hide(Move):
    """Minors from hand into the hidden area, face down (an empty tuple declines an optional hide)."""
    KIND: ClassVar[str] = "hide"
    handles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Relocate(Move):
    """§6.6 move-and-activate (Fool, Empress, Temperance)."""
    KIND: ClassVar[str] = "relocate"
    figure: str
    dest: int


@dataclass(frozen=True, slots=True)
class House(Move):
    """One House gains prestige (Emperor +3, Chariot +2, Strength +3); the Fool's declared suit."""
    KIND: ClassVar[str] = "house"
    house: str


@dataclass(frozen=True, slots=True)
class Empress(Move):
    """III: `up` gains 1 prestige, then a different `down` loses 1."""
    KIND: ClassVar[str] = "empress"
    up: str
    down: str


@dataclass(frozen=True, slots=True)
class Fields(Move):
    """Location 6: each House +1, −1 or 0, in canonical house order."""
    KIND: ClassVar[str] = "fields"
    changes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Give(Move):
    """X: two cards (all if fewer) to the player on the left, face down."""
    KIND: ClassVar[str] = "give"
    handles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Expose(Move):
    """XIX: hidden cards turned face up (exactly min(3, face-down count))."""
    KIND: ClassVar[str] = "expose"
    handles: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Swap(Move):
    """XIV: up to two swaps; `give[i]` leaves the hand for the hidden area, `take[i]` comes back.
    `cards[i]` is "" for a minor (stays face down) or the card id of a major (the Fool), opened."""
    KIND: ClassVar[str] = "swap"
    give: tuple[int, ...]
    take: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tower(Move):
    """XVI: one location, or two forming a pair of the board's `towerPairs`."""
    KIND: ClassVar[str] = "tower"
    locations: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Remove(Move):
    """XX: one figure held off the board (asked three times, fewer only if fewer are removable)."""
    KIND: ClassVar[str] = "remove"
    figure: str


@dataclass(frozen=True, slots=True)
class Return(Move):
    """XX, next upkeep: the location of the next held figure (asked once per held figure; all
    different)."""
    KIND: ClassVar[str] = "return"
    dest: int


MOVES: dict[str, type[Move]] = {m.KIND: m for m in (
    PlayMinor, PlayMajor, Choose, Discard, Hide, Relocate, House, Empress, Fields, Give, Expose,
    Swap, Tower, Remove, Return, Pass)}
