"""Presenters: a seat's screen, move sentences and move-list headings, from its view only.

Each game's presenter is found by convention (`p2ptarot/present/<game package>.py`, see
`engine.layer_module`) and offers `render(view) -> str`, `describe(move_json, view) -> str` and
`GROUPS` (move kind -> heading). A presenter reads only the view a seat receives (which already
hides what the seat may not know) and never the engine, so what a human sees can never leak more
than a bot gets. Games without a presenter fall back to indented JSON.
"""

from __future__ import annotations

import json
from functools import lru_cache
from types import ModuleType
from typing import Any, Mapping

from p2ptarot.engine import UnknownGame, layer_module

from .cards import card_list, card_name


@lru_cache(maxsize=None)
def presenter(game: str) -> ModuleType | None:
    """The presenter module of a registered game, or None (unknown game, or it has none)."""
    try:
        return layer_module(game, "present")
    except UnknownGame:
        return None


def _json(move: Any) -> dict[str, Any]:
    return dict(move.to_json() if hasattr(move, "to_json") else move)


def render_view(view: Mapping[str, Any]) -> str:
    """The screen for one seat's view; compact indented JSON for a game with no presenter."""
    screen = presenter(str(view.get("game")))
    if screen is None:
        return json.dumps(view, indent=1, sort_keys=True)
    return screen.render(view)


def describe_move(move: Any, view: Mapping[str, Any]) -> str:
    """A human sentence for a move (a `Move` or its JSON form) in the context of `view`."""
    data = _json(move)
    screen = presenter(str(view.get("game")))
    if screen is None:
        kind = data.pop("kind", "?")
        return " ".join([str(kind)] + [f"{k}={v}" for k, v in data.items()])
    return screen.describe(data, view)


def move_group(move: Any, game: str | None = None) -> str:
    """The heading a move is listed under when a long move list is grouped (the game's
    presenter's GROUPS; without a game, every registered presenter's, then the kind itself)."""
    kind = str(_json(move).get("kind"))
    screens = [presenter(game)] if game else [presenter(g.name) for g in _games()]
    for screen in screens:
        groups = getattr(screen, "GROUPS", {}) if screen is not None else {}
        if kind in groups:
            return groups[kind]
    return kind


def _games() -> list[Any]:
    from p2ptarot.engine import games

    return games()


__all__ = ["card_list", "card_name", "describe_move", "move_group", "presenter", "render_view"]
