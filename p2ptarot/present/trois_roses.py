"""The trois roses screen and move sentences, from one seat's view only
(spec/games/roses.md, rules §2).

Won piles are public but long: a seat's line shows their points and roses so far, which is what
the scoring reads (§2.7); the last trick names its excused cards, which went back to their players.
"""

from __future__ import annotations

from typing import Any, Mapping

from .cards import card_list, card_name

GROUPS: dict[str, str] = {"play": "play a card"}

_PHASES = {"first-dealer": "drawing the first dealer", "shuffle": "shuffling", "deal": "dealing",
           "play": "playing", "over": "match over"}


def _seat(s: int | None, view: Mapping[str, Any]) -> str:
    if s is None or s < 0:
        return "nobody"
    return "you" if s == view.get("seat") else f"seat {s}"


def _trick(trick: list) -> str:
    return ", ".join(f"seat {s} {card_name(c)}" for s, c in trick) or "-"


def _demand(view: Mapping[str, Any]) -> str:
    kind = view.get("demand")
    if kind is None:
        return "no demand yet (only divines, or nothing, played)"
    text = f"{view.get('demand_family')}" if kind == "minor" else "majors"
    if view.get("threshold"):
        text += f"; a major must beat {view['threshold']} if you hold one (the World always may)"
    return text


def render(view: Mapping[str, Any]) -> str:
    """The whole trois roses screen for the seat that owns `view`."""
    me = view.get("seat")
    lines = [f"== le jeu des trois roses — deal {view.get('deal')}/{view.get('deals')}"
             + (f" — you are seat {me}" if me is not None else "")
             + f" — dealer {_seat(view.get('dealer'), view)} =="]
    lines.append(f"Target {view.get('target')} points; the roses (upright Rose, inverted Rose, the World) "
                 "turn points above it into a bonus")
    phase = view.get("phase", "")
    now = _PHASES.get(phase, phase)
    if phase == "play":
        now += f", trick {view.get('trick_number')}/{view.get('tricks')} — {_seat(view.get('to_play'), view)} to play"
    lines.append(f"Now: {now}")
    if "hand" in view:
        lines.append(f"Your hand ({len(view['hand'])}): {card_list(view['hand'])}")
    if phase == "play":
        lines.append(f"Trick: {_trick(view.get('trick', []))}")
        lines.append(f"Demand: {_demand(view)}")
    if view.get("last_trick"):
        excused = view.get("last_excused") or []
        lines.append(f"Last trick: {_trick(view['last_trick'])} -> won by {_seat(view.get('last_winner'), view)}"
                     + (f" (excused, kept by: {', '.join(_seat(s, view) for s in excused)})" if excused else ""))
    lines.append("Seats:")
    sizes, points, roses, totals = (view.get(k, []) for k in ("hand_sizes", "points", "roses", "totals"))
    for s in range(view.get("players", len(sizes))):
        mark = ">" if s == view.get("to_play") else " "
        label = f"seat {s}" + (" (you)" if s == me else "")
        lines.append(f"{mark} {label:<13} hand {sizes[s]:>2} | points {points[s]:>3} | roses {roses[s]}"
                     f" | match total {totals[s]}")
    for deal in view.get("history") or []:
        lines.append(f"Deal {deal['deal']}: points {deal['points']}, roses {deal['roses']}, "
                     f"scores {deal['scores']}")
    return "\n".join(lines)


def describe(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for a trois roses move (`move` is its JSON form)."""
    if move.get("kind") == "play":
        return f"Play {card_name(move.get('card'))}"
    return str(move.get("kind")) + " " + " ".join(f"{k}={v}" for k, v in move.items() if k != "kind")


def refine_screen(view: Mapping[str, Any], names: Any, base: Mapping[str, Any]) -> dict[str, Any]:
    """The generic screen with the demand written over the trick (what a player must follow)."""
    from .tricks import trick_table
    sc = dict(base)
    demand = view.get("demand")
    what = (view.get("demand_family") if demand == "minor" else "majors") if demand else "none yet"
    n = view.get("trick_number")
    centre = (f"trick {n} of {view.get('tricks')} — " if isinstance(n, int) else "") + f"demand: {what}"
    sc["tricktable"] = trick_table(view, list(names), _table_stats, centre)
    sc["piles"] = [p for p in base.get("piles", []) if not p["label"].startswith("trick")]
    return sc


def _table_stats(view: Mapping[str, Any], s: int) -> list[tuple[str, Any]]:
    def at(key: str) -> Any:
        v = view.get(key) or []
        return v[s] if s < len(v) else 0
    return [("points", f"{at('points')} / {view.get('target')}"), ("roses", at("roses")),
            ("match", at("totals"))]
