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
from p2ptarot.i18n import N_, _, pgettext

HIDDEN = N_("a hidden card")

#: rank words of the minor cards and the 52-card deck (French as the rules say them)
_RANK_WORDS = {"ace": N_("ace"), "page": N_("page"), "knave": N_("knave"), "knight": N_("knight"),
               "queen": N_("queen"), "king": N_("king")}
#: "of <suit>" as one msgid, so that French elides ("valet d'épées", "as de coupes")
_OF_SUIT = {"swords": N_("of swords"), "wands": N_("of wands"), "cups": N_("of cups"),
            "coins": N_("of coins"), "hearts": N_("of hearts"), "diamonds": N_("of diamonds"),
            "clubs": N_("of clubs"), "spades": N_("of spades")}
#: the majors' names (the deck tables' English names; French as the rules texts use them)
_TRUMP_WORDS = (N_("The Magician"), N_("The High Priestess"), N_("The Empress"),
                N_("The Emperor"), N_("The Hierophant"), N_("The Lovers"), N_("The Chariot"),
                N_("Justice"), N_("The Hermit"), N_("The Wheel of Fortune"), N_("Strength"),
                N_("The Hanged Man"), N_("Death"), N_("Temperance"), N_("The Devil"),
                N_("The Tower"), N_("The Star"), N_("The Moon"), N_("The Sun"), N_("Judgement"),
                N_("The World"), N_("The Fool"))


def _rank_word(word: str) -> str:
    return _(_RANK_WORDS[word]) if word in _RANK_WORDS else word


def _of_suit(suit: object) -> str:
    return _(_OF_SUIT[str(suit)]) if str(suit) in _OF_SUIT else f"of {suit}"

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
        return _rank_word(card_id.rsplit("-", 1)[1])
    return _rank_word("ace") if c.rank == 1 else str(c.rank)


def tarot_title(card_id: str) -> str:
    """A major's name without its number ("The Star"); a minor's full name otherwise."""
    c = ARCANOID.card(card_id)
    if c.kind == "minor":
        return f"{tarot_rank(card_id)} {_of_suit(c.suit)}"
    return _(c.name)


def tarot_name(card_id: str) -> str:
    """'3 of cups', 'queen of cups', 'XVII The Star', 'The Fool'."""
    c = ARCANOID.card(card_id)
    if c.kind == "trump" and c.number is not None:
        return f"{roman(c.number)} {_(c.name)}"
    return tarot_title(card_id)


def sinople_name(card_id: str) -> str:
    """'B7' for a numeric card (rules §2 shorthand), 'wife of B' for a figure."""
    c = SINOPLE[card_id]
    if c.kind == "numeric":
        return f"{c.cls.upper()}{c.value}"
    return _(_SINOPLE_FIGURES.get(str(c.role), "{role} of {cls}")).format(
        role=c.role, cls=c.cls.upper())


#: sinople's figures (rules §2: époux, épouse, enfant)
_SINOPLE_FIGURES = {"husband": N_("husband of {cls}"), "wife": N_("wife of {cls}"),
                    "child": N_("child of {cls}")}


_STANDARD_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def arcanum_name(card_id: str) -> str:
    """'7 of cups', 'knave of coins', 'XVII The Star' (Arcanum's own 78: knaves, `major-N`)."""
    c = ARCANUM.card(card_id)
    if c.kind == "minor":
        rank = card_id.rsplit("-", 1)[1] if c.court else ("ace" if c.rank == 1 else str(c.rank))
        return f"{_rank_word(rank)} {_of_suit(c.suit)}"
    return f"{roman(c.number or 0)} {_(c.name)}" if c.number else _(str(c.name))


def standard_name(card_id: str) -> str:
    """'queen of hearts' for 'hearts-12#2' (the copy is irrelevant in play)."""
    c = standard_card(card_id)
    word = _STANDARD_WORDS.get(c.rank)
    return f"{_standard_word(word) if word else c.rank} {_of_suit(c.suit)}"


def _standard_word(word: str) -> str:
    """The 52-card deck's court words (French says dame, not the tarot's reine)."""
    if word == "queen":
        return pgettext("52 cards", "queen")
    if word == "jack":
        return pgettext("52 cards", "jack")
    return _rank_word(word)


def card_name(card_id: object) -> str:
    """The human name of any card id of every deck (the one `card_name` of the front ends);
    'a hidden card' if unknown or None."""
    if not isinstance(card_id, str):
        return _(HIDDEN)
    if card_id in SINOPLE:
        return sinople_name(card_id)
    if card_id in ROSES:
        return roses_name(card_id)
    for name in (tarot_name, arcanum_name, standard_name):
        try:
            return name(card_id)
        except (UnknownCardError, CardError, KeyError, TypeError, ValueError, AttributeError):
            continue
    return _(HIDDEN)


def card_list(card_ids: list | tuple) -> str:
    """Comma-separated names, or 'nothing' for an empty list."""
    return ", ".join(card_name(c) for c in card_ids) if card_ids else _("nothing")


_ROSES_SPECIAL = {"world": N_("the World"), "rose-inverted": N_("the inverted Rose"),
                  "rose-upright": N_("the upright Rose")}
#: "of <family>" for the numbered minors (5 of cups)
_FAMILY_PLURAL = {"star": N_("of stars"), "feather": N_("of feathers"), "staff": N_("of staves"),
                  "cup": N_("of cups"), "mask": N_("of masks")}
#: the figures by family: French genders them differently per family (rules §1.2)
_ROSES_FIGURES = {
    "star": {"child": N_("child of stars"), "guardian": N_("guardian of stars"),
             "master": N_("master of stars"), "parent": N_("parent of stars"),
             "ancestor": N_("ancestor of stars"), "god": N_("god of stars")},
    "feather": {"child": N_("child of feathers"), "guardian": N_("guardian of feathers"),
                "master": N_("master of feathers"), "parent": N_("parent of feathers"),
                "ancestor": N_("ancestor of feathers"), "god": N_("god of feathers")},
    "staff": {"child": N_("child of staves"), "guardian": N_("guardian of staves"),
              "master": N_("master of staves"), "parent": N_("parent of staves"),
              "ancestor": N_("ancestor of staves"), "god": N_("god of staves")},
    "cup": {"child": N_("child of cups"), "guardian": N_("guardian of cups"),
            "master": N_("master of cups"), "parent": N_("parent of cups"),
            "ancestor": N_("ancestor of cups"), "god": N_("god of cups")},
    "mask": {"child": N_("child of masks"), "guardian": N_("guardian of masks"),
             "master": N_("master of masks"), "parent": N_("parent of masks"),
             "ancestor": N_("ancestor of masks"), "god": N_("god of masks")},
}
_ROSES_GROUPS = {"nature": N_("nature"), "role": N_("role"), "concept": N_("concept")}


def roses_name(card_id: str) -> str:
    """'5 of cups', 'god of masks', 'role 2 (10)', 'divine 4', 'the World', 'the upright Rose'."""
    c = ROSES[card_id]
    if card_id in _ROSES_SPECIAL:
        return _(_ROSES_SPECIAL[card_id])
    if c.category == "minor":
        rank = card_id.rsplit("-", 1)[1]
        figure = _ROSES_FIGURES[c.family or ""].get(rank)
        return _(figure) if figure else f"{rank} {_(_FAMILY_PLURAL[c.family or ''])}"
    if c.category == "major":
        number = card_id.rsplit("-", 1)[1]
        return f"{_(_ROSES_GROUPS.get(str(c.group), str(c.group)))} {number} ({c.value})"
    return _("divine {value}").format(value=c.value)
