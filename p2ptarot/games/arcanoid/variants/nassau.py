"""NASSAU (rules §8.2, A81, A82): DRESDEN with a Temperance that blocks everyone.

N1 nobody, the owner included, card-engages on a tempered field (World, couples, reinforcements
too; abdications, Judgements and the Tower stay allowed); N2 the owner's engagement no longer
ends it — the owner removes it with Remove Temperance, its whole move (no card, no draw; also a
replay or a Hermit move); N3 it still ends with the pile (A81: DRESDEN's trigger, unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from p2ptarot.engine import IllegalMove, Move

from ..rules import DRESDEN, ExtraMove
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


@dataclass(frozen=True, slots=True)
class RemoveTemperance(Move):
    """N2: the Temperance owner discards its active Temperance; nothing else happens."""
    KIND: ClassVar[str] = "remove-temperance"


def nassau_temp_blocks(g: ArcanoidGame, pid: int, field: str) -> bool:
    """N1 `tempBlocks`: the field is tempered, whoever engages."""
    t = g.temperance
    return t is not None and t.field == field


def _check_remove(g: ArcanoidGame, pid: int, move: RemoveTemperance) -> None:
    t = g.temperance
    if t is None or t.owner != pid:
        raise IllegalMove(g.seat_of(pid), tr("only the owner of the active Temperance removes it"),
                          g.where())


def _perform_remove(g: ArcanoidGame, pid: int, move: RemoveTemperance):
    g.remove_temperance()
    return False
    yield  # a generator: the pipeline pumps every move the same way


def _candidates(g: ArcanoidGame, pid: int, seat: int) -> list[Move]:
    t = g.temperance
    return [RemoveTemperance()] if t is not None and t.owner == pid else []


REMOVE_TEMPERANCE = ExtraMove(RemoveTemperance, _check_remove, _perform_remove, _candidates)

NASSAU = replace(DRESDEN, name="NASSAU", parent="DRESDEN",
                 summary="nobody engages on a tempered field; Remove Temperance",
                 temp_blocks=nassau_temp_blocks,            # N1
                 owner_engagement_ends_temperance=False,    # N2 (N3 is DRESDEN's pile_dead)
                 extra_moves=(REMOVE_TEMPERANCE,))
