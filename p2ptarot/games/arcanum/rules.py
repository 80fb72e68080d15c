"""Rules as data (engine contract v2 §5): the components and stable ids of rules §2, the base
`STANDARD` rules and each variant derived from it.

Cards come from the shared tarot-78 Arcanum naming (`p2ptarot.cards.tarot78.ARCANUM`); rules §2 adds
what the rules need from them (kind, House, scoring value) with one dict look-up.

Table options (spec/games/arcanum.md; rules §3.1 length, R29 `starsVP`, R30 `moonDraw`, R45
`majors`, §10 `wheelHidesKind`) are fields; a variant is `dataclasses.replace(PARENT, ...)`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from p2ptarot.cards.tarot78 import ARCANUM
from p2ptarot.engine.registry import Option, VariantInfo, last_seat


# ---- rules §2: components and stable ids --------------------------------------------------

HOUSES: tuple[str, ...] = ("swords", "wands", "cups", "coins")
"""§2.1 canonical house order (used wherever a fixed order is needed; no meaning in play)."""

RANKS: tuple[str, ...] = ("knave", "knight", "queen", "king")
"""Figure types, in the order of §2.4 (court values 11–14)."""

LOCATIONS: tuple[int, ...] = tuple(range(1, 11))
LOCATION_NAMES: dict[int, str] = {
    1: "Mage Tower", 2: "Artisan District", 3: "Harbour", 4: "Throne Room", 5: "Market",
    6: "Fields", 7: "Treasure Vault", 8: "Cathedral", 9: "Ballroom", 10: "Castle"}
#: the same names in the interface's other languages, as data beside the English (spec/APP.md)
LOCATION_TITLES: dict[str, dict[int, str]] = {"fr": {
    1: "Tour du Mage", 2: "Quartier des Artisans", 3: "Port", 4: "Salle du Trône", 5: "Marché",
    6: "Champs", 7: "Salle du Trésor", 8: "Cathédrale", 9: "Salle de Bal", 10: "Château"}}

MINOR, MAJOR = "minor", "major"
FOOL = "major-0"

MINOR_CARDS: tuple[str, ...] = tuple(c.id for c in ARCANUM.by_index if c.kind == "minor")
MAJOR_CARDS: tuple[str, ...] = tuple(c.id for c in ARCANUM.by_index if c.kind != "minor")

FIGURES: tuple[str, ...] = tuple(f"fig-{h}-{r}" for h in HOUSES for r in RANKS)
"""§2.4 the sixteen pawns in canonical order."""


def kind_of(card: str) -> str:
    """'minor' or 'major' (the Fool is a major)."""
    return MINOR if ARCANUM.card(card).kind == "minor" else MAJOR


def house_of(card: str) -> str:
    """The House (suit) of a minor."""
    suit = ARCANUM.card(card).suit
    assert suit is not None, f"{card} has no suit"
    return suit


def value_of(card: str) -> int:
    """§2.2 scoring value: numerals 1–10, knave 11, knight 12, queen 13, king 14; majors 0."""
    return ARCANUM.card(card).rank


def major_number(card: str) -> int:
    """The numeral of a major (`major-13` → 13)."""
    number = ARCANUM.card(card).number
    assert number is not None
    return number


def is_court(card: str) -> bool:
    return ARCANUM.card(card).court


def figure_of_court(card: str) -> str:
    """The pawn a court card names (`cups-queen` → `fig-cups-queen`)."""
    return f"fig-{card}"


def figure_house(fig: str) -> str:
    return fig.split("-")[1]


def figure_rank(fig: str) -> str:
    return fig.split("-")[2]


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in ARCANUM.cards


ARCANUM_CARD = ARCANUM.card


# ---- rules §3: the rules object and its variants -------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    name: str = "STANDARD"
    #: §3.1 / R3: "normal" (4–5: 6 turns, 3: 8 turns), "long" (4–5: 9 turns), "short" (3: 4 turns)
    length: str = "normal"
    #: R45: "full" | "delayed" (first game) | "none"
    majors: str = "full"
    stars_vp: int = 1  # R29
    moon_draw: int = 2  # R30
    wheel_hides_kind: bool = False  # §10
    hand_limit: int = 7  # §4.5
    board: str = "project-default-1"  # §5.3: the board file's id

    def turns(self, players: int) -> int:
        """§3.1: the number of game turns."""
        if players == 3:
            return {"normal": 8, "short": 4}[self.length]
        return {"normal": 6, "long": 9}[self.length]

    def scoring_turns(self, players: int) -> tuple[int, ...]:
        """§3.1: House scoring after every third turn (every fourth with 3 players)."""
        every = 4 if players == 3 else 3
        return tuple(range(every, self.turns(players) + 1, every))


STANDARD = Rules()
FIRST_GAME = replace(STANDARD, name="FIRST-GAME", majors="delayed")
NO_MAJORS = replace(STANDARD, name="NO-MAJORS", majors="none")
ENGLISH_TEXT = replace(STANDARD, name="ENGLISH-TEXT", stars_vp=2, moon_draw=1)
HIDDEN_WHEEL = replace(STANDARD, name="HIDDEN-WHEEL", wheel_hides_kind=True)

VARIANTS: dict[str, tuple[Rules, str | None, str]] = {
    "STANDARD": (STANDARD, None, "the project's rulings (spec/games/arcanum.md, rules R1–R48)"),
    "FIRST-GAME": (FIRST_GAME, "STANDARD", "R45: no major at turn 1; one dealt at turn 3"),
    "NO-MAJORS": (NO_MAJORS, "STANDARD", "R45: the majors stay out of the game"),
    "ENGLISH-TEXT": (ENGLISH_TEXT, "STANDARD", "the English text: Stars +2 VP, Moon draws 1"),
    "HIDDEN-WHEEL": (HIDDEN_WHEEL, "STANDARD", "§10 wheelHidesKind: Wheel-passed kinds stay private"),
}

def _lengths(players: int) -> tuple[str, ...]:
    """R3: a long game needs 4–5 players, a short one 3."""
    return ("normal", "short") if players == 3 else ("normal", "long")


#: the table options (checked by `create`); every one but `first_seat` sets the Rules field
#: named in FIELD_OF (`first_seat`: tests fix the first player instead of drawing it)
OPTIONS: dict[str, Option] = {
    "length": Option(str, choices=_lengths, doc="§3.1, R3"),
    "majors": Option(str, choices=("full", "delayed", "none"), doc="R45"),
    "starsVP": Option(int, choices=(1, 2), doc="R29"),
    "moonDraw": Option(int, choices=(1, 2), doc="R30"),
    "wheelHidesKind": Option(bool, doc="§10"),
    "board": Option(str, choices=("project-default-1",), doc="§5.3"),
    "first_seat": Option(int, low=0, high=last_seat, doc="the first player, not drawn"),
}
FIELD_OF = {"length": "length", "majors": "majors", "starsVP": "stars_vp",
            "moonDraw": "moon_draw", "wheelHidesKind": "wheel_hides_kind", "board": "board"}


def rules_for(variant: str | None, options: Mapping[str, Any]) -> Rules:
    """The rules of `variant` with the table options applied (`create` checked both)."""
    rules = VARIANTS[variant or "STANDARD"][0]
    return replace(rules, **{FIELD_OF[k]: v for k, v in options.items() if k in FIELD_OF})


def catalogue() -> tuple[VariantInfo, ...]:
    """Every variant for the registry (all playable)."""
    return tuple(VariantInfo(name, parent, summary=summary)
                 for name, (_, parent, summary) in VARIANTS.items())
