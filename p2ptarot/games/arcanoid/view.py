"""The JSON view of one seat (None = a public observer): only what that seat may know — its own
hand, what it was shown, and the public table (who sees what: spec/games/arcanoid.md §4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p2ptarot.engine import PUBLIC

from .scoring import field_counts

if TYPE_CHECKING:  # pragma: no cover
    from .rules import ArcanoidGame

#: what a pending decision announced to the whole table (the called card, the Pope's category...)
PUBLIC_DECISION_DATA = ("called", "category", "arcanum", "tried", "field")


def _cards(cards: list[str | None], seen: list[set[int]], who: int,
           handles: list[int]) -> list[dict[str, Any]]:
    """{handle, card} of each handle, the card None unless shown to `who` (a seat, or PUBLIC
    for an observer): `card_for` inlined, as every view lists every pile."""
    return [{"handle": h, "card": cards[h] if PUBLIC in (s := seen[h]) or who in s else None}
            for h in handles]


def build_view(g: ArcanoidGame, seat: int | None) -> dict[str, Any]:
    """Everything `seat` may know, as plain JSON."""
    ctx = g.ctx()
    cards, seen = g.cards, g.seen
    who = PUBLIC if seat is None else seat
    parts = []
    for p in g.parts:
        records = {}
        for f, r in p.records.items():
            records[f] = record = r.to_json()
            if r.secret and any(PUBLIC not in seen[h] for h in r.handles):
                # face down: the count, and only the values this seat was shown
                record["cards"] = [c["card"] for c in _cards(cards, seen, who, list(r.handles))
                                   if c["card"] is not None]
                record["count"] = len(r.handles)
        parts.append({
            "pid": p.pid, "seat": p.seat, "demon": p.demon, "usa": p.usa, "finished": p.finished,
            "hand": _cards(cards, seen, who, p.hand), "hand_cap": p.hand_cap,
            "visible": _cards(cards, seen, who, p.visible), "visible_cap": p.vis_cap,
            "chariot": p.chariot, "reserve": _cards(cards, seen, who, p.reserve),
            "records": records})
    counts = field_counts(g.round_winners, range(g.players))
    return {
        "game": g.NAME, "variant": g.variant, "seat": seat,
        "round": g.round_index + 1, "rounds": g.rounds,
        "decision": None if ctx is None else {
            "name": ctx.name, "actor": ctx.actor,
            **{k: ctx.data[k] for k in PUBLIC_DECISION_DATA if k in ctx.data}},
        "wheel_new": list(ctx.data.get("new", [])) if ctx is not None else [],
        "order": list(g.order), "participants": parts,
        "pile": len(g.pile), "discard": len(g.discard),
        "justice": _cards(cards, seen, who, g.justice) if g.justice_card >= 0 else None,
        "justice_cap": g.justice_cap,
        "temperance": None if g.temperance is None else {
            "owner": g.temperance.owner, "field": g.temperance.field},
        "hermit": None if g.hermit is None else {
            "owner": g.hermit.owner, "used": g.hermit.used,
            "pledges": list(g.hermit.pledges)},
        "ever_engaged": sorted(g.ever_engaged),
        "renewal_refused": g.renewal_refused, "death_played": g.death_played,
        "renewals": g.round_renewals,
        "round_winners": [dict(w) for w in g.round_winners],
        "fields_won": {str(s): sum(c.values()) for s, c in counts.items()},
    }
