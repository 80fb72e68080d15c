"""The sinople tarot screen and move sentences, from one seat's view only (spec/games/sinople.md).

Cards use the rules' shorthand (``B7`` = class B, value 7). Won piles are public but long, so a
seat's line shows the count of cards taken and only the round-class cards that score.
"""

from __future__ import annotations

from typing import Any, Mapping

from .cards import card_list, card_name

#: headings for grouping long move lists by kind
GROUPS: dict[str, str] = {"play": "play a card", "show": "show", "pass": "pass"}

_GOALS = {
    "husband": "fewest {k} points",
    "wife": "most {k} points",
    "child": "closest to {t} {k} points without going over",
}
_PHASES = {
    "figure-shuffle": "shuffling the figures", "first-dealer": "drawing the first dealer",
    "turn-up": "turning up the figure", "numeric-shuffle": "shuffling the cards",
    "deal": "dealing", "opener-search": "looking for the opener", "play": "playing tricks",
    "over": "game over",
}


def _seat(s: int | None, view: Mapping[str, Any]) -> str:
    if s is None or s < 0:
        return "nobody"
    return "you" if s == view.get("seat") else f"seat {s}"


def _trick(trick: list) -> str:
    return ", ".join(f"{'seat ' + str(s)} {card_name(c)}" for s, c in trick) or "-"


def _goal_line(view: Mapping[str, Any]) -> str:
    fig = view.get("figure")
    if fig is None:
        return "Figure: not turned up yet"
    k = (view.get("round_class") or "?").upper()
    goal = _GOALS.get(view.get("goal") or "", "").format(k=k, t=view.get("child_target"))
    return f"Figure: {card_name(fig)} — {goal}"


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
        label = f"seat {s}" + (" (you)" if s == view.get("seat") else "")
        scoring = [c for c in won[s] if k and c.startswith(f"num-{k}-")] if s < len(won) else []
        out.append(f"{mark} {label:<13} hand {sizes[s] if s < len(sizes) else '?':>2}"
                   f" | {(k or '?').upper()} points {pts[s] if s < len(pts) else 0:>2}"
                   f" ({card_list(scoring)}; {len(won[s]) if s < len(won) else 0} cards taken)"
                   f" | figures: {card_list(figs[s]) if s < len(figs) else 'nothing'}")
    return out


def render(view: Mapping[str, Any]) -> str:
    """The whole sinople screen for the seat that owns `view`."""
    me = view.get("seat")
    lines = [f"== sinople tarot — round {view.get('round')}/{view.get('rounds')}"
             + (f" — you are seat {me}" if me is not None else "")
             + f" — dealer {_seat(view.get('dealer'), view)} =="]
    lines.append(_goal_line(view))
    phase = view.get("phase", "")
    now = _PHASES.get(phase, phase)
    if phase == "opener-search" and view.get("search_value") is not None:
        now += f": who holds {(view.get('round_class') or '?').upper()}{view['search_value']}?"
    if phase == "play":
        now += f", trick {view.get('trick_number')} — {_seat(view.get('to_play'), view)} to play"
    lines.append(f"Now: {now}")
    if view.get("shown") is not None:
        lines.append(f"Opener: {_seat(view.get('opener'), view)} (showed {card_name(view['shown'])})")
    if "hand" in view:
        lines.append(f"Your hand ({len(view['hand'])}): {card_list(sorted(view['hand']))}")
    if phase == "play":
        lines.append(f"Trick: {_trick(view.get('trick', []))}")
        if view.get("last_trick"):
            lines.append(f"Last trick: {_trick(view['last_trick'])} -> won by "
                         f"{_seat(view.get('last_winner'), view)}")
    lines.append("Seats:")
    lines += _seat_lines(view)
    history = view.get("history") or []
    if history:
        last = history[-1]
        lines.append(f"Round {last['round']}: {card_name(last['figure'])} went to "
                     f"{_seat(last.get('winner'), view)} (points {last.get('points')})")
    if view.get("removed"):
        lines.append(f"Figures nobody won: {card_list(view['removed'])}")
    return "\n".join(lines)


def describe(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for a sinople move (`move` is its JSON form)."""
    kind = move["kind"]
    if kind == "play":
        return f"Play {card_name(move['card'])}"
    if kind == "show":
        return f"Show {card_name(move['card'])} and open the round"
    if kind == "pass":
        if view.get("phase") == "opener-search" and view.get("search_value") is not None:
            k = (view.get("round_class") or "?").upper()
            return f"Pass (I do not hold {k}{view['search_value']})"
        return "Pass"
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
    return [(f"{str(view.get('round_class') or '').upper()} points", points[s] if s < len(points) else 0),
            ("figures", ", ".join(_figure_word(f) for f in figs) or "none")]


def _figure_word(fig: str) -> str:
    """'fig-b-wife' -> 'wife of B'."""
    parts = str(fig).split("-")
    return f"{parts[2]} of {parts[1].upper()}" if len(parts) == 3 else str(fig)


def refine_screen(view: Mapping[str, Any], names: Any, base: Mapping[str, Any]) -> dict[str, Any]:
    """The generic screen plus the table drawn as one: seats around it, the trick in the middle,
    each seat's points of the round's class and figures won."""
    from .screen import name_seats
    from .tricks import trick_table
    sc = dict(base)
    centre = name_seats(_goal_line(view), list(names))
    n = view.get("trick_number")
    if isinstance(n, int):
        centre = f"trick {n} — " + centre
    sc["tricktable"] = trick_table(view, list(names), _table_stats, centre)
    sc["piles"] = [p for p in base.get("piles", []) if not p["label"].startswith("trick")]
    return sc
