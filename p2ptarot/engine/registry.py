"""The game registry: one `GameInfo` per game, `create("sinople", players=4)`, and the catalogue
behind `p2ptarot games`, the bots, the presenters and the generic contract test.

Every package under `p2ptarot.games` is imported on first use and registers itself; nothing else
in the code base lists the games.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import BadConfiguration, UnknownGame
from .state import GameState

#: a variant anyone can play
PLAYABLE = "playable"
#: a variant described by the rules reference but not built: listed, refused by `create`/`host`
PLANNED = "planned"
STATUSES = (PLAYABLE, PLANNED)


@dataclass(frozen=True)
class VariantInfo:
    """One variant of a game: `parent` is the variant it is derived from (None for the base
    rules), `status` PLAYABLE or PLANNED, `summary` one line for `p2ptarot games`."""

    name: str
    parent: str | None = None
    status: str = PLAYABLE
    summary: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"variant status {self.status!r} is not one of {STATUSES}")

    @property
    def playable(self) -> bool:
        return self.status == PLAYABLE

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "parent": self.parent, "status": self.status,
                "summary": self.summary}


@dataclass(frozen=True)
class GameInfo:
    """Everything the build knows about one game, registered once by the game's package.

    `presenter` and `bots` are import paths, loaded lazily (so listing the games stays cheap): a
    presenter module offers `render(view) -> str` and `describe(move_json, view) -> str` (and
    optionally `GROUPS`, move kind -> heading); a bots module offers
    `choose(view, seat, legal, rng) -> Move`.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    variants: tuple[VariantInfo, ...] = ()
    default_variant: str | None = None
    decks: tuple[str, ...] = ()
    factory: Callable[..., GameState] | None = field(default=None, compare=False, repr=False)
    presenter: str | None = None
    bots: str | None = None
    #: optional: the VariantInfo of a combined variant name not listed (arcanoid's `X+GAZA`),
    #: or None; `create`/`host` accept what it describes as playable
    combine: Callable[[str], VariantInfo | None] | None = field(default=None, compare=False,
                                                                 repr=False)

    def __post_init__(self) -> None:
        variants = tuple(VariantInfo(v) if isinstance(v, str) else v for v in self.variants)
        object.__setattr__(self, "variants", variants)
        names = [v.name for v in variants]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: duplicate variant names")
        if self.default_variant is not None and self.default_variant not in names:
            raise ValueError(f"{self.name}: default variant {self.default_variant!r} is not listed")
        for v in variants:
            if v.parent is not None and v.parent not in names:
                raise ValueError(f"{self.name}: variant {v.name} derives from unknown {v.parent!r}")

    @property
    def variant_names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.variants)

    def variant(self, name: str) -> VariantInfo:
        for v in self.variants:
            if v.name == name:
                return v
        combined = self.combine(name) if self.combine is not None else None
        if combined is not None:
            return combined
        raise BadConfiguration(self._unknown_variant(name))

    def _unknown_variant(self, name: str) -> str:
        if not self.variants:
            return f"{self.name} has no variants (got {name!r})"
        return f"{self.name} has no variant {name!r} (variants: {', '.join(self.variant_names)})"

    def resolve_variant(self, variant: str | None) -> str | None:
        """The variant a table of this game plays (the default when None), or BadConfiguration
        when it is unknown or not built yet. `create` and `host` call this before anything else."""
        chosen = variant or self.default_variant
        if chosen is None:
            return None
        if not self.variants:
            raise BadConfiguration(self._unknown_variant(chosen))
        vi = self.variant(chosen)
        if not vi.playable:
            raise BadConfiguration(f"{self.name} variant {chosen} is {vi.status}, not built yet "
                                   f"(playable: {', '.join(self.playable_variants()) or 'none'})")
        return chosen

    def playable_variants(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.variants if v.playable)

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise BadConfiguration(f"{self.name} is played by {self.min_players} to "
                                   f"{self.max_players} players, not {players}")

    def load_presenter(self) -> Any | None:
        return _load(self.presenter)

    def load_bots(self) -> Any | None:
        return _load(self.bots)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "players": [self.min_players, self.max_players],
                "variants": [v.to_json() for v in self.variants],
                "default_variant": self.default_variant, "decks": list(self.decks)}


def _load(path: str | None) -> Any | None:
    """Import "package.module" (the module) or "package.module:attr" (that attribute)."""
    if not path:
        return None
    module, _, attr = path.partition(":")
    obj = importlib.import_module(module)
    return getattr(obj, attr) if attr else obj


_REGISTRY: dict[str, GameInfo] = {}
_GAMES_PACKAGE = "p2ptarot.games"
_loaded = False
#: a game name that may name its own package (`paris-divins` lives in `p2ptarot.games.paris_divins`)
_PACKAGE_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*\Z")


def register(info: GameInfo) -> None:
    """Called once by each game package at import time."""
    _REGISTRY[info.name] = info


def _load_all() -> None:
    """Import every game package under p2ptarot.games (each registers itself)."""
    global _loaded
    if _loaded:
        return
    package = importlib.import_module(_GAMES_PACKAGE)
    for mod in pkgutil.iter_modules(package.__path__):
        if mod.ispkg:
            importlib.import_module(f"{_GAMES_PACKAGE}.{mod.name}")
    _loaded = True


def _load_one(name: str) -> None:
    """Import only the package a game's name points at: a table of one game (every peer process)
    does not pay for importing every other game. A name that points at no package is left to
    `_load_all` (which also finds games registered under another name)."""
    if not isinstance(name, str) or name in _REGISTRY or not _PACKAGE_NAME.match(name):
        return
    module = f"{_GAMES_PACKAGE}.{name.replace('-', '_')}"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:  # the game's package exists but is broken: say so
            raise


def games() -> list[GameInfo]:
    """Every registered game, sorted by name."""
    _load_all()
    return sorted(_REGISTRY.values(), key=lambda g: g.name)


def info(name: str) -> GameInfo:
    _load_one(name)
    if not isinstance(name, str) or name not in _REGISTRY:
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
    An unknown or unbuilt variant is refused (BadConfiguration).
    """
    if omniscient is None:
        omniscient = viewer is None
    if omniscient and viewer is not None:
        raise BadConfiguration("an omniscient state has no viewer seat")
    gi = info(name)
    gi.check_players(players)
    variant = gi.resolve_variant(variant)
    if viewer is not None and not 0 <= viewer < players:
        raise BadConfiguration(f"viewer seat {viewer} out of range")
    assert gi.factory is not None
    return gi.factory(players=players, variant=variant, options=dict(options or {}), viewer=viewer,
                      omniscient=omniscient)
