"""Terminal screens for human players: `render_view(view)` and `describe_move(move, view)`.

The renderer reads only the view a seat receives (which already hides what the seat may not
know) and never the engine, so what a human sees can never leak more than a bot gets. Games
without a screen of their own fall back to indented JSON.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from . import arcanoid, arcanum, sinople
from .cards import card_list, card_name

Renderer = Callable[[Mapping[str, Any]], str]
Describer = Callable[[Mapping[str, Any], Mapping[str, Any]], str]

SCREENS: dict[str, tuple[Renderer, Describer]] = {
    "arcanoid": (arcanoid.render, arcanoid.describe),
    "arcanum": (arcanum.render, arcanum.describe),
    "sinople": (sinople.render, sinople.describe),
}

#: headings for grouping long move lists by kind (unknown kinds use the kind itself)
GROUPS: dict[str, str] = {
    "discard": "discard", "abdicate": "abdicate", "engage": "engage", "chariot-engage": "Chariot",
    "chariot-load": "Chariot", "chariot-add": "Chariot", "chariot-discard": "Chariot",
    "play": "play a card", "priestess": "arcana", "pope": "arcana", "strength": "arcana",
    "hanged-man": "arcana", "temperance": "arcana", "tower": "arcana", "call": "call a card",
    "judgement": "arcana", "world": "arcana", "wheel-discard": "Wheel", "call-again": "call a card",
    "hermit-move": "Hermit", "fool": "Fool", "show": "show", "give": "give", "vote": "vote",
    "pass": "pass",
    "play-minor": "play a minor", "play-major": "play a major", "choose": "choose",
    "hide": "hide", "relocate": "move a figure", "house": "choose a House", "empress": "Empress",
    "fields": "Fields", "expose": "Sun", "swap": "Temperance", "remove": "Judgement",
    "return": "Judgement",
}


def _json(move: Any) -> dict[str, Any]:
    return dict(move.to_json() if hasattr(move, "to_json") else move)


def render_view(view: Mapping[str, Any]) -> str:
    """The screen for one seat's view; compact indented JSON for a game with no screen."""
    screen = SCREENS.get(str(view.get("game")))
    if screen is None:
        return json.dumps(view, indent=1, sort_keys=True)
    return screen[0](view)


def describe_move(move: Any, view: Mapping[str, Any]) -> str:
    """A human sentence for a move (a `Move` or its JSON form) in the context of `view`."""
    data = _json(move)
    screen = SCREENS.get(str(view.get("game")))
    if screen is None:
        kind = data.pop("kind", "?")
        return " ".join([str(kind)] + [f"{k}={v}" for k, v in data.items()])
    return screen[1](data, view)


def move_group(move: Any) -> str:
    """The heading a move is listed under when a long move list is grouped."""
    kind = str(_json(move).get("kind"))
    return GROUPS.get(kind, kind)


__all__ = ["GROUPS", "SCREENS", "card_list", "card_name", "describe_move", "move_group",
           "render_view"]
