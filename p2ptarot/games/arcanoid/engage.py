"""Engagements (rules §3.2 E1–E8, §3.3 C4, E8 = the Magician, §6.1/3/4/6).

`composition_error` is the pure rule for which cards may stand together on a field (DRESDEN's,
with the MAINZ switches of `Rules`; a variant may replace it through `Rules.composition_error`);
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
from .battle import CARDS, Record, composition_class, VALUE
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Rules
    from .state import ArcanoidState

COUPLE_MAJORS = frozenset({EMPRESS, EMPEROR, LOVERS})


def composition_error(fields: Sequence[str], cards: Sequence[str], transmuted: str | None,
                      rules: "Rules | None" = None) -> str | None:
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


def stealable(cards: Sequence[str], rules: "Rules | None" = None) -> bool:
    """§6.0 Pre: a card engagement that is no couple and no World and (DRESDEN, unless
    `rules.aces_special` is off) holds no ace."""
    aces = rules.aces_special if rules is not None else True
    return composition_class(cards) == VALUE and not (aces and any(is_ace(c) for c in cards))


def dresden_temp_blocks(g: "ArcanoidState", pid: int, field: str) -> bool:
    """DRESDEN `tempBlocks` (§3.0): the field is tempered and the engager is not the owner."""
    t = g.temperance
    return t is not None and t.field == field and t.owner != pid


def check_engage(g: "ArcanoidState", pid: int, fields: Sequence[str], handles: Sequence[int],
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


def perform_engage(g: "ArcanoidState", pid: int, fields: Sequence[str], handles: Sequence[int],
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
