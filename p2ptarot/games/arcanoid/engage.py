"""Engagements (rules §3.2 E1–E8, §3.3 C4, E8 = the Magician, §6.1/3/4/6).

`composition_error` is the pure rule for which cards may stand together on a field (DRESDEN's,
with the MAINZ switches of `Rules`; a variant may replace it through `Rules.composition_error`):
it is the default of that field, so it is written in rules.py beside it and taken from there;
`check_engage` adds E-common (not engaged there, Temperance, cards available) and
`perform_engage` lays the record(s) down, removes a DRESDEN Temperance (§2.10 C2, A65), opens the
Fool window (§3.5 O1), then finish checks and refills.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from p2ptarot.cards.arcanoid_tables import (EMPEROR, EMPRESS, FIELDS, FOOL, LOVERS, MAGICIAN, court, is_ace,
                                            is_numeric, is_trump, suit)
from p2ptarot.engine import IllegalMove

from .arcana.fool import fool_window
from .battle import CARDS, Record
from .rules import COUPLE_MAJORS, composition_error, dresden_temp_blocks, stealable
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from .rules import ArcanoidGame


def check_engage(g: ArcanoidGame, pid: int, fields: Sequence[str], handles: Sequence[int],
                 cards: Sequence[str], transmute: int, chariot: bool) -> None:
    """Raise IllegalMove unless the engagement is legal for participant `pid` (E-common)."""
    seat = g.seat_of(pid)
    p = g.parts[pid]
    if len(handles) != len(cards) or len(set(handles)) != len(handles):
        raise IllegalMove(seat, tr("handles and cards must match one to one"), g.where())
    avail = set(g.available(pid))
    for h in handles:
        if h not in avail:
            raise IllegalMove(seat, tr("card {h} is not available to this participant",
                                       h=h), g.where())
    all_handles = list(handles)
    all_cards = list(cards)
    if chariot:
        if p.chariot < 0:
            raise IllegalMove(seat, tr("no active Chariot"), g.where())
        all_handles = p.reserve + all_handles
        all_cards = [g.cards[h] or "" for h in p.reserve] + all_cards
    if transmute >= 0 and transmute not in all_handles:
        raise IllegalMove(seat, tr("the transmuted card is not in the engagement"), g.where())
    for f in fields:
        if f in p.records:
            raise IllegalMove(seat, tr("already engaged on {f}", f=f), g.where())
        if g.temp_blocks(pid, f):
            raise IllegalMove(seat, tr("{field} is tempered", field=f), g.where())
    tcard = all_cards[all_handles.index(transmute)] if transmute >= 0 else None
    err = g.rules.composition_error(fields, all_cards, tcard, g.rules)
    if err:
        raise IllegalMove(seat, err, g.where())


def perform_engage(g: ArcanoidGame, pid: int, fields: Sequence[str], handles: Sequence[int],
                   cards: Sequence[str], transmute: int, chariot: bool):
    """Lay the engagement down; Fool window; finish checks; refills. Generator."""
    p = g.parts[pid]
    g.declare(p.seat, zip(handles, cards))
    for h in handles:
        g.take(pid, h)
    all_handles = tuple(handles)
    all_cards = tuple(cards)
    if chariot:  # C4: the whole reserve joins; the Chariot card is discarded
        all_handles = tuple(p.reserve) + all_handles
        all_cards = tuple(g.cards[h] or "" for h in p.reserve) + all_cards
        g.discard.append(p.chariot)
        p.chariot, p.reserve = -1, []
    t = g.temperance
    if t is not None and t.owner == pid and t.field in fields and g.rules.owner_engagement_ends_temperance:
        g.remove_temperance()  # DRESDEN: at the attempt, before the Fool window (A65)
    for f in fields:
        g.add_record(Record(pid, f, CARDS, g.clock, all_handles, all_cards, transmute))
    user = -1
    if len(fields) == 1 and g.rules.stealable(all_cards, g.rules):
        user = yield from fool_window(g, pid, fields[0])
    g.finish_checks(pid)
    first = [pid] + ([user] if user >= 0 else [])
    yield from g.refill(pid, first)
