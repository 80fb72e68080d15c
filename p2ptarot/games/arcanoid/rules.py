"""arcanoïd rules as data (spec/games/arcanoid.md, rules §8 "Variants as diffs").

`DRESDEN` is the base rules object. A variant is its parent plus a diff:

    NASSAU = replace(DRESDEN, name="NASSAU", parent="DRESDEN", temp_blocks=nassau_temp_blocks,
                     owner_engagement_ends_temperance=False, extra_moves=(REMOVE_TEMPERANCE,))

Numbers and switches are plain fields; what a variant rewrites is a hook (a plain function
stored in a field; card rules get the rules object last, table rules get the state first). The engine reads
everything that varies through `state.rules`, never through module constants. Which hook each
§8 diff needs is listed in spec/games/arcanoid.md ("Variants as data").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Iterable, Protocol, Sequence

from p2ptarot.engine import Move
from p2ptarot.engine.registry import Option, VariantInfo, last_seat

from p2ptarot.cards.arcanoid_tables import (EMPEROR, EMPRESS, FIELDS, FOOL, LOVERS, MAGICIAN, court, is_ace,
                                            is_numeric, is_trump, suit)
from p2ptarot.engine.flow import Flow
from p2ptarot.engine.types import TurnKind

from .battle import VALUE, Record, composition_class
from .model import Ctx, HermitState, Participant, TemperanceState
from p2ptarot.i18n.message import tr

#: composition_error(fields, cards, transmuted_card, rules) -> reason, or None when legal
CompositionRule = Callable[[Sequence[str], Sequence[str], "str | None", "Rules"], "str | None"]
#: stealable(cards, rules) -> whether a Fool may steal this face-up engagement
StealRule = Callable[[Sequence[str], "Rules"], bool]
#: temp_blocks(state, pid, field) -> whether a Temperance forbids pid's card engagement there
TemperanceRule = Callable[["ArcanoidGame", int, str], bool]


class ArcanoidGame(Protocol):
    """`state.ArcanoidState` as its helper modules and the rules' hooks see it: they are typed
    against this protocol, not the class (which satisfies it), so none of them imports the state
    module that imports them (issue 32 item 5: no type-only cycle)."""

    @property
    def NAME(self) -> str: ...
    def _check_card(self, pid: int, handle: int, card: str, allowed: tuple[str, ...]) -> None: ...
    def active_demon(self) -> int: ...
    def add_claim(self, seat: int, kind: str, detail: tuple[tuple[str, Any], ...], where: str) -> None: ...
    def add_record(self, rec: Record) -> None: ...
    def available(self, pid: int) -> list[int]: ...
    def card_for(self, handle: int, seat: int | None) -> str | None: ...
    @property
    def cards(self) -> list[str | None]: ...
    @property
    def clock(self) -> int: ...
    def collect(self, ctx: Ctx, kind: TurnKind, seats: tuple[int, ...], flush: bool = ..., done: Callable[[dict[int, Any]], bool] | None = ...) -> Flow: ...
    def ctx(self) -> Any | None: ...
    @property
    def cursor(self) -> int: ...
    death_played: bool
    def decide(self, ctx: Ctx, seat: int) -> Flow: ...
    def declare(self, seat: int, pairs: Iterable[tuple[int, str]]) -> None: ...
    demons: int
    @property
    def discard(self) -> list[int]: ...
    def discard_chariot(self, pid: int) -> None: ...
    def draw_into(self, zone: list[int], to: int, responsible: int) -> Flow: ...
    @property
    def ever_engaged(self) -> set[str]: ...
    def finish_checks(self, start: int) -> None: ...
    def hand_reveal_target(self, pid: int) -> int: ...
    hermit: HermitState | None
    def in_round(self, pid: int) -> bool: ...
    def insert_demon(self, demon: int, master: int) -> None: ...
    justice: list[int]
    justice_cap: int
    justice_card: int
    @property
    def order(self) -> list[int]: ...
    @property
    def parts(self) -> list[Participant]: ...
    def peek_next(self) -> int: ...
    pile: list[int]
    def pile_dead(self) -> None: ...
    @property
    def players(self) -> int: ...
    def public_card(self, handle: int) -> str | None: ...
    def refill(self, mover: int, first: Iterable[int] = ...) -> Flow: ...
    def refill_justice(self, mover: int) -> Flow: ...
    @property
    def reinforced(self) -> set[tuple[int, str]]: ...
    def remove_temperance(self) -> None: ...
    @property
    def renewal_refused(self) -> bool: ...
    @property
    def round_index(self) -> int: ...
    @property
    def round_renewals(self) -> int: ...
    @property
    def round_winners(self) -> list[dict[str, int]]: ...
    @property
    def rounds(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    def seat_of(self, pid: int) -> int: ...
    @property
    def secret_used(self) -> set[int]: ...
    @property
    def seen(self) -> list[set[int]]: ...
    def show_public(self, handle: int, holder: int = ...) -> None: ...
    def show_to(self, handle: int, seat: int, holder: int = ...) -> None: ...
    steals: int
    @property
    def strength_cards(self) -> list[int]: ...
    def take(self, pid: int, handle: int) -> str: ...
    def temp_blocks(self, pid: int, field: str) -> bool: ...
    temperance: TemperanceState | None
    def turn_order_from(self, pid: int, include_self: bool = ...) -> list[int]: ...
    def turn_up_usa(self) -> Flow: ...
    def usable_card(self, handle: int, seat: int) -> str | None: ...
    @property
    def variant(self) -> str | None: ...
    def where(self) -> str: ...


COUPLE_MAJORS = frozenset({EMPRESS, EMPEROR, LOVERS})


def composition_error(fields: Sequence[str], cards: Sequence[str], transmuted: str | None,
                      rules: Rules | None = None) -> str | None:
    """Why `cards` (with `transmuted` the Magician's transmuted card) cannot be engaged on
    `fields`, or None when they can (E2–E8, A19–A24). `rules` None means DRESDEN;
    `rules.illegitimate_couples` and `rules.aces_special` switch off E7b and the ace's role
    (MAINZ Z1/Z3)."""
    illegitimate = rules.illegitimate_couples if rules is not None else True
    aces = rules.aces_special if rules is not None else True
    if not cards:
        return tr("an engagement needs at least one card")
    if len(fields) not in (1, 2) or len(set(fields)) != len(fields) or any(f not in FIELDS for f in fields):
        return tr("one field, or two different fields for a couple of majors")
    if len(set(cards)) != len(cards):
        return tr("duplicate cards")
    f = fields[0]
    s = set(cards)
    if s & COUPLE_MAJORS:
        if transmuted is not None:
            return tr("nothing is transmuted in a couple")
        if s == {EMPRESS, EMPEROR} or (illegitimate and s in ({LOVERS, EMPRESS}, {LOVERS, EMPEROR})):
            return None  # E6, E7b: one or two fields
        if len(fields) == 1 and len(s) == 2 and LOVERS in s:
            other = next(iter(s - {LOVERS}))
            if court(other) and suit(other) == f:
                return None  # E7a
        return tr("not a legal couple (E6/E7)")
    if len(fields) != 1:
        return tr("only the imperial couple and the Lovers with a ruler may stand on two fields")
    if any((is_trump(c) and c != MAGICIAN) or c == FOOL for c in s):
        return tr("this major arcanum cannot be engaged this way")
    mag = MAGICIAN in s
    others = [c for c in cards if c != MAGICIAN]
    if transmuted is not None and (not mag or transmuted not in others or not is_numeric(transmuted)
                                   or suit(transmuted) == f):
        return tr("the Magician transmutes one numeric card of another suit")
    courts = [c for c in others if court(c)]
    if set(courts) == {f"{f}-queen", f"{f}-king"} and len(others) == 2:
        return None if not mag else tr("nothing may be added to the royal couple")
    if courts:
        if len(courts) != 1 or court(courts[0]) not in ("page", "knight") or suit(courts[0]) != f:
            return tr("a page or knight of the field's suit, alone or with one ace")
        rest = [c for c in others if c != courts[0]]
        if not aces and (rest or mag):
            return tr("a page or knight is engaged alone")
        if not rest:
            return tr("the Magician joins a page or knight only with an ace") if mag else None
        if len(rest) != 1 or not is_ace(rest[0]):
            return tr("a page or knight goes with exactly one ace")
        if suit(rest[0]) != f and transmuted != rest[0]:
            return tr("an ace of another suit needs the Magician to transmute it")
        return None
    if not others:
        return tr("the Magician is never engaged alone")
    if not all(is_numeric(c) for c in others):
        return tr("a numeric engagement holds numeric cards only")
    off = [c for c in others if suit(c) != f]
    if len(off) > 1 or (off and transmuted != off[0]):
        return tr("numeric cards of the field's suit (one other-suit card if the Magician "
                  "transmutes it)")
    return None


def stealable(cards: Sequence[str], rules: Rules | None = None) -> bool:
    """§6.0 Pre: a card engagement that is no couple and no World and (DRESDEN, unless
    `rules.aces_special` is off) holds no ace."""
    aces = rules.aces_special if rules is not None else True
    return composition_class(cards) == VALUE and not (aces and any(is_ace(c) for c in cards))


def dresden_temp_blocks(g: ArcanoidGame, pid: int, field: str) -> bool:
    """DRESDEN `tempBlocks` (§3.0): the field is tempered and the engager is not the owner."""
    t = g.temperance
    return t is not None and t.field == field and t.owner != pid


@dataclass(frozen=True)
class ExtraMove:
    """A turn move a variant adds (NASSAU's Remove Temperance, a KOBLENZ secret engagement...).

    `move` is its class (added to the state's MOVES); `check(state, pid, move)` raises
    IllegalMove (pure); `perform(state, pid, move)` is a pipeline generator returning True when
    the move grants a replay; `candidates(state, pid, seat)` lists it for bots and UIs.
    """

    move: type[Move]
    check: Callable[[ArcanoidGame, int, Any], None]
    perform: Callable[[ArcanoidGame, int, Any], Generator[Any, Any, bool]]
    candidates: Callable[[ArcanoidGame, int, int], list[Move]]


@dataclass(frozen=True)
class Rules:
    """Everything that differs between arcanoïd variants (§8), with DRESDEN's values as the
    defaults. Derive a variant with `dataclasses.replace(PARENT, name=..., parent=..., ...)`."""

    name: str = "DRESDEN"
    parent: str | None = None
    summary: str = "the base rules (§1-§7)"
    # ---- numbers (§2.4, §6.8, §6.9, §3.3) ----
    hand_size: int = 6
    justice_size: int = 6
    hermit_moves: int = 3
    #: most cards one Chariot add (C2) takes; 0 = any number (MAINZ Z2)
    chariot_add_max: int = 2
    rounds: int = 5
    # ---- switches ----
    #: aces protect an engagement from the Fool and go with a page/knight (MAINZ Z1: False)
    aces_special: bool = True
    #: Lovers + Empress / Lovers + Emperor couples (E7b) are legal (MAINZ Z3: False)
    illegitimate_couples: bool = True
    #: the Temperance owner's card engagement on the tempered field ends it (NASSAU N2: False)
    owner_engagement_ends_temperance: bool = True
    #: secret engagements per participant per round (KOBLENZ K1: 1)
    secret_engagements: int = 0
    #: automatic USA participants (GAZA G1: one per GAZA)
    usa_seats: int = 0
    # ---- hooks ----
    composition_error: CompositionRule = field(default=composition_error)
    stealable: StealRule = field(default=stealable)
    temp_blocks: TemperanceRule = field(default=dresden_temp_blocks)
    extra_moves: tuple[ExtraMove, ...] = ()
    #: answer moves (out of turn) a variant adds to the vocabulary (KOBLENZ's FoolOutcome)
    extra_answers: tuple[type[Move], ...] = ()

    @property
    def dresden_compositions(self) -> bool:
        """Whether engagements compose as in DRESDEN (then the move lists need no filtering)."""
        return (self.composition_error is composition_error and self.aces_special
                and self.illegitimate_couples)

    def variant_info(self, status: str = "playable") -> VariantInfo:
        return VariantInfo(self.name, self.parent, status, self.summary)


DRESDEN = Rules()

__all__ = ["DRESDEN", "ExtraMove", "OPTIONS", "Rules"]


#: the table options (checked by `create`): how many rounds (default `Rules.rounds`) and a fixed
#: first seat instead of the joint draw (tests, replays)
OPTIONS: dict[str, Option] = {
    "rounds": Option(int, low=1, high=99, doc="rounds in the game (§1)"),
    "first_seat": Option(int, low=0, high=last_seat, doc="the first player, not drawn"),
}
