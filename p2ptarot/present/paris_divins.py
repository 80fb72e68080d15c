"""The paris divins screen and move sentences, from one seat's view only
(spec/games/roses.md, rules §3)."""

from __future__ import annotations

from typing import Any, Mapping

from p2ptarot.i18n import N_, _

from .cards import card_list, card_name
from .faces import face
from .seats import name_seats

GROUPS: dict[str, str] = {"wager": N_("play a card and bet")}

_PHASES = {"shuffle": N_("shuffling"), "deal": N_("dealing"),
           "choose": N_("choosing a card and a bet"), "open": N_("opening the chosen cards"),
           "over": N_("game over")}
#: the three categories a seat bets on (rules: mineures, majeures, divines)
_CATEGORIES = {"minor": N_("minor"), "major": N_("major"), "divine": N_("divine")}


def _category(bet: Any) -> str:
    return _(_CATEGORIES[bet]) if bet in _CATEGORIES else str(bet)


def _phase(phase: Any) -> str:
    return _(_PHASES[phase]) if phase in _PHASES else str(phase)


def _seat(s: int | None, view: Mapping[str, Any]) -> str:
    if s is None or s < 0:
        return _("nobody")
    return _("you") if s == view.get("seat") else f"seat {s}"  # "seat N": a name (name_seats)


def _round_line(r: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    out = " " + _("({who} out)").format(who=", ".join(_seat(s, view) for s in r["out"])) \
        if r.get("out") else ""
    if not r.get("played"):
        return _("Round {n}{out}: not played, the game ended").format(n=r["round"], out=out)
    plays = ", ".join(f"{_seat(int(s), view)} {card_name(c)}/{_category(r['bets'][s])}"
                      for s, c in r["cards"].items())
    winner = _seat(r["winner"], view) if r["winner"] is not None \
        else _("nobody (stakes returned)")
    return _("Round {n}{out}: {plays} -> {category} wins, {winner}").format(
        n=r["round"], out=out, plays=plays, category=_category(r["category"]), winner=winner)


def render(view: Mapping[str, Any]) -> str:
    """The whole paris divins screen for the seat that owns `view`."""
    me = view.get("seat")
    lines = ["== " + _("les paris divins — round {n}/{total}").format(
                n=min(view.get("round", 1), view.get("rounds", 8)), total=view.get("rounds"))
             + (" — " + _("you are {seat}").format(seat=f"seat {me}") if me is not None else "") + " =="]
    lines.append(_("Majors beat minors, divines beat majors, minors beat divines (all three: "
                   "minors); the strongest card among those who bet on the winning category takes "
                   "the stakes"))
    phase = view.get("phase", "")
    now = _phase(phase)
    if phase == "choose":
        waiting = [s for s in view.get("active", []) if s not in view.get("chosen", [])]
        now += " — " + _("waiting for {names}").format(
            names=", ".join(_seat(s, view) for s in waiting))
    lines.append(_("Now: {what}").format(what=now))
    if "hand" in view:
        lines.append(_("Your hand ({count}): {cards}").format(count=len(view["hand"]),
                                                             cards=card_list(view["hand"])))
        choice = view.get("my_choice")
        if choice:
            lines.append(_("Your choice: {card}, betting on {category}").format(
                card=card_name(choice["card"]), category=_category(choice["bet"])))
    lines.append(_("Seats:"))
    active = set(view.get("active", []))
    for s in range(view.get("players", 0)):
        label = f"seat {s}" + (" " + _("(you)") if s == me else "")
        status = _("active") if s in active else _("out")
        lines.append(f"  {label:<13} {status:<6} | " + _(
            "rounds won {won} | stake {stake} | supply {supply} | reserve {reserve}").format(
                won=view["rounds_won"][s], stake=view["stakes"][s], supply=view["supply"][s],
                reserve=view["reserve"][s]))
    for r in (view.get("history") or [])[-3:]:
        lines.append(_round_line(r, view))
    return "\n".join(lines)


def describe(move: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One sentence for a paris divins move (`move` is its JSON form)."""
    if move.get("kind") == "wager":
        handles = list(view.get("hand_handles") or [])
        hand = list(view.get("hand") or [])
        card = hand[handles.index(move["handle"])] if move.get("handle") in handles else None
        return _("Play {card} face down and bet on {category}").format(
            card=card_name(card), category=_category(move.get("bet")))
    return str(move.get("kind")) + " " + " ".join(f"{k}={v}" for k, v in move.items() if k != "kind")


# ---- the browser page: bet fields, the seats' stakes and supplies ----------------------------------
BETS = ("minor", "major", "divine")
_BEATS = {"major": N_("beats minors"), "divine": N_("beats majors"),
          "minor": N_("beats divines (and wins when all three are bet)")}


def targets(move: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """A wager's bet field on the page ("bet-major"): click a card, then the category."""
    return [f"bet-{move['bet']}"] if move.get("kind") == "wager" and move.get("bet") in BETS else []


def refine_screen(view: Mapping[str, Any], names: Any, base: Mapping[str, Any]) -> dict[str, Any]:
    """The generic screen plus the wager table: the three bet fields, each seat's stake, supply,
    reserve and rounds won, who has chosen, the seat's own choice, the last rounds in words."""

    sc = dict(base)
    me = view.get("seat")
    active, chosen = set(view.get("active", [])), set(view.get("chosen", []))

    def name(s: int) -> str:
        return names[s] if 0 <= s < len(names) else f"seat {s + 1}"

    seats = [{"seat": s, "name": name(s), "you": s == me, "active": s in active,
              "chosen": s in chosen, "rounds_won": view["rounds_won"][s], "stake": view["stakes"][s],
              "supply": view["supply"][s], "reserve": view["reserve"][s]}
             for s in range(view.get("players", 0))]
    choice = view.get("my_choice")
    history = [name_seats(_round_line(r, view), names) for r in (view.get("history") or [])[-3:]]
    sc["wager"] = {
        "phase": _phase(view.get("phase", "")),
        "bets": [{"bet": b, "label": _category(b), "beats": _(_BEATS[b])} for b in BETS],
        "seats": seats,
        "choice": None if not choice else {"card": face(choice["card"]), "bet": choice["bet"],
                                           "label": _category(choice["bet"])},
        "history": history,
    }
    rnd, rounds = view.get("round"), view.get("rounds")
    if isinstance(rnd, int) and isinstance(rounds, int):
        sc["round"] = _("round {n}/{total}").format(n=min(rnd, rounds), total=rounds)
    return sc
