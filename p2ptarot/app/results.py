"""Finished rounds and running totals worded for people (pure): seats become names, card ids
card names, per-player number lists "Alice 3, Bob 4"; long piles are left out."""

from __future__ import annotations

from typing import Any, Sequence

from p2ptarot.i18n import N_, _
from p2ptarot.present.cards import card_name
from p2ptarot.present.faces import is_card


#: keys of a round record whose integer value is a seat
_SEAT_KEYS = {"winner", "seat", "dealer", "opener", "taker", "loser"}
#: the round records' keys as column headings: the keys stay data (RoundOver.result), the
#: terminal and the page word them when they show them (the page's t(key) reads this catalogue)
COLUMNS = {
    "dealer": N_("dealer"), "figure": N_("figure"), "opener": N_("opener"), "points": N_("points"),
    "winner": N_("winner"), "rule": N_("rule"), "scores": N_("scores"), "deal": N_("deal"),
    "roses": N_("roses"), "totals": N_("totals"), "bets": N_("bets"), "cards": N_("cards"),
    "category": N_("category"), "out": N_("out"), "played": N_("played"), "reserve": N_("reserve"),
    "stakes": N_("stakes"), "supply": N_("supply"), "swords": N_("swords"), "wands": N_("wands"),
    "cups": N_("cups"), "coins": N_("coins"), "seat": N_("seat"), "taker": N_("taker"),
    "loser": N_("loser")}


#: words a round record holds as values (paris divins' bets and winning category): the same
#: msgids as the games' own screens
VALUES = {"minor": N_("minor"), "major": N_("major"), "divine": N_("divine")}


def column(key: str) -> str:
    """A round record's key as the heading people read ("dealer" -> "donneur")."""
    return _(COLUMNS[key]) if key in COLUMNS else key


#: where a view keeps its finished rounds (list of records)
_ROUND_KEYS = ("history", "round_winners", "rounds_played")


#: a list of more cards than this in a round record is a pile, too long for a results table
_MAX_LISTED = 6


def _word(key: str, value: Any, names: Sequence[str], seats_by_default: bool) -> Any:
    if value is None:
        return _("nobody") if key in _SEAT_KEYS else "-"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str) and value in VALUES:
        return _(VALUES[value])
    if is_card(value):
        return card_name(value)
    if isinstance(value, list) and len(value) == len(names) and len(names) > 1 \
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return ", ".join(f"{n} {v}" for n, v in zip(names, value))  # one number per player
    if isinstance(value, int) and not isinstance(value, bool) and (key in _SEAT_KEYS or seats_by_default):
        return names[value] if 0 <= value < len(names) else _("nobody")
    if isinstance(value, list):
        return ", ".join(str(_word(key, v, names, seats_by_default)) for v in value) or "-"
    if isinstance(value, dict):  # seat -> value ("0": card): "Alice 2 of cups, Bob ..."
        return ", ".join(f"{_seat_name(k, names)} {_word('', v, names, False)}"
                         for k, v in value.items()) or "-"
    return value


def _seat_name(key: Any, names: Sequence[str]) -> str:
    k = str(key)
    return names[int(k)] if k.isdigit() and int(k) < len(names) else k


def _leaves(value: Any) -> int:
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    return 1


def round_rows(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Each finished round of `view` as {column: words}: seats become names, cards card names.
    A record whose values are all integers (arcanoïd: field -> winning seat) maps to names.
    Eleusis keeps its rounds as scores and opened rules: each round shows the rule it was played
    with, so the table sees what it was looking for."""
    scores, rules = view.get("round_scores"), view.get("past_rules")
    if isinstance(scores, list) and isinstance(rules, list) and scores:
        return [{"rule": str(rule).strip() or "-",
                 "scores": _word("scores", list(sc), names, False) if isinstance(sc, list) else sc}
                for sc, rule in zip(scores, rules)]
    for key in _ROUND_KEYS:
        records = view.get(key)
        if isinstance(records, list) and records and all(isinstance(r, dict) for r in records):
            # a flag true in every round tells nothing (paris divins' "played"): no column
            constant = {k for k in records[0] if all(r.get(k) is True for r in records)}
            out = []
            for r in records:
                all_seats = all(isinstance(v, int) and not isinstance(v, bool) for v in r.values())
                out.append({str(k): _word(str(k), v, names, all_seats) for k, v in r.items()
                            if k != "round" and k not in constant and _leaves(v) <= _MAX_LISTED})
            return out
    return []


def totals(view: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Running totals per player when the view keeps them (e.g. fields won so far)."""
    for key in ("fields_won", "scores", "totals"):
        t = view.get(key)
        if isinstance(t, dict):
            return {names[int(s)] if str(s).isdigit() and int(s) < len(names) else str(s): v
                    for s, v in t.items()}
        if isinstance(t, list) and len(t) == len(names):
            return {names[i]: v for i, v in enumerate(t)}
    return {}
