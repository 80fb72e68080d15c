"""KOBLENZ (rules §8.3, A83–A85): NASSAU plus one secret engagement per participant per round.

K1 one each (the demon too; the USA never engages); K2 face down on one field, the count public,
any NASSAU-legal single-field content (a transmuting Magician inside, couples on this one field),
never an abdication, Judgement or World, at least one card; K3 opened at the end of the round;
K4 the Fool's attempt with a private look (secret.fool_attempt); K5 the right is spent at once;
K6 a Tower sends it face down to the discard (tower.play, unchanged). The machinery and the
claims are in secret.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..rules import ExtraMove
from ..secret import FoolOutcome, SecretEngage, candidates, check_public, perform
from .nassau import NASSAU

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def _check(g: ArcanoidGame, pid: int, move: SecretEngage) -> None:
    check_public(g, pid, move.field, move.handles, move.chariot)


def _perform(g: ArcanoidGame, pid: int, move: SecretEngage):
    return (yield from perform(g, pid, move.field, move.handles, move.chariot))


SECRET_ENGAGEMENT = ExtraMove(SecretEngage, _check, _perform, candidates)

KOBLENZ = replace(NASSAU, name="KOBLENZ", parent="NASSAU",
                  summary="one secret (face-down) engagement per round",
                  secret_engagements=1,                                         # K1
                  extra_moves=NASSAU.extra_moves + (SECRET_ENGAGEMENT,),        # K2-K6
                  extra_answers=(FoolOutcome,))                                 # K4
