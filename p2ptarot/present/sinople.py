"""The sinople tarot screen and move sentences, from one seat's view only (spec/games/sinople.md).

Cards use the rules' shorthand (``B7`` = class B, value 7). Won piles are public but long, so a
seat's line shows the count of cards taken and only the round-class cards that score.
"""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.i18n import N_, _

from .cards import card_list, card_name

#: headings for grouping long move lists by kind
GROUPS: dict[str, str] = {"play": N_("play a card"), "show": N_("show"), "pass": N_("pass")}

_GOALS = {
    "husband": N_("fewest {k} points"),
    "wife": N_("most {k} points"),
    "child": N_("closest to {t} {k} points without going over"),
}
_PHASES = {
    "figure-shuffle": N_("shuffling the figures"), "first-dealer": N_("drawing the first dealer"),
    "turn-up": N_("turning up the figure"), "numeric-shuffle": N_("shuffling the cards"),
    "deal": N_("dealing"), "opener-search": N_("looking for the opener"),
    "play": N_("playing tricks"), "over": N_("game over"),
}


def _seat(s: int | None, view: Mapping[str, Any]) -> str:
    if s is None or s < 0:
        return _("nobody")
    return _("you") if s == view.get("seat") else f"seat {s}"  # "seat N": a name (name_seats)


def _trick(trick: list) -> str:
    return ", ".join(f"{'seat ' + str(s)} {card_name(c)}" for s, c in trick) or "-"


def _goal_line(view: Mapping[str, Any]) -> str:
    fig = view.get("figure")
    if fig is None:
        return _("Figure: not turned up yet")
    k = (view.get("round_class") or "?").upper()
    goal = _(_GOALS.get(view.get("goal") or "", "")).format(k=k, t=view.get("child_target"))
    return _("Figure: {card} — {goal}").format(card=card_name(fig), goal=goal)


def _seat_lines(view: Mapping[str, Any]) -> list[str]:
    k = view.get("round_class")
    pts = view.get("points", [])
    won = view.get("won", [])
    figs = view.get("figures", [])
    sizes = view.get("hand_sizes", [])
    turn = view.get("to_play")
    out = []
    for s in range(view.get("players", len(sizes))):
        mark = ">" if s == turn else " "
        label = f"seat {s}" + (" " + _("(you)") if s == view.get("seat") else "")
        scoring = [c for c in won[s] if k and c.startswith(f"num-{k}-")] if s < len(won) else []
        out.append(f"{mark} {label:<13} " + _(
            "hand {size} | {k} points {points} ({scoring}; {taken} cards taken) | figures: "
            "{figures}").format(size=f"{sizes[s] if s < len(sizes) else '?':>2}",
                                k=(k or "?").upper(), points=f"{pts[s] if s < len(pts) else 0:>2}",
                                scoring=card_list(scoring), taken=len(won[s]) if s < len(won) else 0,
                                figures=card_list(figs[s]) if s < len(figs) else _("nothing")))
    return out


def render(view: Mapping[str, Any]) -> str:
    """The whole sinople screen for the seat that owns `view`."""
    me = view.get("seat")
    lines = ["== " + _("sinople tarot — round {n}/{total}").format(n=view.get("round"),
                                                                 total=view.get("rounds"))
             + (" — " + _("you are {seat}").format(seat=f"seat {me}") if me is not None else "")
             + " — " + _("dealer {who}").format(who=_seat(view.get("dealer"), view)) + " =="]
    lines.append(_goal_line(view))
    phase = view.get("phase", "")
    now = _(_PHASES[phase]) if phase in _PHASES else phase
    if phase == "opener-search" and view.get("search_value") is not None:
        now += ": " + _("who holds {card}?").format(
            card=f"{(view.get('round_class') or '?').upper()}{view['search_value']}")
    if phase == "play":
        now += ", " + _("trick {n} — {who} to play").format(
            n=view.get("trick_number"), who=_seat(view.get("to_play"), view))
    lines.append(_("Now: {what}").format(what=now))
    if view.get("shown") is not None:
        lines.append(_("Opener: {who} (showed {card})").format(
            who=_seat(view.get("opener"), view), card=card_name(view["shown"])))
    if "hand" in view:
        lines.append(_("Your hand ({count}): {cards}").format(
            count=len(view["hand"]), cards=card_list(sorted(view["hand"]))))
    if phase == "play":
        lines.append(_("Trick: {cards}").format(cards=_trick(view.get("trick", []))))
        if view.get("last_trick"):
            lines.append(_("Last trick: {cards} -> won by {who}").format(
                cards=_trick(view["last_trick"]), who=_seat(view.get("last_winner"), view)))
    lines.append(_("Seats:"))
    lines += _seat_lines(view)
    history = view.get("history") or []
    if history:
        last = history[-1]
        lines.append(_("Round {n}: {card} went to {who} (points {points})").format(
            n=last["round"], card=card_name(last["figure"]), who=_seat(last.get("winner"), view),
            points=last.get("points")))
    if view.get("removed"):
        lines.append(_("Figures nobody won: {cards}").format(cards=card_list(view["removed"])))
    return "\n".join(lines)


def describe(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for a sinople move (`move` is its JSON form)."""
    kind = move["kind"]
    if kind == "play":
        return _("Play {card}").format(card=card_name(move["card"]))
    if kind == "show":
        return _("Show {card} and open the round").format(card=card_name(move["card"]))
    if kind == "pass":
        if view.get("phase") == "opener-search" and view.get("search_value") is not None:
            k = (view.get("round_class") or "?").upper()
            return _("Pass (I do not hold {card})").format(card=f"{k}{view['search_value']}")
        return _("Pass")
    return kind + " " + " ".join(f"{k}={v}" for k, v in move.items() if k != "kind")


def rank_key(view: Mapping[str, Any], seat: int) -> tuple[int, ...]:
    """The final order (rules §6, R17): figures won, then children, then wives (higher first)."""
    held = (view.get("figures") or [[]] * (seat + 1))[seat] or []
    return (len(held), sum(str(f).endswith("-child") for f in held),
            sum(str(f).endswith("-wife") for f in held))


def _table_stats(view: Mapping[str, Any], s: int) -> list[tuple[str, Any]]:
    points = view.get("points") or []
    held = (view.get("figures") or [])
    figs = held[s] if s < len(held) else []
    return [(_("{k} points").format(k=str(view.get("round_class") or "").upper()),
             points[s] if s < len(points) else 0),
            (_("figures"), ", ".join(_figure_word(f) for f in figs) or _("none"))]


def _figure_word(fig: str) -> str:
    """'fig-b-wife' -> 'wife of B' (the card's name)."""
    return card_name(fig)


def refine_screen(view: Mapping[str, Any], names: Any, base: Mapping[str, Any]) -> dict[str, Any]:
    """The generic screen plus the table drawn as one: seats around it, the trick in the middle,
    each seat's points of the round's class and figures won."""
    from .seats import name_seats
    from .tricks import trick_table
    sc = dict(base)
    centre = name_seats(_goal_line(view), list(names))
    n = view.get("trick_number")
    if isinstance(n, int):
        centre = _("trick {n}").format(n=n) + " — " + centre
    sc["tricktable"] = trick_table(view, list(names), _table_stats, centre)
    sc["piles"] = [p for p in base.get("piles", []) if not p["label"].startswith("trick")]
    return sc
