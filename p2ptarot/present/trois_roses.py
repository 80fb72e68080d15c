"""The trois roses screen and move sentences, from one seat's view only
(spec/games/roses.md, rules §2).

Won piles are public but long: a seat's line shows their points and roses so far, which is what
the scoring reads (§2.7); the last trick names its excused cards, which went back to their players.
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.i18n import N_, _

from .cards import card_list, card_name

GROUPS: dict[str, str] = {"play": N_("play a card")}

_PHASES = {"first-dealer": N_("drawing the first dealer"), "shuffle": N_("shuffling"),
           "deal": N_("dealing"), "play": N_("playing"), "over": N_("match over")}
#: the demanded family, in words
_FAMILIES = {"star": N_("star"), "feather": N_("feather"), "staff": N_("staff"),
             "cup": N_("cup"), "mask": N_("mask")}


def _seat(s: int | None, view: Mapping[str, Any]) -> str:
    if s is None or s < 0:
        return _("nobody")
    return _("you") if s == view.get("seat") else f"seat {s}"  # "seat N": a name (name_seats)


def _trick(trick: list) -> str:
    return ", ".join(f"seat {s} {card_name(c)}" for s, c in trick) or "-"


def _demand(view: Mapping[str, Any]) -> str:
    kind = view.get("demand")
    if kind is None:
        return _("no demand yet (only divines, or nothing, played)")
    text = _family(view.get("demand_family")) if kind == "minor" else _("majors")
    if view.get("threshold"):
        text += "; " + _("a major must beat {value} if you hold one (the World always may)").format(
            value=view["threshold"])
    return text


def _family(family: Any) -> str:
    return _(_FAMILIES[family]) if family in _FAMILIES else str(family)


def render(view: Mapping[str, Any]) -> str:
    """The whole trois roses screen for the seat that owns `view`."""
    me = view.get("seat")
    lines = ["== " + _("le jeu des trois roses — deal {n}/{total}").format(
                n=view.get("deal"), total=view.get("deals"))
             + (" — " + _("you are {seat}").format(seat=f"seat {me}") if me is not None else "")
             + " — " + _("dealer {who}").format(who=_seat(view.get("dealer"), view)) + " =="]
    lines.append(_("Target {target} points; the roses (upright Rose, inverted Rose, the World) "
                   "turn points above it into a bonus").format(target=view.get("target")))
    phase = view.get("phase", "")
    now = _(_PHASES[phase]) if phase in _PHASES else phase
    if phase == "play":
        now += ", " + _("trick {n}/{total} — {who} to play").format(
            n=view.get("trick_number"), total=view.get("tricks"),
            who=_seat(view.get("to_play"), view))
    lines.append(_("Now: {what}").format(what=now))
    if "hand" in view:
        lines.append(_("Your hand ({count}): {cards}").format(count=len(view["hand"]),
                                                             cards=card_list(view["hand"])))
    if phase == "play":
        lines.append(_("Trick: {cards}").format(cards=_trick(view.get("trick", []))))
        lines.append(_("Demand: {what}").format(what=_demand(view)))
    if view.get("last_trick"):
        excused = view.get("last_excused") or []
        lines.append(_("Last trick: {cards} -> won by {who}").format(
                         cards=_trick(view["last_trick"]), who=_seat(view.get("last_winner"), view))
                     + (" " + _("(excused, kept by: {who})").format(
                         who=", ".join(_seat(s, view) for s in excused)) if excused else ""))
    lines.append(_("Seats:"))
    sizes, points, roses, totals = (view.get(k, []) for k in ("hand_sizes", "points", "roses", "totals"))
    for s in range(view.get("players", len(sizes))):
        mark = ">" if s == view.get("to_play") else " "
        label = f"seat {s}" + (" " + _("(you)") if s == me else "")
        lines.append(f"{mark} {label:<13} " + _(
            "hand {size} | points {points} | roses {roses} | match total {total}").format(
                size=f"{sizes[s]:>2}", points=f"{points[s]:>3}", roses=roses[s], total=totals[s]))
    for deal in view.get("history") or []:
        lines.append(_("Deal {n}: points {points}, roses {roses}, scores {scores}").format(
            n=deal["deal"], points=deal["points"], roses=deal["roses"], scores=deal["scores"]))
    return "\n".join(lines)


def describe(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for a trois roses move (`move` is its JSON form)."""
    if move.get("kind") == "play":
        return _("Play {card}").format(card=card_name(move.get("card")))
    return str(move.get("kind")) + " " + " ".join(f"{k}={v}" for k, v in move.items() if k != "kind")


def refine_screen(view: Mapping[str, Any], names: Any, base: Mapping[str, Any]) -> dict[str, Any]:
    """The generic screen with the demand written over the trick (what a player must follow)."""
    from .tricks import trick_table
    sc = dict(base)
    demand = view.get("demand")
    what = (_family(view.get("demand_family")) if demand == "minor" else _("majors")) if demand \
        else _("none yet")
    n = view.get("trick_number")
    centre = (_("trick {n} of {total}").format(n=n, total=view.get("tricks")) + " — "
              if isinstance(n, int) else "") + _("demand: {what}").format(what=what)
    sc["tricktable"] = trick_table(view, list(names), _table_stats, centre)
    sc["piles"] = [p for p in base.get("piles", []) if not p["label"].startswith("trick")]
    return sc


def _table_stats(view: Mapping[str, Any], s: int) -> list[tuple[str, Any]]:
    def at(key: str) -> Any:
        v = view.get(key) or []
        return v[s] if s < len(v) else 0
    return [(_("points"), f"{at('points')} / {view.get('target')}"), (_("roses"), at("roses")),
            (_("match"), at("totals"))]
