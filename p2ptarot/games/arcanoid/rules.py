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
from typing import TYPE_CHECKING, Any, Callable, Generator, Sequence

from p2ptarot.engine import Move
from p2ptarot.engine.registry import Option, VariantInfo, last_seat

from . import engage

if TYPE_CHECKING:  # pragma: no cover
    from .state import ArcanoidState

#: composition_error(fields, cards, transmuted_card, rules) -> reason, or None when legal
CompositionRule = Callable[[Sequence[str], Sequence[str], "str | None", "Rules"], "str | None"]
#: stealable(cards, rules) -> whether a Fool may steal this face-up engagement
StealRule = Callable[[Sequence[str], "Rules"], bool]
#: temp_blocks(state, pid, field) -> whether a Temperance forbids pid's card engagement there
TemperanceRule = Callable[["ArcanoidState", int, str], bool]


@dataclass(frozen=True)
class ExtraMove:
    """A turn move a variant adds (NASSAU's Remove Temperance, a KOBLENZ secret engagement...).

    `move` is its class (added to the state's MOVES); `check(state, pid, move)` raises
    IllegalMove (pure); `perform(state, pid, move)` is a pipeline generator returning True when
    the move grants a replay; `candidates(state, pid, seat)` lists it for bots and UIs.
    """

    move: type[Move]
    check: Callable[["ArcanoidState", int, Any], None]
    perform: Callable[["ArcanoidState", int, Any], Generator[Any, Any, bool]]
    candidates: Callable[["ArcanoidState", int, int], list[Move]]


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
    composition_error: CompositionRule = field(default=engage.composition_error)
    stealable: StealRule = field(default=engage.stealable)
    temp_blocks: TemperanceRule = field(default=engage.dresden_temp_blocks)
    extra_moves: tuple[ExtraMove, ...] = ()
    #: answer moves (out of turn) a variant adds to the vocabulary (KOBLENZ's FoolOutcome)
    extra_answers: tuple[type[Move], ...] = ()

    @property
    def dresden_compositions(self) -> bool:
        """Whether engagements compose as in DRESDEN (then the move lists need no filtering)."""
        return (self.composition_error is engage.composition_error and self.aces_special
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
