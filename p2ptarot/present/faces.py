"""Card faces for the screens: what to draw for a card id, from the deck tables alone.

A face is plain JSON (`corner`, `name`, `suit`, `colour`, `kind`); the browser page draws it with
CSS (no images, nothing fetched from elsewhere) and the terminal uses `name`. Any id of any deck
in `p2ptarot.cards` gets a face, so a new game's cards are drawn without new code; an unknown or
hidden card (None) gets the face of a card back.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from p2ptarot import cards

from p2ptarot.i18n import N_, _, pgettext

from .cards import HIDDEN, card_name, roman, roses_name

_SUIT_SIGNS = {"swords": "⚔", "wands": "⚚", "cups": "♥", "coins": "⛀",
               "spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
               "a": "▲", "b": "●", "c": "■",
               "star": "★", "feather": "✒", "cup": "♥", "staff": "♣", "mask": "☻",
               "major": "◆", "world": "◆", "divine": "✦", "rose": "✦"}
_COLOURS = {"swords": "steel", "wands": "green", "cups": "red", "coins": "gold",
            "spades": "black", "clubs": "black", "hearts": "red", "diamonds": "red",
            "a": "red", "b": "green", "c": "blue",
            "star": "gold", "feather": "blue", "cup": "red", "staff": "green", "mask": "black",
            "major": "violet", "world": "violet", "divine": "gold", "rose": "red"}
#: roses figures: two letters, never one shared by two ranks (guardian and god both start with G)
#: (in French, one language per face: En Ga Ma Pa An Di, enfant ... dieu)
_ROSES_FIGURES = {"child": "Ch", "guardian": "Gu", "master": "Ma", "parent": "Pa",
                  "ancestor": "An", "god": "God"}


def roses_letter(rank: str) -> str:
    """A roses figure's letters in the reader's language."""
    letters = {"child": pgettext("roses figure letters", "Ch"),
               "guardian": pgettext("roses figure letters", "Gu"),
               "master": pgettext("roses figure letters", "Ma"),
               "parent": pgettext("roses figure letters", "Pa"),
               "ancestor": pgettext("roses figure letters", "An"),
               "god": pgettext("roses figure letters", "God")}
    return letters.get(rank, rank[:2].title())
#: the same figures in words, as a face's title shows them
_ROSES_FIGURE_WORDS = {"child": N_("child"), "guardian": N_("guardian"), "master": N_("master"),
                       "parent": N_("parent"), "ancestor": N_("ancestor"), "god": N_("god")}
_STANDARD_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
_STANDARD_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_COURTS = {"page": "P", "knave": "J", "knight": "C", "queen": "Q", "king": "K"}
#: the tarot courts whose letter is translated (a face shows one language's letters)
_COURT_LETTERS = ("page", "knave", "knight", "queen", "king")


def court_letter(court: str) -> str:
    """A court card's letter in the reader's language, one language per face: English K Q N J P
    (N as in chess: never the French C for a knight), French R Re C V V (roi, reine as the catalogue names her, cavalier, valet)."""
    if court == "king":
        return pgettext("court letter", "K")
    if court == "queen":
        return pgettext("court letter", "Q")
    if court == "knight":
        return pgettext("court letter", "N")
    if court == "knave":
        return pgettext("court letter", "J")
    if court == "page":
        return pgettext("court letter", "P")
    return court[:1].upper()
BACK: dict[str, Any] = {"id": None, "corner": "?", "name": "a hidden card", "suit": "",
                        "sign": "", "colour": "back", "kind": "back", "order": 10_000}


def _attrs(card: Any) -> dict[str, Any]:
    return {k: getattr(card, k) for k in getattr(card, "__slots__", ()) if not k.startswith("_")}


@lru_cache(maxsize=4096)
def _face(card_id: str) -> dict[str, Any] | None:
    if card_id in cards.SINOPLE:
        c = cards.SINOPLE[card_id]
        if c.kind == "numeric":
            return {"corner": f"{c.cls.upper()}{c.value}", "name": f"{c.cls.upper()}{c.value}",
                    "suit": c.cls, "kind": "numeric", "big": str(c.value), "order": c.index}
        return {"corner": f"{c.cls.upper()}", "name": f"{c.role} of {c.cls.upper()}", "suit": c.cls,
                "kind": "figure", "big": (c.role or "?")[0].upper(), "order": c.index}
    for table in (cards.ARCANOID, cards.ARCANUM):
        try:
            tarot = table.card(card_id)
        except (cards.UnknownCardError, AttributeError, KeyError, TypeError):
            continue
        a = _attrs(tarot)
        kind = a.get("kind", "")
        if kind == "minor":
            rank = int(a.get("rank") or 0)
            court = card_id.rsplit("-", 1)[-1] if a.get("court") else None
            short = _COURTS.get(court, court[:1].upper()) if court else ("A" if rank == 1 else str(rank))
            name = f"{court or ('ace' if rank == 1 else rank)} of {a.get('suit')}"
            return {"corner": short, "name": name, "suit": a.get("suit", ""), "kind": "minor",
                    "big": short, "order": int(a.get("index", 0))}
        number = a.get("number")
        title = str(a.get("name", card_id))
        corner = roman(number) if isinstance(number, int) and number > 0 else "0"
        name = f"{roman(number)} {title}" if isinstance(number, int) and number > 0 else title
        return {"corner": corner, "name": name, "suit": "trumps", "kind": "trump", "big": corner,
                "title": title, "order": int(a.get("index", 0))}
    try:
        standard = cards.standard_card(card_id)
    except (cards.CardError, KeyError, TypeError, ValueError):
        standard = None
    if standard is not None:
        shown = _STANDARD_RANKS.get(standard.rank, str(standard.rank))
        word = _STANDARD_WORDS.get(standard.rank, str(standard.rank))
        return {"corner": shown, "name": f"{word} of {standard.suit}", "suit": standard.suit,
                "kind": "standard", "big": shown, "order": standard.suit_index * 13 + standard.rank}
    try:
        r = cards.roses_card(card_id)
    except (cards.CardError, KeyError, TypeError, ValueError):
        r = None
    if r is not None:
        name = roses_name(card_id)
        if r.category == "minor":
            word = card_id.rsplit("-", 1)[-1]
            short = word if word.isdigit() else _ROSES_FIGURES.get(word, word[:2].title())
            return {"corner": short, "name": name, "suit": r.family or "", "kind": "minor",
                    "big": short, "title": "" if word.isdigit() else word, "order": r.index}
        # majors (a diamond, violet) and divines (a sparkle, gold) never share a face; the
        # three roses carry a rose
        if card_id in ("rose-upright", "rose-inverted"):
            return {"corner": str(r.value), "name": name, "suit": "rose", "kind": "divine",
                    "big": "❀", "title": name, "order": r.index}
        if r.category == "divine":
            return {"corner": str(r.value), "name": name, "suit": "divine", "kind": "divine",
                    "big": str(r.value), "title": name, "order": r.index}
        short = str(r.value) if r.value else "W"
        return {"corner": short, "name": name, "suit": "world" if card_id == "world" else "major",
                "kind": "trump", "big": "❀" if card_id == "world" else short, "title": name,
                "order": r.index}
    return None


def _sinople_letter(role: str) -> str:
    """A sinople figure's letter: H, W, C in English; in French the rules text's words, époux,
    épouse, enfant, would all be E or É, so their first and last letters: Éx, Ée, En."""
    if role == "husband":
        return pgettext("sinople figure letter", "H")
    if role == "wife":
        return pgettext("sinople figure letter", "W")
    return pgettext("sinople figure letter", "Ch")  # not "C": the class C is drawn beside it


def face(card_id: object) -> dict[str, Any]:
    """The face of a card id (a card back when hidden or unknown)."""
    if not isinstance(card_id, str):
        return dict(BACK, name=_(HIDDEN))
    f = _face(card_id)
    if f is None:
        return dict(BACK, name=_(HIDDEN))
    suit = f.get("suit", "")
    out = {"id": card_id, "sign": _SUIT_SIGNS.get(suit, "★" if f["kind"] == "trump" else "•"),
           "colour": _COLOURS.get(suit, "violet" if f["kind"] == "trump" else "grey"), **f}
    # the words in the interface's language (the cached face keeps the deck's English)
    out["name"] = card_name(card_id)
    if f["kind"] == "figure" and card_id in cards.SINOPLE:
        out["big"] = _sinople_letter(str(cards.SINOPLE[card_id].role))
    court = card_id.rsplit("-", 1)[-1]
    if f["kind"] == "minor" and court in _COURT_LETTERS:  # a tarot court: its letter, translated
        out["big"] = out["corner"] = court_letter(court)
    if f.get("title") == f.get("name"):  # roses: the title is the card's name
        out["title"] = out["name"]
    elif suit == "trumps":
        out["title"] = _(str(f.get("title", "")))
    elif f.get("title") in _ROSES_FIGURE_WORDS:  # a roses minor figure: "guardian"
        figure = str(f.get("title"))
        out["title"] = _(_ROSES_FIGURE_WORDS[figure])
        out["big"] = out["corner"] = roses_letter(figure)
    return out


def is_card(value: object) -> bool:
    return isinstance(value, str) and _face(value) is not None


def sort_key(card_id: object) -> tuple[int, str]:
    """Hand order: the deck's canonical order (hidden cards last)."""
    f = face(card_id)
    return int(f.get("order", 10_000)), str(card_id)
