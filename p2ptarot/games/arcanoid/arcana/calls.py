"""17 — The Star, 18 — The Moon, 19 — The Sun: calls (rules §6.17–6.19, A71–A75, claim §9.2 item 1).

Shown and discarded; each call first looks in the public holding zones (visible slots, demon
hands, Chariot reserves, hand cards already shown); otherwise every participant in the round with
an unshown hidden card answers in one INTERRUPT step: `Give` the card face up, or `Pass` —
the claim "not held", checked at once against known values and later at the audit.
Star: one call; Moon: up to two; Sun: up to three minors, or a single call for a major.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.cards.arcanoid_tables import MINORS, MOON, STAR, SUN, SUN_MAJORS
from p2ptarot.engine import IllegalMove, Pass, TurnKind

from ..model import Ctx
from ..moves import Call, CallAgain, Give
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame

MAX_CALLS = {STAR: 1, MOON: 2, SUN: 3}


def callable_cards(arcanum: str, first: bool) -> tuple[str, ...]:
    if arcanum == SUN and first:
        return MINORS + SUN_MAJORS
    return MINORS


def check(g: ArcanoidGame, pid: int, move: Call) -> None:
    if move.card not in MAX_CALLS:
        raise IllegalMove(g.seat_of(pid), tr("only the Star, Moon and Sun call cards"), g.where())
    if move.called not in callable_cards(move.card, True):
        raise IllegalMove(g.seat_of(pid), tr("{card} cannot call {called}",
                                             card=move.card, called=move.called), g.where())


def check_again(g: ArcanoidGame, seat: int, move: CallAgain, ctx: Ctx) -> None:
    if move.called not in MINORS:
        raise IllegalMove(seat, tr("further calls are for minor arcana"), g.where())


def check_give(g: ArcanoidGame, seat: int, move: Give, ctx: Ctx) -> None:
    pid = ctx.data["by_seat"][seat]
    if move.handle not in g.parts[pid].hand or move.card != ctx.data["called"]:
        raise IllegalMove(seat, tr("give the called card from the hidden hand"), g.where())
    known = g.usable_card(move.handle, seat)
    if known is not None and known != move.card:
        raise IllegalMove(seat, tr("that card is not the called card"), g.where())


def check_pass(g: ArcanoidGame, seat: int, ctx: Ctx) -> None:
    pid = ctx.data["by_seat"][seat]
    if any(g.usable_card(h, seat) == ctx.data["called"] for h in g.parts[pid].hand):
        raise IllegalMove(seat, tr("claimed not to hold {called} while holding it",
                                   called=ctx.data['called']),
                          g.where())


def legal_give(g: ArcanoidGame, seat: int, ctx: Ctx) -> list:
    pid = ctx.data["by_seat"][seat]
    mine = [h for h in g.parts[pid].hand if g.card_for(h, seat) == ctx.data["called"]]
    return [Give(mine[0], ctx.data["called"])] if mine else [Pass()]


def legal_again(g: ArcanoidGame, seat: int, ctx: Ctx) -> list:
    return [Pass()] + [CallAgain(c) for c in MINORS if c not in ctx.data["tried"]]


def _public_holder(g: ArcanoidGame, called: str) -> tuple[int, int] | None:
    for q in g.turn_order_from(g.cursor if g.cursor >= 0 else 0):
        p = g.parts[q]
        for h in p.hand + p.visible + p.reserve:
            if g.public_card(h) == called:
                return q, h
    return None


def one_call(g: ArcanoidGame, pid: int, called: str, zone: str):
    """One call; returns the giver's pid on success, -1 on failure. Generator."""
    found = _public_holder(g, called)
    if found is None:
        respondents = [q for q in g.turn_order_from(pid) if not (g.parts[q].demon or g.parts[q].usa) and any(
            g.public_card(h) is None for h in g.parts[q].hand)]
        if respondents:
            by_seat = {g.seat_of(q): q for q in respondents}
            ctx = Ctx("give", actor=pid, data={"called": called, "by_seat": by_seat})
            answers = yield from g.collect(ctx, TurnKind.INTERRUPT, tuple(by_seat), done=lambda a: any(
                isinstance(m, Give) for m in a.values()))
            for seat, ans in answers.items():
                q = by_seat[seat]
                if isinstance(ans, Give):
                    found = (q, ans.handle)
                else:
                    hidden = tuple(h for h in g.parts[q].hand if g.public_card(h) is None)
                    g.add_claim(seat, "not-held", (("card", called), ("handles", hidden)),
                                g.where())
    if found is None:
        return -1
    giver, handle = found
    g.declare(g.seat_of(giver), [(handle, called)])
    g.take(giver, handle)
    caller = g.parts[pid]
    dest = {"visible": caller.visible, "justice": g.justice}.get(zone, caller.hand)
    dest.append(handle)
    return giver


def play(g: ArcanoidGame, pid: int, move: Call, zone: str):
    g.discard.append(move.handle)
    yield from g.turn_up_usa()  # GAZA G7: the USA's cards face up first (A89: any caller)
    called, tried = move.called, [move.called]
    while True:
        giver = yield from one_call(g, pid, called, zone)
        if giver >= 0:
            yield from g.refill(pid, [giver])
            return False
        if len(tried) >= MAX_CALLS[move.card] or called not in MINORS or not g.in_round(pid):
            break
        ctx = Ctx("call-again", actor=pid, data={"arcanum": move.card, "tried": list(tried)})
        again = yield from g.decide(ctx, g.seat_of(pid))
        if not isinstance(again, CallAgain):
            break
        called = again.called
        tried.append(called)
    yield from g.refill(pid)
    return False
