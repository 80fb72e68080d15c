"""0 — The Fool (rules §6.0, §3.5 O1, A27–A34, `[0-8]`, `[0-8-9]` pledges).

The window opens after a stealable attempt. Who is asked depends only on public knowledge of the
Fool's whereabouts, so every peer computes the same window: among the Justice cards → every
eligible participant; face up in a visible slot or demon hand (or shown in a hand by a Pope) →
its owner only; face up anywhere else → nobody; hidden → every eligible player holding a hidden
hand, in turn order from the next participant (a pass is never evidence).
One INTERRUPT step; a seat answers for all its participants (a master for its demon) at the
first of their places. A Hermit owner using the Justice's Fool may cut in before any asked
participant (or last, before the engager's next turn) and pledges a Hermit move to that gap;
cutting in before the first asked is cutting in "first": the pledge falls due in the gap right
after the current turn, before the next participant's normal turn, asked or not (A57).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from p2ptarot.cards.arcanoid_tables import FOOL
from p2ptarot.engine import IllegalMove, Pass, TurnKind

from ..model import Ctx
from ..moves import Fool
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame

#: what the Fool's user announces after looking at a secret engagement (K4, T4; secret.py)
STOLEN, LOST = "stolen", "lost"


def _fool_location(g: ArcanoidGame) -> tuple[str, int]:
    """('justice'|'owner'|'gone'|'hidden', owner pid)."""
    for h in g.justice:
        if g.public_card(h) == FOOL:
            return "justice", -1
    for p in g.parts:
        for h in p.hand + p.visible:
            if g.public_card(h) == FOOL:
                return ("owner", p.pid) if not p.finished else ("gone", -1)
    for p in g.parts:
        for h in p.reserve + [x for r in p.records.values() for x in r.handles]:
            if g.public_card(h) == FOOL:
                return "gone", -1
    for h in g.discard:
        if g.public_card(h) == FOOL:
            return "gone", -1
    return "hidden", -1


def asked_order(g: ArcanoidGame, engager: int, field: str) -> tuple[list[int], str]:
    where, owner = _fool_location(g)
    seq = g.turn_order_from(g.cursor, include_self=False) + (
        [g.cursor] if g.in_round(g.cursor) else [])
    eligible = [q for q in seq if q != engager and field not in g.parts[q].records
                and not g.parts[q].usa]  # GAZA G5: the USA never uses the Fool
    if where == "justice":
        return eligible, where
    if where == "owner":
        return [q for q in eligible if q == owner], where
    if where == "gone":
        return [], where
    return [q for q in eligible if not g.parts[q].demon and g.parts[q].hand], where


def fool_handles(g: ArcanoidGame, pid: int, seat: int | None) -> list[int]:
    """Handles of a Fool participant `pid` could use, as `seat` knows them."""
    p = g.parts[pid]
    out = [h for h in p.hand + p.visible if g.card_for(h, seat) == FOOL]
    out += [h for h in g.justice if g.public_card(h) == FOOL]
    return out


def can_cut(g: ArcanoidGame, pid: int, handle: int, engager: int) -> bool:
    h = g.hermit
    return (h is not None and h.owner == pid and pid != engager and h.free > 0
            and handle in g.justice)


def check(g: ArcanoidGame, seat: int, move: Fool, ctx: Ctx) -> None:
    asked: list[int] = ctx.data["asked"]
    if move.user not in asked or g.seat_of(move.user) != seat:
        raise IllegalMove(seat, tr("this participant is not asked in this Fool window"), g.where())
    if move.card != FOOL:
        raise IllegalMove(seat, tr("only the Fool steals"), g.where())
    p = g.parts[move.user]
    if move.handle not in p.hand + p.visible + g.justice:
        raise IllegalMove(seat, tr("that Fool is not available to this participant"), g.where())
    known = g.usable_card(move.handle, seat)  # the rest is proven by the Fool's opening
    if known is not None and known != FOOL:
        raise IllegalMove(seat, tr("that card is not the Fool"), g.where())
    if move.cut >= 0 and move.cut != move.user:
        if not can_cut(g, move.user, move.handle, ctx.data["engager"]):
            raise IllegalMove(seat, tr("only a Hermit owner with a free Hermit move cuts in with "
                                       "the Justice's Fool"), g.where())
        if move.cut not in asked and move.cut != ctx.data["engager"]:
            raise IllegalMove(seat, tr("a cut-in names an asked participant or the engager"), g.where())


def legal(g: ArcanoidGame, seat: int, ctx: Ctx) -> list:
    out: list = [Pass()]
    engager = ctx.data["engager"]
    for pid in ctx.data["asked"]:
        if g.seat_of(pid) != seat:
            continue
        for h in fool_handles(g, pid, seat):
            out.append(Fool(h, FOOL, pid))
            if can_cut(g, pid, h, engager):
                out.extend(Fool(h, FOOL, pid, q) for q in ctx.data["asked"] + [engager] if q != pid)
    return out


def fool_window(g: ArcanoidGame, engager: int, field: str, secret: bool = False,
                steal: "Callable[[int], None] | None" = None):
    """Run the window; returns the Fool's user (the thief, or for a `secret` engagement whose
    attempt failed the loser of the Fool: it refills all the same, K4) or -1. `steal(user)`
    replaces the default transfer of the whole record (WORMS: only the reinforcement). Generator."""
    asked, _ = asked_order(g, engager, field)
    if not asked:
        return -1
    seats: list[int] = []
    for q in asked:
        if g.seat_of(q) not in seats:
            seats.append(g.seat_of(q))
    # A57: cutting in "first" pledges the gap right after the current turn, named by the
    # participant whose normal turn comes next, even when that participant is not asked
    first_gap = g.peek_next()
    ctx = Ctx("fool", actor=engager, data={"asked": asked, "engager": engager, "field": field,
                                           "first_gap": first_gap})
    may_cut = {g.seat_of(q) for q in asked
               if any(can_cut(g, q, h, engager) for h in fool_handles(g, q, None))}

    def best_of(answers: dict) -> tuple[float, Fool] | None:
        best: tuple[float, Fool] | None = None
        for move in answers.values():
            if not isinstance(move, Fool):
                continue
            pos: float = asked.index(move.user)
            if move.cut >= 0 and move.cut != move.user:
                pos = len(asked) if move.cut == engager else asked.index(move.cut) - 0.5
            if best is None or pos < best[0]:
                best = (pos, move)
        return best

    def decided(answers: dict) -> bool:
        best = best_of(answers)
        if best is None or may_cut - set(answers):
            return False
        before = {g.seat_of(q) for q in asked if asked.index(q) < best[0]}
        return before <= set(answers)

    answers = yield from g.collect(ctx, TurnKind.INTERRUPT, tuple(seats), done=decided)
    best = best_of(answers)
    if best is None:
        return -1
    move = best[1]
    user = move.user
    g.declare(g.seat_of(user), [(move.handle, FOOL)])
    g.take(user, move.handle)
    g.discard.append(move.handle)
    if move.cut >= 0 and move.cut != user and g.hermit is not None:
        # [0-8-9]: due at the gap before `cut`'s next turn; before the first asked = "first" (A57)
        g.hermit.pledges.append(first_gap if move.cut == asked[0] else move.cut)
    if secret:  # K4/T4: committed and shown first, then the private look and the outcome (A85)
        if not (yield from fool_attempt(g, engager, user, field)):
            return user
    g.steals += 1
    if steal is not None:
        steal(user)
        return user
    rec = g.parts[engager].records.pop(field)
    rec.owner = user
    g.parts[user].records[field] = rec
    return user


# ---- the Fool's attempt (K4, T4) ---------------------------------------------------------------
def fool_attempt(g: ArcanoidGame, engager: int, user: int, field: str):
    """After the Fool is shown: the private look, then the user's announced outcome. Returns
    whether the record is stolen. Generator."""
    rec = g.parts[engager].records[field]
    useat = g.seat_of(user)
    for h in rec.handles:  # the private look: holder = the engager, who knows them
        g.show_to(h, useat, g.seat_of(rec.engager))
    ctx = Ctx("fool-outcome", actor=user, data={"field": field, "engager": engager})
    move = yield from g.decide(ctx, useat)
    g.add_claim(useat, "fool-outcome", (("field", field), ("handles", rec.handles),
                                        ("outcome", move.outcome)), g.where())
    return move.outcome == STOLEN
