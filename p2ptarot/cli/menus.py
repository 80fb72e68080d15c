"""The terminal's move menus: first the card, then its targets.

A long list of legal moves (Arcanum's "play the king of coins, moving it to the Cathedral" for
every card and place, arcanoïd's engagements) becomes two short menus: the first lists each card
once (or the cards a move names together, or a kind of move without a card), the second the
moves of the chosen entry. An entry with a single move plays it at once, so a short list (a trick
game: one move per card) reads and plays exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from p2ptarot.app.events import TurnStarted
from p2ptarot.i18n import N_, _
from p2ptarot.present.cards import HIDDEN, card_name
from p2ptarot.present.options import MoveOption

#: a list this long or shorter is shown in one menu
ONE_MENU_UP_TO = 8
#: the user-visible words of the menus (the i18n catalogue wraps them)
TEXT = {
    "choices": N_("{label} — {n} choices"),
    "back": N_("  0. back to the first menu"),
    "which": N_("{me}, {label}: which one? [1-{n}, 0 back]"),
    "move": N_("{me}, your move [1-{n}, h for help]"),
    "pick": N_("  please type a number from 1 to {n} (h for help)"),
    "pick_sub": N_("  please type a number from 1 to {n}, or 0 to go back"),
    "together": " + ",
}


def words(key: str) -> str:
    """A menu text in the interface's language (TEXT's values are msgids)."""
    return _(TEXT[key])


@dataclass(frozen=True)
class Entry:
    """One line of the first menu: the moves (1-based numbers into the turn's options) it opens."""

    label: str
    group: str
    options: tuple[int, ...]
    #: what the moves share (a card's name), heading the second menu
    name: str = ""


def _key(o: MoveOption) -> tuple[str, ...]:
    if o.cards:
        return ("cards", *sorted(o.cards))
    if o.card:
        return ("card", o.card)
    return ("group", o.group)


def _name(card: str) -> str:
    name = card_name(card)
    return card if name == HIDDEN else name


def _label(key: tuple[str, ...], first: MoveOption) -> str:
    if key[0] == "cards":
        return TEXT["together"].join(_name(c) for c in first.cards)
    if key[0] == "card":
        return _name(key[1])
    return first.group


def first_menu(options: Sequence[MoveOption]) -> list[Entry]:
    """The first menu: one entry per move when the list is short, else one per card (or cards,
    or kind of move without a card), in the order the moves are listed."""
    if len(options) <= ONE_MENU_UP_TO:
        return [Entry(o.sentence, o.group, (n,), o.sentence) for n, o in enumerate(options, start=1)]
    keys: dict[tuple[str, ...], list[int]] = {}
    for n, o in enumerate(options, start=1):
        keys.setdefault(_key(o), []).append(n)
    out = []
    for key, numbers in keys.items():
        first = options[numbers[0] - 1]
        name = _label(key, first)
        label = first.sentence if len(numbers) == 1 else \
            words("choices").format(label=name, n=len(numbers))
        out.append(Entry(label, first.group, tuple(numbers), name))
    return out


def menu_lines(entries: Sequence[Entry]) -> list[str]:
    """The first menu, under group headings when it mixes several kinds of move."""
    grouped = len({e.group for e in entries}) > 1 and len(entries) > ONE_MENU_UP_TO
    width = len(str(len(entries)))
    out, last = [], None
    for n, e in enumerate(entries, start=1):
        if grouped and e.group != last:
            count = sum(1 for x in entries if x.group == e.group)
            out.append(f" -- {e.group} ({count}) --")
            last = e.group
        out.append(f"  {n:>{width}}. {e.label}")
    return out


def sub_lines(turn: TurnStarted, entry: Entry) -> list[str]:
    """The second menu: the moves of one entry, then the way back."""
    width = len(str(len(entry.options)))
    return [f" -- {entry.name} --"] + \
        [f"  {k:>{width}}. {turn.options[n - 1].sentence}" for k, n in enumerate(entry.options, 1)] + \
        [words("back")]


__all__ = ["Entry", "ONE_MENU_UP_TO", "TEXT", "words", "first_menu", "menu_lines", "sub_lines"]
