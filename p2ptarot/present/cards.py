"""Human card names for the screens, built on the names `p2ptarot.cards` already defines.

Why a layer on top: the deck tables title-case everything ("Three of Cups"), which reads badly in
a sentence; players talk of "3 of cups", "queen of cups", "XVII The Star". Sinople cards get the
rules' own shorthand (``B7`` = ``num-b-7``, rules §2); Tarot des Roses cards their family or group
and value (``role 2 (10)``: the role major worth 10). An id that is missing (``None``: a card this
seat may not see) or unknown renders as "a hidden card", never as the raw id.
"""

from __future__ import annotations

from p2ptarot.cards import ARCANOID, ARCANUM, ROSES, SINOPLE, UnknownCardError
from p2ptarot.cards import CardError, standard_card

HIDDEN = "a hidden card"

_ROMAN = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(n: int) -> str:
    """Roman numeral of a trump number (1–21); "0" for the Fool's 0 (the one `roman`)."""
    out = []
    for value, sign in _ROMAN:
        while n >= value:
            out.append(sign)
            n -= value
    return "".join(out) or "0"


def tarot_rank(card_id: str) -> str:
    """The rank alone of a minor card ("ace", "7", "queen"): enough on a field of its own suit."""
    c = ARCANOID.card(card_id)
    if c.court:
        return card_id.rsplit("-", 1)[1]
    return "ace" if c.rank == 1 else str(c.rank)


def tarot_title(card_id: str) -> str:
    """A major's name without its number ("The Star"); a minor's full name otherwise."""
    c = ARCANOID.card(card_id)
    if c.kind == "minor":
        return f"{tarot_rank(card_id)} of {c.suit}"
    return c.name


def tarot_name(card_id: str) -> str:
    """'3 of cups', 'queen of cups', 'XVII The Star', 'The Fool'."""
    c = ARCANOID.card(card_id)
    if c.kind == "trump" and c.number is not None:
        return f"{roman(c.number)} {c.name}"
    return tarot_title(card_id)


def sinople_name(card_id: str) -> str:
    """'B7' for a numeric card (rules §2 shorthand), 'wife of B' for a figure."""
    c = SINOPLE[card_id]
    if c.kind == "numeric":
        return f"{c.cls.upper()}{c.value}"
    return f"{c.role} of {c.cls.upper()}"


_STANDARD_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def arcanum_name(card_id: str) -> str:
    """'7 of cups', 'knave of coins', 'XVII The Star' (Arcanum's own 78: knaves, `major-N`)."""
    c = ARCANUM.card(card_id)
    if c.kind == "minor":
        rank = card_id.rsplit("-", 1)[1] if c.court else ("ace" if c.rank == 1 else str(c.rank))
        return f"{rank} of {c.suit}"
    return f"{roman(c.number or 0)} {c.name}" if c.number else str(c.name)


def standard_name(card_id: str) -> str:
    """'queen of hearts' for 'hearts-12#2' (the copy is irrelevant in play)."""
    c = standard_card(card_id)
    return f"{_STANDARD_WORDS.get(c.rank, str(c.rank))} of {c.suit}"


def card_name(card_id: object) -> str:
    """The human name of any card id of every deck (the one `card_name` of the front ends);
    'a hidden card' if unknown or None."""
    if not isinstance(card_id, str):
        return HIDDEN
    if card_id in SINOPLE:
        return sinople_name(card_id)
    if card_id in ROSES:
        return roses_name(card_id)
    for name in (tarot_name, arcanum_name, standard_name):
        try:
            return name(card_id)
        except (UnknownCardError, CardError, KeyError, TypeError, ValueError, AttributeError):
            continue
    return HIDDEN


def card_list(card_ids: list | tuple) -> str:
    """Comma-separated names, or 'nothing' for an empty list."""
    return ", ".join(card_name(c) for c in card_ids) if card_ids else "nothing"


_ROSES_SPECIAL = {"world": "the World", "rose-inverted": "the inverted Rose", "rose-upright": "the upright Rose"}
_FAMILY_PLURAL = {"star": "stars", "feather": "feathers", "staff": "staves", "cup": "cups", "mask": "masks"}


def roses_name(card_id: str) -> str:
    """'5 of cups', 'god of masks', 'role 2 (10)', 'divine 4', 'the World', 'the upright Rose'."""
    c = ROSES[card_id]
    if card_id in _ROSES_SPECIAL:
        return _ROSES_SPECIAL[card_id]
    if c.category == "minor":
        rank = card_id.rsplit("-", 1)[1]
        return f"{rank} of {_FAMILY_PLURAL[c.family or '']}"
    if c.category == "major":
        number = card_id.rsplit("-", 1)[1]
        return f"{c.group} {number} ({c.value})"
    return f"divine {c.value}"
