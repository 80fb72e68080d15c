"""Eleusis: an inductive game with a secret rule (spec/games/eleusis.md).

The package mirrors the rules document: `erl/` is the rule language (§6), `layout` the main and
side lines (§2.3), `moves` the plays and statements (§4), `sage` the prophet (§4.9–4.12),
`claims` the dealer's statements checked when the rule opens (§7, §9), `scoring` §4.15–4.16,
`library` graded example rules, `state` the turn structure.
"""

from __future__ import annotations

from p2ptarot.cards.standard52 import STANDARD_52X2
from p2ptarot.engine.registry import GameInfo, register

from .rules import CATALOGUE, OPTIONS, STANDARD
from .state import EleusisState

register(GameInfo(name="eleusis", title="Eleusis", min_players=4, max_players=8,
                  variants=CATALOGUE, default_variant=STANDARD.name, decks=(STANDARD_52X2.name,),
                  state=EleusisState, options=OPTIONS,
                  summaries={"fr": {"STANDARD": "New Eleusis avec le Sage, les nombres de la source "
                                                "(R1) ; la règle secrète en ERL"}}))
