"""The presenter contract: what a front end may ask a game's presenter, with a default for each hook.

A game's presenter module (`p2ptarot.present.<GameInfo.package>`, e.g. `p2ptarot.present.sinople`, found by `engine.layer_module`) must offer
`render`, `describe` and `GROUPS` (`PresenterModule`); every other hook is optional and the
`Presenter` built from the module fills the missing ones with their defaults, so callers never
probe a module with `getattr`. A game with no presenter module gets the defaults throughout
(indented JSON, "kind field=value" sentences). A presenter reads only the view a seat receives.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import Any, Callable, Mapping, Protocol, Sequence

from p2ptarot.engine import UnknownGame, layer_module
from p2ptarot.i18n import _

from .page import PageMoveError

View = Mapping[str, Any]
#: (view, legal moves) -> a bool, the forms of the page...
Decision = Callable[[View, Sequence[Any]], Any]
#: the terminal's composer for a move the list cannot hold: (view, legal, ask, say) -> move or None
Composer = Callable[[View, Sequence[Any], Callable[[str], str], Callable[[str], None]], Any]


class PresenterModule(Protocol):
    """The part of the contract every presenter module provides."""

    GROUPS: Mapping[str, str]

    def render(self, view: View) -> str:
        """The terminal screen of one seat's view."""

    def describe(self, move: Mapping[str, Any], view: View) -> str:
        """A move (its JSON form) as a sentence, in the context of the view."""


def _render(view: View) -> str:
    return json.dumps(view, indent=1, sort_keys=True, default=str)


def _describe(move: Mapping[str, Any], view: View) -> str:
    data = dict(move)
    kind = data.pop("kind", "?")
    return " ".join([str(kind)] + [f"{k}={v}" for k, v in data.items()])


def _targets(move: Mapping[str, Any], view: View) -> Sequence[str]:
    return ()


def _no_cards(move: Mapping[str, Any], view: View) -> Sequence[str]:
    return ()


def _refine(view: View, names: Sequence[str], base: Mapping[str, Any]) -> Mapping[str, Any]:
    return base


def _no_forms(view: View, legal: Sequence[Any]) -> list[str]:
    return []


def _no_page_move(view: View, legal: Sequence[Any], form: str, text: str = "",
                  choices: Sequence[str] = (), handles: Sequence[int] = ()) -> tuple[Any, str]:
    raise PageMoveError("this game has no written moves")


def _never(view: View, legal: Sequence[Any]) -> bool:
    return False


def _no_rank_key(view: View, seat: int) -> tuple[Any, ...]:
    return ()


def _no_round_lines(before: View, after: View, names: Sequence[str]) -> list[str]:
    return []


def _no_totals_note(view: View) -> str:
    return ""


#: the optional hooks a presenter module may define, by name (the fields of `Presenter` below)
HOOKS = ("targets", "cards", "refine_screen", "page_forms", "page_move", "automatic", "compose", "rank_key",
         "round_lines", "totals_note")


@dataclass(frozen=True)
class Presenter:
    """A game's presenter with every hook present. `targets(move, view)`: the board fields a move
    acts on ("loc-3", "house-cups") for the page to light; `cards(move, view)`: the cards of a
    move naming several, picked together in the page's picker, where the generic
    `screen.move_cards` would not name them all (Arcanum's Temperance swap: hand and hidden
    cards; Arcanoid's Chariot and the cards it loads); [] leaves it to `move_cards`; `refine_screen(view, names, base)`: the
    generic screen model with the game's own board, hand or form data; `page_forms(view, legal)`
    and `page_move(view, legal, form, text, choices, handles) -> (move, note)`: moves written in
    the page (PageMoveError on a refusal); `automatic(view, legal)`: the lone legal move is the
    peer's own (an Eleusis judgment), played without asking; `compose`: the terminal's writer of
    a move the list cannot hold (None: nothing to write, so a lone legal move is forced);
    `rank_key(view, seat)`: the rules' tie-break among equal scores at the game's end;
    `round_lines(before, after, names)`: what a round's end shows beyond its record (Eleusis: each
    judgment re-checked against the opened rule), from the last view of the round and the next;
    `totals_note(view)`: a footnote to the running totals when they are more than the rounds'
    sum (Eleusis' +10 for a seat that has not dealt, rules §4.16), else ""."""

    game: str
    render: Callable[[View], str] = _render
    describe: Callable[[Mapping[str, Any], View], str] = _describe
    groups: Mapping[str, str] = field(default_factory=dict)
    targets: Callable[[Mapping[str, Any], View], Sequence[str]] = _targets
    cards: Callable[[Mapping[str, Any], View], Sequence[str]] = _no_cards
    refine_screen: Callable[[View, Sequence[str], Mapping[str, Any]], Mapping[str, Any]] = _refine
    page_forms: Decision = _no_forms
    page_move: Callable[..., tuple[Any, str]] = _no_page_move
    automatic: Decision = _never
    compose: Composer | None = None
    rank_key: Callable[[View, int], Sequence[Any]] = _no_rank_key
    round_lines: Callable[[View, View, Sequence[str]], list[str]] = _no_round_lines
    totals_note: Callable[[View], str] = _no_totals_note

    @classmethod
    def of(cls, game: str, module: ModuleType | None) -> "Presenter":
        """The presenter of `module` (a `PresenterModule`), defaults where it defines no hook."""
        if module is None:
            return cls(game)
        hooks = {name: getattr(module, name) for name in HOOKS if hasattr(module, name)}
        return cls(game, render=module.render, describe=module.describe,
                   groups=dict(module.GROUPS), **hooks)

    def sentence(self, move: Any, view: View) -> str:
        """`describe` for a `Move` or its JSON form."""
        return self.describe(move_json(move), view)

    def group(self, move: Any) -> str:
        """The heading a move is listed under: its kind's group (a msgid, `N_` in GROUPS) in the
        interface's language, or the kind itself."""
        kind = str(move_json(move).get("kind"))
        return _(str(self.groups[kind])) if kind in self.groups else kind


def move_json(move: Any) -> dict[str, Any]:
    """A `Move` or its JSON form, as a fresh dict."""
    return dict(move.to_json() if hasattr(move, "to_json") else move)


@lru_cache(maxsize=None)
def presenter(game: str) -> Presenter:
    """The presenter of a registered game; the defaults for an unknown game or one without."""
    try:
        return Presenter.of(game, layer_module(game, "present"))
    except UnknownGame:
        return Presenter(game)


__all__ = ["HOOKS", "Presenter", "PresenterModule", "move_json", "presenter"]
