"""10 — The Wheel of Fortune (rules §6.10, A59–A60, `[10-11]`, `[8-10]`, `[10-15]`).

Shown and discarded; draw 5 into the hand (from a visible slot: 1 face up into the slot, then 4;
from the Justice: 1 into the Justice, then 4), a renewal vote first if the pile runs out; then one
`WheelDiscard` decision brings hand + visible slots back to capacity. Each visible card discarded
is replaced by a newly drawn card shown to everyone (`promote`). No further draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot.engine import IllegalMove, PUBLIC

from ..model import Ctx
from ..moves import Play, WheelDiscard
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import ArcanoidGame


def play(g: ArcanoidGame, pid: int, move: Play, zone: str):
    g.discard.append(move.handle)
    p = g.parts[pid]
    before = set(p.hand) | set(p.visible)
    to_hand = 5
    if zone == "visible":
        yield from g.draw_into(p.visible, PUBLIC, p.seat)
        to_hand = 4
    elif zone == "justice":
        yield from g.refill_justice(pid)
        to_hand = 4
    for _ in range(to_hand):
        if not (yield from g.draw_into(p.hand, g.hand_reveal_target(pid), p.seat)):
            break
    excess = len(p.hand) + len(p.visible) - p.hand_cap - p.vis_cap
    if excess > 0:
        new = [h for h in p.hand + p.visible if h not in before]
        ctx = Ctx("wheel", actor=pid, data={"new": new, "excess": excess})
        answer = yield from g.decide(ctx, p.seat)
        g.declare(p.seat, zip(answer.promote, answer.cards))
        for h in answer.handles:
            g.take(pid, h)
            g.discard.append(h)
        for h in answer.promote:
            p.hand.remove(h)
            p.visible.append(h)
    yield from g.refill(pid)
    return False


def check_discard(g: ArcanoidGame, seat: int, move: WheelDiscard, ctx: Ctx) -> None:
    p = g.parts[ctx.actor]
    d, pr = set(move.handles), set(move.promote)
    new = set(ctx.data["new"])
    bad = (len(d) != len(move.handles) or len(d) != ctx.data["excess"]
           or not d <= set(p.hand) | set(p.visible) or len(pr) != len(move.promote)
           or not pr <= (new & set(p.hand)) - d or len(pr) != len(d & set(p.visible))
           or len(move.cards) != len(move.promote))
    if bad:
        raise IllegalMove(seat, tr("discard down to capacity; replace discarded visible cards by "
                                   "newly drawn ones"), g.where())
    for h, c in zip(move.promote, move.cards):
        known = g.usable_card(h, seat)  # the rest is proven by the promote's opening
        if known is not None and known != c:
            raise IllegalMove(seat, tr("card {handle} is not {card}", handle=h, card=c), g.where())


def legal_discards(g: ArcanoidGame, seat: int, ctx: Ctx, limit: int = 400) -> list:
    """Discard choices (visible swaps included), capped at `limit` entries for bots."""
    from itertools import combinations

    p = g.parts[ctx.actor]
    excess = ctx.data["excess"]
    new_hand = [h for h in ctx.data["new"] if h in p.hand]
    out: list = []
    for k in range(0, min(len(p.visible), len(new_hand), excess) + 1):
        for vis in combinations(p.visible, k):
            for promote in combinations(new_hand, k):
                pool = [h for h in p.hand if h not in promote]
                for hand_d in combinations(pool, excess - k):
                    cards = tuple(g.card_for(h, seat) or "" for h in promote)
                    out.append(WheelDiscard(tuple(hand_d) + vis, promote, cards))
                    if len(out) >= limit:
                        return out
    return out
