"""A trick game's table for the page (sinople, trois roses): the seats around it, the trick in
the middle, each seat's numbers as drawn elements (points, figures, roses), not a text block.
Pure: built from one seat's view and the players' names."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .faces import face

#: a seat's drawn numbers: (label, value) pairs from the view
Stats = Callable[[Mapping[str, Any], int], list[tuple[str, Any]]]


def trick_table(view: Mapping[str, Any], names: Sequence[str], stats: Stats, centre: str,
                last: str = "") -> dict[str, Any]:
    """{"seats": [...], "centre": text, "last": text}: one entry per seat in seat order with its
    name, hand size, whether it leads or plays now, the card it put in the trick and its stats."""
    me = view.get("seat")
    played = {s: c for s, c in view.get("trick") or [] if isinstance(s, int)}
    sizes = view.get("hand_sizes") or []
    seats = []
    for s in range(len(names)):
        seats.append({
            "seat": s, "name": names[s], "you": s == me,
            "hand": sizes[s] if s < len(sizes) else None,
            "leads": view.get("leader") == s, "to_play": view.get("to_play") == s,
            "dealer": view.get("dealer") == s,
            "card": face(played[s]) if s in played else None,
            "stats": [[label, value] for label, value in stats(view, s)],
        })
    return {"seats": seats, "centre": centre, "last": last}


__all__ = ["trick_table"]
