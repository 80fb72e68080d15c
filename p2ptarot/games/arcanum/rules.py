"""Rules as data (engine contract v2 §5): the base `STANDARD` rules and each variant derived from it.

Table options (spec/games/arcanum.md; rules §3.1 length, R29 `starsVP`, R30 `moonDraw`, R45
`majors`, §10 `wheelHidesKind`) are fields; a variant is `dataclasses.replace(PARENT, ...)`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from p2ptarot.engine import BadConfiguration, VariantInfo


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

#: option name -> (Rules field, accepted values)
OPTIONS: dict[str, tuple[str, tuple[Any, ...]]] = {
    "length": ("length", ("normal", "long", "short")),
    "majors": ("majors", ("full", "delayed", "none")),
    "starsVP": ("stars_vp", (1, 2)),
    "moonDraw": ("moon_draw", (1, 2)),
    "wheelHidesKind": ("wheel_hides_kind", (False, True)),
    "board": ("board", ("project-default-1",)),
}
#: options that are not rules (tests: a fixed first seat, a fixed placement seed)
TABLE_OPTIONS = ("first_seat",)


def rules_for(variant: str | None, options: Mapping[str, Any], players: int) -> Rules:
    """The rules of `variant` with the table options applied; BadConfiguration on anything else."""
    name = variant or "STANDARD"
    if name not in VARIANTS:
        raise BadConfiguration(f"arcanum has no variant {name!r} (variants: {', '.join(VARIANTS)})")
    rules = VARIANTS[name][0]
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key in TABLE_OPTIONS:
            continue
        if key not in OPTIONS:
            raise BadConfiguration(f"arcanum has no option {key!r} (options: {', '.join(OPTIONS)})")
        attr, accepted = OPTIONS[key]
        if value not in accepted or type(value) is not type(accepted[0]):
            raise BadConfiguration(f"arcanum option {key} must be one of {list(accepted)}, not {value!r}")
        changes[attr] = value
    rules = replace(rules, **changes)
    if rules.length == "short" and players != 3 or rules.length == "long" and players == 3:
        raise BadConfiguration(f"arcanum: no {rules.length} game with {players} players (R3)")
    return rules


def catalogue() -> tuple[VariantInfo, ...]:
    """Every variant for the registry (all playable)."""
    return tuple(VariantInfo(name, parent, summary=summary)
                 for name, (_, parent, summary) in VARIANTS.items())
