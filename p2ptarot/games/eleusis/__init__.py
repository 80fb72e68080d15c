"""Eleusis: an inductive game with a secret rule (spec/games/eleusis.md).

The package mirrors the rules document: `erl/` is the rule language (§6), `layout` the main and
side lines (§2.3), `moves` the plays and statements (§4), `sage` the prophet (§4.9–4.12),
`claims` the dealer's statements checked when the rule opens (§7, §9), `scoring` §4.15–4.16,
`library` graded example rules, `state` the turn structure.
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.cards.standard52 import STANDARD_52X2
from p2ptarot.engine.registry import GameInfo, VariantInfo, register

from .moves import MOVES
from .rules import STANDARD
from .state import EleusisState


def _factory(players: int, variant: str | None, options: Mapping[str, Any], viewer: int | None,
             omniscient: bool) -> EleusisState:
    return EleusisState(players, variant, options, omniscient=omniscient, viewer=viewer)


register(GameInfo(
    name="eleusis", title="Eleusis", min_players=4, max_players=8,
    variants=(VariantInfo(STANDARD.name, summary="New Eleusis with the Sage, the source's numbers "
                                                 "(R1); the secret rule in ERL"),),
    default_variant=STANDARD.name, decks=(STANDARD_52X2.name,), factory=_factory,
    presenter="p2ptarot.present.eleusis", bots="p2ptarot.bots.eleusis"))

__all__ = ["MOVES", "EleusisState"]
