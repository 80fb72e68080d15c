"""Presenters: a seat's screen, move sentences and move-list headings, from its view only.

Each game's presenter module is found by convention (`p2ptarot/present/<game package>.py`, see
`engine.layer_module`); `presenter(game)` returns it as a typed `Presenter` whose optional hooks
have defaults (`presenter.py`). A presenter reads only the view a seat receives (which already
hides what the seat may not know) and never the engine, so what a human sees can never leak more
than a bot gets. Games without a presenter fall back to indented JSON.
"""

from __future__ import annotations

from .cards import card_list, card_name
from .presenter import Presenter, PresenterModule, presenter

__all__ = ["Presenter", "PresenterModule", "card_list", "card_name", "presenter"]
