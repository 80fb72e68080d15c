"""MALTA (rules §8.5, A87): MAINZ where the Magician makes an engagement secret.

T1 the Magician never transmutes (it joins no engagement); played with an engagement on one's own
turn it is shown and discarded and the cards go face down; T2 any MAINZ-legal single-field
content with at least one card; T3 opened at the round's end; T4 the Fool's attempt with a
private look, stealable iff not a couple (MAINZ: aces do not protect); T5 no other secret
engagements. The claims and the reveal are KOBLENZ's (secret.py). A87: the Magician may come
from the Justice; the engager refills for every card used, the Magician included.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Sequence

from p2ptarot.cards.arcanoid_tables import MAGICIAN
from p2ptarot.engine import IllegalMove, Move

from .. import engage
from ..rules import ExtraMove, Rules
from ..secret import FoolOutcome, check_public, options, perform
from .mainz import MAINZ
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


@dataclass(frozen=True, slots=True)
class MagicianSecret(Move):
    """T1: the Magician (`handle`, shown) makes the engagement of `handles` on `field` secret;
    `chariot`: with the whole (public) Chariot reserve, as a C4 (A87)."""
    KIND: ClassVar[str] = "magician-secret"
    handle: int
    card: str
    field: str
    handles: tuple[int, ...]
    chariot: bool = False


def malta_composition_error(fields: Sequence[str], cards: Sequence[str], transmuted: str | None,
                            rules: Rules | None = None) -> str | None:
    """T1/T2: MAINZ's compositions without the Magician, which never joins an engagement."""
    if MAGICIAN in cards or transmuted is not None:
        return "in MALTA the Magician never transmutes nor joins an engagement"
    return engage.composition_error(fields, cards, None, rules)


def _check(g: ArcanoidGame, pid: int, move: MagicianSecret) -> None:
    g._check_card(pid, move.handle, move.card, (MAGICIAN,))
    if move.handle in move.handles or move.handle in g.parts[pid].reserve:
        raise IllegalMove(g.seat_of(pid), tr("the Magician is shown and discarded, not engaged"),
                          g.where())
    check_public(g, pid, move.field, move.handles, move.chariot)


def _perform(g: ArcanoidGame, pid: int, move: MagicianSecret):
    g.declare(g.seat_of(pid), [(move.handle, move.card)])
    g.take(pid, move.handle)
    g.discard.append(move.handle)
    return (yield from perform(g, pid, move.field, move.handles, move.chariot))


def _candidates(g: ArcanoidGame, pid: int, seat: int) -> list[Move]:
    mags = [h for h in g.available(pid) if g.card_for(h, seat) == MAGICIAN]
    if not mags:
        return []
    return [MagicianSecret(mags[0], MAGICIAN, f, hs) for f, hs in options(g, pid, seat, mags)]


MAGICIAN_SECRET = ExtraMove(MagicianSecret, _check, _perform, _candidates)

MALTA = replace(MAINZ, name="MALTA", parent="MAINZ",
                summary="the Magician makes an engagement secret",
                composition_error=malta_composition_error,              # T1, T2
                extra_moves=MAINZ.extra_moves + (MAGICIAN_SECRET,),     # T1-T5
                extra_answers=(FoolOutcome,))                           # T4
