"""One seat's JSON view (rules §9): public facts plus the values this seat may know, nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from p2ptarot.engine import PUBLIC

from .rules import HOUSES, LOCATION_NAMES, MAJOR, MINOR

if TYPE_CHECKING:
    from .api import ArcanumGame

#: decision data every seat may read
PUBLIC_DATA = ("min", "max", "why", "optional", "joker", "amount", "count", "figure", "taken",
               "removed", "for", "world")


def _card(g: ArcanumGame, h: int, seat: int | None) -> dict[str, Any]:
    return {"handle": h, "card": g.card_for(h, seat), "kind": g.kind_for(h, seat)}


def build_view(g: ArcanumGame, seat: int | None) -> dict[str, Any]:
    ctx = g.ctx()
    players = []
    for s in range(g.players):
        players.append({
            "seat": s, "vp": g.vp[s],
            "hand": [_card(g, h, seat) for h in g.z.hands[s]],
            "hidden": [dict(_card(g, h, seat), face_up=h in g.face_up) for h in g.z.hidden[s]],
            "held": list(g.held.get(s, [])),
        })
    by_loc: dict[str, list[str]] = {str(loc): [] for loc in range(1, 11)}
    for fig, loc in sorted(g.figures.items()):
        by_loc[str(loc)].append(fig)
    top = {k: [g.cards[h] for h in g.z.discard[k][-3:] if PUBLIC in g.seen[h]] for k in (MINOR, MAJOR)}
    return {
        "game": g.NAME, "variant": g.variant, "seat": seat,
        "turn": g.turn_no, "turns": g.rules.turns(g.players),
        "scoring_turns": list(g.rules.scoring_turns(g.players)),
        "phase": g.phase, "first_player": g.first_player, "active": g.active,
        "minor_done": g.minor_done, "major_done": g.major_done, "devil": g.devil,
        "prestige": {h: g.prestige[h] for h in HOUSES},
        "locations": {str(k): v for k, v in LOCATION_NAMES.items()},
        "board": {"id": g.board.id, "symbols": {str(k): dict(v) for k, v in g.board.symbols.items()}},
        "figures": by_loc,
        "tower": None if g.tower is None else {"owner": g.tower.owner,
                                               "locations": sorted(g.tower.locations)},
        "players": players,
        "decks": {k: len(g.z.deck[k]) for k in (MINOR, MAJOR)},
        "discards": {k: len(g.z.discard[k]) for k in (MINOR, MAJOR)},
        "discard_top": top,
        "in_play": [g.card_for(h, seat) for h in g.z.in_play],
        "decision": None if ctx is None else {
            "name": ctx.name, "actor": ctx.actor,
            **{k: ctx.data[k] for k in PUBLIC_DATA if k in ctx.data}},
        "scorings": [dict(s) for s in g.scorings],
    }
