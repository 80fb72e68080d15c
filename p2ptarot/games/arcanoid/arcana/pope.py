"""5 — The Hierophant / Pope (rules §6.5, A37, claim §9.2 item 2).

Shown and discarded; the caller names a category; every participant in the round with a hidden
hand (the caller included) answers in one SIMULTANEOUS step with a `Show` of every card of that
category. "These are all" is checked at once against any value this state knows, and recorded as
a `pope-all` claim over the remaining hidden handles, checked when they open (the audit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.cards.arcanoid_tables import POPE_CATEGORIES, in_category
from p2ptarot.engine import IllegalMove, TurnKind

from ..model import Ctx
from ..moves import Pope, Show
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def check(g: ArcanoidGame, pid: int, move: Pope) -> None:
    if move.category not in POPE_CATEGORIES:
        raise IllegalMove(g.seat_of(pid), tr("unknown Hierophant category {category}",
                                             category=repr(move.category)),
                          g.where())


def check_show(g: ArcanoidGame, seat: int, move: Show, ctx: Ctx) -> None:
    pid = ctx.data["by_seat"][seat]
    hand = g.parts[pid].hand
    cat = ctx.data["category"]
    if len(move.handles) != len(move.cards) or len(set(move.handles)) != len(move.handles):
        raise IllegalMove(seat, tr("handles and cards must match one to one"), g.where())
    for h, c in zip(move.handles, move.cards):
        if h not in hand:
            raise IllegalMove(seat, tr("a Hierophant show comes from the hidden hand"), g.where())
        known = g.usable_card(h, seat)
        if not in_category(c, cat) or (known is not None and known != c):
            raise IllegalMove(seat, tr("card {h} is not of category {cat}",
                                       h=h, cat=cat), g.where())
    for h in hand:
        known = g.usable_card(h, seat)
        if h not in move.handles and known is not None and in_category(known, cat):
            raise IllegalMove(seat, tr("Hierophant: withheld a card of category {cat}",
                                       cat=cat), g.where())


def legal_show(g: ArcanoidGame, seat: int, ctx: Ctx) -> list:
    pid = ctx.data["by_seat"][seat]
    cat = ctx.data["category"]
    mine = [(h, g.card_for(h, seat)) for h in g.parts[pid].hand]
    shown = [(h, c) for h, c in mine if c is not None and in_category(c, cat)]
    return [Show(tuple(h for h, _ in shown), tuple(c for _, c in shown))]


def play(g: ArcanoidGame, pid: int, move: Pope, zone: str):
    g.discard.append(move.handle)
    yield from g.turn_up_usa()  # GAZA G7: the whole USA hand is shown first
    respondents = [q for q in g.turn_order_from(pid) if not g.parts[q].demon and not g.parts[q].usa
                   and g.parts[q].hand]
    if respondents:
        by_seat = {g.seat_of(q): q for q in respondents}
        ctx = Ctx("pope", actor=pid, data={"category": move.category, "by_seat": by_seat})
        answers = yield from g.collect(ctx, TurnKind.SIMULTANEOUS, tuple(by_seat))
        for seat, show in answers.items():
            g.declare(seat, zip(show.handles, show.cards))
            rest = tuple(h for h in g.parts[by_seat[seat]].hand if h not in show.handles)
            if rest:
                g.add_claim(seat, "pope-all", (("category", move.category), ("handles", rest)),
                            g.where())
    yield from g.refill(pid)
    return True
