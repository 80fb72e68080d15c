"""Vocabulary shared by every game: turns, chance requests, reveals, claims, moves, outcomes.

The engine never handles randomness or cryptography itself. It *asks* for them:
a `Turn` of kind CHANCE carries a `Shuffle` (cards into handles in an order nobody may know) or a
`RandomChoice` (joint coin); a `Turn` of kind REVEAL lists `Reveal`s (which handle becomes known
to whom). Locally these are resolved by a `Dealer` with a random generator; over the network by
the mental-poker layer. Either way the engine code is the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, ClassVar, Mapping, get_args, get_origin, get_type_hints

#: Reveal target meaning "every seat" (a public reveal).
PUBLIC = -1
#: Holder value for a handle nobody holds (still in a deck, pile or surplus).
NOBODY = -1


class TurnKind(str, Enum):
    """Who must act next (spec/ENGINE.md §2)."""

    SEAT = "seat"  # exactly one seat moves
    SIMULTANEOUS = "simultaneous"  # every listed seat moves, blind to the others (commits, votes)
    INTERRUPT = "interrupt"  # each listed seat acts or passes; applied in the listed order
    CHANCE = "chance"  # the deck (shuffle) or a joint coin decides
    REVEAL = "reveal"  # handles must become known to some seats before play goes on
    OVER = "over"  # the game has ended


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Put cards into `handles` in a uniformly random order nobody learns.

    Either `cards` (a fresh deck epoch: these card ids, one per handle) or `source` (existing
    handles whose hidden cards are re-shuffled into the new handles, e.g. discards → draw pile).
    `deck` names the physical deck; `epoch` separates successive shuffles of it.
    """

    deck: str
    epoch: int
    handles: tuple[int, ...]
    cards: tuple[str, ...] = ()
    source: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"chance": "shuffle", "deck": self.deck, "epoch": self.epoch,
                "handles": list(self.handles), "cards": list(self.cards), "source": list(self.source)}


@dataclass(frozen=True, slots=True)
class RandomChoice:
    """A joint fair draw of an integer in [0, n): every seat contributes (commit-then-reveal)."""

    n: int
    purpose: str

    def to_json(self) -> dict[str, Any]:
        return {"chance": "random", "n": self.n, "purpose": self.purpose}


Chance = Shuffle | RandomChoice


@dataclass(frozen=True, slots=True)
class Reveal:
    """Handle `handle` must become known to seat `to` (or to everyone when `to == PUBLIC`).

    `holder` is the seat that currently holds the card (it supplies the last decryption share or
    the re-encryption), or NOBODY for a card still in a deck or pile.
    """

    handle: int
    to: int
    holder: int = NOBODY

    def to_json(self) -> dict[str, Any]:
        return {"handle": self.handle, "to": self.to, "holder": self.holder}


@dataclass(frozen=True, slots=True)
class Turn:
    """What the game waits for. `seats` is ordered (resolution order for INTERRUPT)."""

    kind: TurnKind
    seats: tuple[int, ...] = ()
    chance: Chance | None = None
    reveals: tuple[Reveal, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "seats": list(self.seats)}
        if self.chance is not None:
            out["chance"] = self.chance.to_json()
        if self.reveals:
            out["reveals"] = [r.to_json() for r in self.reveals]
        return out


@dataclass(frozen=True, slots=True)
class Claim:
    """A statement a seat made implicitly that can only be checked when hidden values open.

    Engines allocate claims with `GameState._claim` (which numbers them: `id`), and decide them
    when a card is learnt (`_on_learn`) or a secret is opened (`_on_learn_secret`), at the latest
    at the audit; a claim proven false raises `IllegalMove(seat, reason, where, claim=id)` so the
    table can produce the claimant's signed message as evidence.
    """

    seat: int
    kind: str
    detail: tuple[tuple[str, Any], ...]
    where: str
    id: int = -1

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "kind": self.kind, "detail": dict(self.detail),
                "where": self.where}


@dataclass(frozen=True, slots=True)
class Finding:
    """A fault the rules punish without ending the game (Eleusis §7.7: a dealer caught judging
    wrongly makes his round void, and play goes on with the next dealer).

    Recorded in `GameState.findings` in the order found, identically in every state that finds
    it; `claim` is the number of the claim proven false (the table cites the signed message that
    made it), or None when the fault is the move that revealed it (e.g. an invalid rule opened).
    """

    seat: int
    reason: str
    where: str
    claim: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "reason": self.reason, "where": self.where,
                "claim": self.claim}


@dataclass(frozen=True, slots=True)
class Secret:
    """A committed value that is not a card (a rule text, a bet, a choice).

    `owner` committed it; `value` is None while this state does not know it (another seat's
    secret before its `Open`), the text once known. Secret values are never empty: "" on the
    wire means "not sent".
    """

    owner: int
    value: str | None
    #: whether the owner opened it (then every seat is entitled to the value)
    opened: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"owner": self.owner, "value": self.value, "opened": self.opened}


@dataclass(frozen=True, slots=True)
class Move:
    """Base of every game's moves: a frozen record with a `KIND` tag and JSON-able fields.

    Fields hold ints, strings, bools or tuples of them; card values a move makes public ride along
    with the handle so the table protocol can check the reveal against them.
    """

    KIND: ClassVar[str] = "move"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.KIND}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


#: one declared field: (name, exact type of the value, exact type of its items for a tuple or None)
FieldSpec = tuple[str, type, "type | None"]

_SCALARS = (int, str, bool)


def _spec(annotation: Any, where: str) -> tuple[type, type | None]:
    """(value type, item type) for a field declared int, str, bool or tuple[T, ...] of those.
    Types are matched exactly, so a bool is never an int and no subclass slips through."""
    if annotation in _SCALARS:
        return annotation, None
    if get_origin(annotation) is tuple:
        args = get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis and args[0] in _SCALARS:
            return tuple, args[0]
    raise TypeError(f"{where}: move fields are int, str, bool or tuple[T, ...], not {annotation!r}")


_FIELDS: dict[type, tuple[FieldSpec, ...]] = {}


def move_fields(cls: type[Move]) -> tuple[FieldSpec, ...]:
    """The declared fields of a move class with their exact types (cached: this runs for every
    move checked)."""
    spec = _FIELDS.get(cls)
    if spec is None:
        hints = get_type_hints(cls)
        spec = _FIELDS[cls] = tuple((f.name, *_spec(hints[f.name], f"{cls.__name__}.{f.name}"))
                                    for f in fields(cls))
    return spec


def _fits(value: Any, kind: type, item: type | None) -> bool:
    items: Any = value  # (checking `type(value)` would narrow `value` itself to a bare object)
    if type(value) is not kind:
        return False
    return item is None or all(type(x) is item for x in items)


def bad_field(move: Move) -> str | None:
    """The name of the first field of `move` whose value does not have its declared type."""
    for name, kind, item in move_fields(type(move)):
        value = items = getattr(move, name)  # `items`: not narrowed by the test of `type(value)`
        if type(value) is not kind or (item is not None and not all(type(x) is item for x in items)):
            return name
    return None


def move_from_json(kinds: Mapping[str, type[Move]], data: Mapping[str, Any]) -> Move:
    """Decode a move of one game from JSON, strictly: known kind, exactly the declared fields,
    each of its declared type (an `int` is an int, never a bool or a string; a `tuple[int, ...]`
    is a list of ints)."""
    from .errors import EngineError

    if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
        raise EngineError("a move is an object with a string 'kind'")
    cls = kinds.get(data["kind"])
    if cls is None:
        raise EngineError(f"unknown move kind {data['kind']!r}")
    spec = move_fields(cls)
    extra = set(data) - {name for name, _, _ in spec} - {"kind"}
    if extra:
        raise EngineError(f"move {cls.KIND!r} has unexpected fields {sorted(extra)}")
    args = {}
    for name, kind, item in spec:
        if name not in data:
            raise EngineError(f"move {cls.KIND!r} lacks field {name!r}")
        value = data[name]
        if isinstance(value, list):
            value = tuple(value)
        if not _fits(value, kind, item):
            raise EngineError(f"move {cls.KIND!r} field {name!r} has a bad value")
        args[name] = value
    return cls(**args)


@dataclass(frozen=True, slots=True)
class Pass(Move):
    """Decline to act in an interrupt window or a vote."""

    KIND: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Commit(Move):
    """Commit to the secret `name` without showing it (spec/ENGINE.md §Secrets).

    The owner's chooser fills `value`; over the network the table sends `value=""` plus a hash
    commitment, so every other peer's engine sees `Commit(name, "")` ("value unknown here").
    """

    KIND: ClassVar[str] = "commit"
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Open(Move):
    """Open the secret `name` committed earlier. The table checks `value` against the commitment
    before the engine sees the move; the engine then learns the value (`_on_learn_secret`)."""

    KIND: ClassVar[str] = "open"
    name: str
    value: str


@dataclass(frozen=True)
class Outcome:
    """The end of a game: per-seat scores, the winning seats (shared victory allowed), details."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners), "detail": dict(self.detail)}
