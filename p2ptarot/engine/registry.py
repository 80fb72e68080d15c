"""The game registry: `create("sinople", players=4)` and the catalogue behind `p2ptarot games`."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import BadConfiguration, UnknownGame
from .state import GameState


@dataclass(frozen=True)
class GameInfo:
    """What the build supports for one game."""

    name: str
    title: str
    min_players: int
    max_players: int
    variants: tuple[str, ...] = ()
    default_variant: str | None = None
    decks: tuple[str, ...] = ()
    factory: Callable[..., GameState] | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "players": [self.min_players, self.max_players],
                "variants": list(self.variants), "default_variant": self.default_variant,
                "decks": list(self.decks)}


_REGISTRY: dict[str, GameInfo] = {}
#: game packages imported lazily on first use, so `import p2ptarot.engine` stays cheap
_KNOWN_PACKAGES = ("p2ptarot.games.sinople", "p2ptarot.games.arcanoid", "p2ptarot.games.arcanum")


def register(info: GameInfo) -> None:
    """Called by each game package at import time."""
    _REGISTRY[info.name] = info


def _load_all() -> None:
    for pkg in _KNOWN_PACKAGES:
        try:
            importlib.import_module(pkg)
        except ModuleNotFoundError as exc:  # a game not built yet is simply absent
            if exc.name != pkg:
                raise


def games() -> list[GameInfo]:
    """Every registered game, sorted by name."""
    _load_all()
    return sorted(_REGISTRY.values(), key=lambda g: g.name)


def info(name: str) -> GameInfo:
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGame(f"unknown game {name!r} (known: {known})") from None


def create(name: str, players: int, variant: str | None = None,
           options: Mapping[str, Any] | None = None, *, viewer: int | None = None,
           omniscient: bool | None = None) -> GameState:
    """A new game in its initial state.

    `viewer=None` builds the omniscient state; `viewer=k` builds seat k's partial-knowledge
    state (the one a network peer runs); `viewer=None, omniscient=False` builds a public
    observer's state (an offline verifier before the audit). Options are game-specific.
    """
    if omniscient is None:
        omniscient = viewer is None
    if omniscient and viewer is not None:
        raise BadConfiguration("an omniscient state has no viewer seat")
    gi = info(name)
    if not gi.min_players <= players <= gi.max_players:
        raise BadConfiguration(
            f"{name} is played by {gi.min_players} to {gi.max_players} players, not {players}")
    variant = variant or gi.default_variant
    if gi.variants and variant not in gi.variants:
        raise BadConfiguration(f"{name} has no variant {variant!r} (variants: {', '.join(gi.variants)})")
    if viewer is not None and not 0 <= viewer < players:
        raise BadConfiguration(f"viewer seat {viewer} out of range")
    assert gi.factory is not None
    return gi.factory(players=players, variant=variant, options=dict(options or {}), viewer=viewer,
                      omniscient=omniscient)
