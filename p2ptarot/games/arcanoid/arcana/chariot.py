"""7 — The Chariot (rules §3.3 C1–C4, §6.7, A39–A42, `[7-(1,3,4,6)]`, `[7-12]`).

C1 load (Chariot + at least one card, face up), C2 add 1–2 cards, C3 discard it with its reserve,
C4 engage the whole reserve plus optional cards (engage.py, `chariot=True`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.cards.arcanoid_tables import CHARIOT
from p2ptarot.engine import IllegalMove

from ..moves import ChariotAdd, ChariotDiscard, ChariotLoad
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def _check_cards(g: ArcanoidGame, pid: int, handles, cards) -> None:
    seat = g.seat_of(pid)
    avail = set(g.available(pid))
    if len(handles) != len(cards) or len(set(handles)) != len(handles):
        raise IllegalMove(seat, tr("handles and cards must match one to one"), g.where())
    for h, c in zip(handles, cards):
        if h not in avail:
            raise IllegalMove(seat, tr("card {h} is not available as {c}", h=h, c=c), g.where())
        known = g.usable_card(h, seat)  # never a third seat's private look (issue 24 item 5)
        if known is not None and known != c:
            raise IllegalMove(seat, tr("card {h} is not available as {c}", h=h, c=c), g.where())


def check_load(g: ArcanoidGame, pid: int, move: ChariotLoad) -> None:
    if g.parts[pid].chariot >= 0:
        raise IllegalMove(g.seat_of(pid), tr("a Chariot is already active"), g.where())
    if not move.handles or move.handle in move.handles:
        raise IllegalMove(g.seat_of(pid), tr("the Chariot is loaded with at least one other card"),
                          g.where())
    _check_cards(g, pid, move.handles, move.cards)


def check_add(g: ArcanoidGame, pid: int, move: ChariotAdd) -> None:
    if g.parts[pid].chariot < 0:
        raise IllegalMove(g.seat_of(pid), tr("no active Chariot"), g.where())
    most = g.rules.chariot_add_max
    if not move.handles or (most and len(move.handles) > most):
        raise IllegalMove(g.seat_of(pid), tr("add 1 to {of} cards to the Chariot",
                                             of=most or 'any number of'),
                          g.where())
    _check_cards(g, pid, move.handles, move.cards)


def check_discard(g: ArcanoidGame, pid: int, move: ChariotDiscard) -> None:
    if g.parts[pid].chariot < 0:
        raise IllegalMove(g.seat_of(pid), tr("no active Chariot"), g.where())


def play_load(g: ArcanoidGame, pid: int, move: ChariotLoad, zone: str):
    p = g.parts[pid]
    g.declare(p.seat, zip(move.handles, move.cards))
    for h in move.handles:
        g.take(pid, h)
    p.chariot = move.handle
    p.reserve = list(move.handles)
    yield from g.refill(pid)
    return False


def play_add(g: ArcanoidGame, pid: int, move: ChariotAdd):
    p = g.parts[pid]
    g.declare(p.seat, zip(move.handles, move.cards))
    for h in move.handles:
        g.take(pid, h)
    p.reserve.extend(move.handles)
    yield from g.refill(pid)
    return False


def play_discard(g: ArcanoidGame, pid: int, move: ChariotDiscard):
    g.discard_chariot(pid)
    yield from g.refill(pid)
    return False


__all__ = ["CHARIOT", "check_add", "check_discard", "check_load", "play_add", "play_discard",
           "play_load"]
