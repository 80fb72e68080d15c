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
from types import ModuleType
from typing import Any, Callable, Mapping

from .errors import BadConfiguration, UnknownGame
from .state import GameState
from p2ptarot.i18n.message import tr

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
class Option:
    """One table option a game accepts, declared as data (in the game's rules.py) so that
    `create` checks every option once, before a state exists: options arrive from a host's
    charter, i.e. from the network. `kind` is the JSON type (bool is never taken for int);
    `choices`, when given, are the accepted values (or a function of the player count giving
    them); `low`/`high` bound an int, `high` may be a function of the player count (a seat:
    `last_seat`)."""

    kind: type
    choices: tuple[Any, ...] | Callable[[int], tuple[Any, ...]] = ()
    low: int | None = None
    high: int | Callable[[int], int] | None = None
    doc: str = ""

    def check(self, game: str, name: str, value: Any, players: int) -> None:
        """BadConfiguration with one sentence unless `value` is acceptable at `players` seats."""
        if type(value) is not self.kind:
            raise BadConfiguration(tr("{game} option {name} must be of type {kind}, not {got}",
                                      game=game, name=name, kind=self.kind.__name__,
                                      got=repr(value)))
        choices = self.choices(players) if callable(self.choices) else self.choices
        if choices and value not in choices:
            raise BadConfiguration(tr("{game} option {name} must be one of {choices} at {count} "
                                      "players, not {got}",
                                      game=game, name=name, choices=list(choices), count=players,
                                      got=repr(value)))
        high = self.high(players) if callable(self.high) else self.high
        number: Any = value  # an int here (`type(value) is self.kind` narrowed `value` to object)
        if (self.low is not None and number < self.low) or (high is not None and number > high):
            raise BadConfiguration(tr("{game} option {name} must be in {low}..{high} at {count} "
                                      "players, not {got}",
                                      game=game, name=name, low=self.low, high=high,
                                      count=players, got=repr(value)))


def last_seat(players: int) -> int:
    """`Option.high` of an option naming a seat."""
    return players - 1


def all_players(players: int) -> int:
    """`Option.high` of an option counting up to the number of players."""
    return players


@dataclass(frozen=True)
class GameInfo:
    """Everything the build knows about one game, registered once by the game's package.

    The game names no layer above it: its presenter and bots are found by convention from its
    `package` (`layer_module(name, "present")` is `p2ptarot.present.<package>`).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    variants: tuple[VariantInfo, ...] = ()
    default_variant: str | None = None
    decks: tuple[str, ...] = ()
    #: the game's state class: `state(players, variant, options, omniscient=, viewer=)` builds a
    #: game `create` already validated (the class is its own factory)
    state: type[GameState] | None = field(default=None, compare=False, repr=False)
    #: the table options the game accepts (none unless declared)
    options: Mapping[str, Option] = field(default_factory=dict, compare=False)
    #: optional: the VariantInfo of a combined variant name not listed (arcanoid's `X+GAZA`),
    #: or None; `create`/`host` accept what it describes as playable
    combine: Callable[[str], VariantInfo | None] | None = field(default=None, compare=False,
                                                                 repr=False)
    #: the title in the interface's other languages, as data beside the English one
    #: ({"fr": "Tarot sinople"}); a language not listed shows `title`
    titles: Mapping[str, str] = field(default_factory=dict, compare=False)
    #: the variants' one-line summaries in other languages, data beside the English ones
    #: ({"fr": {"NASSAU": "..."}}); a variant not listed shows its `summary`
    summaries: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)

    def title_in(self, lang: str) -> str:
        """The game's title in `lang` (spec/APP.md, "Languages"), else the English one."""
        return self.titles.get(lang, self.title)

    def summary_in(self, variant: VariantInfo, lang: str) -> str:
        """`variant`'s summary in `lang`, else the English one."""
        return self.summaries.get(lang, {}).get(variant.name, variant.summary)

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
            return tr("{game} has no variants (got {name})", game=self.name, name=repr(name))
        return tr("{game} has no variant {name} (variants: {known})",
                  game=self.name, name=repr(name), known=', '.join(self.variant_names))

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
            raise BadConfiguration(tr("{game} variant {name} is {status}, not built yet (playable: "
                                      "{known})",
                                      game=self.name, name=chosen, status=vi.status,
                                      known=', '.join(self.playable_variants()) or 'none'))
        return chosen

    def playable_variants(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.variants if v.playable)

    def check_players(self, players: int) -> None:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise BadConfiguration(tr("{game} is played by {low} to {high} players, not {count}",
                                      game=self.name, low=self.min_players, high=self.max_players,
                                      count=players))

    @property
    def package(self) -> str:
        """The module name of the game's package under `p2ptarot.games` (and of its presenter and
        bots modules): the name with '-' written '_'."""
        return self.name.replace("-", "_")

    def check_options(self, options: Mapping[str, Any], players: int) -> None:
        """BadConfiguration unless every option is declared and its value acceptable."""
        for name, value in options.items():
            spec = self.options.get(name) if isinstance(name, str) else None
            if spec is None:
                accepted = ", ".join(self.options) or "none"
                raise BadConfiguration(tr("{game} has no option {name} (options: {accepted})",
                                          game=self.name, name=repr(name), accepted=accepted))
            spec.check(self.name, name, value, players)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "players": [self.min_players, self.max_players],
                "variants": [v.to_json() for v in self.variants],
                "default_variant": self.default_variant, "decks": list(self.decks)}


def layer_module(game: str, layer: str) -> ModuleType | None:
    """The module `p2ptarot.<layer>.<package>` of a registered game (its presenter for
    layer "present", its bots for "bots"), or None when the game has none. Why by convention:
    a game names no layer above it, and a layer's module for a seventh game is one new file."""
    module = f"p2ptarot.{layer}.{info(game).package}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:  # the module exists but is broken: say so
            raise
        return None


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
        raise UnknownGame(tr("unknown game {name} (known: {known})",
                             name=repr(name), known=known)) from None


def create(name: str, players: int, variant: str | None = None,
           options: Mapping[str, Any] | None = None, *, viewer: int | None = None,
           omniscient: bool | None = None) -> GameState:
    """A new game in its initial state.

    `viewer=None` builds the omniscient state; `viewer=k` builds seat k's partial-knowledge
    state (the one a network peer runs); `viewer=None, omniscient=False` builds a public
    observer's state (an offline verifier before the audit). Players, variant and options are
    checked here against the game's declaration (BadConfiguration), so constructors do not.
    """
    if omniscient is None:
        omniscient = viewer is None
    if omniscient and viewer is not None:
        raise BadConfiguration("an omniscient state has no viewer seat")
    gi = info(name)
    gi.check_players(players)
    variant = gi.resolve_variant(variant)
    options = dict(options or {})
    gi.check_options(options, players)
    if viewer is not None and not 0 <= viewer < players:
        raise BadConfiguration(f"viewer seat {viewer} out of range")
    assert gi.state is not None
    return gi.state(players, variant, options, omniscient=omniscient, viewer=viewer)
