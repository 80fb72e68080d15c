"""The terminal's move menus: never longer than a screen, a card at a time.

A long list of legal moves (Arcanum's "play the king of coins, moving it to the Cathedral" for
every card and place, arcanoïd's Chariot loads, a discard down to seven) becomes a few short
menus, each of at most `MENU_MAX` entries: first the card (each card once, or a kind of move
without a card), then the next card of a move that names several (picked one at a time: the
moves naming exactly the cards picked so far come first), then the targets. Where a level
would still hold more entries it is split first by kind of move, then into runs of cards or
moves (a level of plain moves, one card each, is shown whole up to `FLAT_MAX`: a trick game's
hand). 0 goes back one level. An entry with a single move plays it at once, so a short list (a
trick game: one move per card) reads and plays exactly as before.
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
#: the most entries a menu level shows (one screen, with its heading and prompt)
MENU_MAX = 12
#: ...but a level of plain moves, one card each (a trick game's hand: 15 cards in sinople) is
#: shown whole up to this many, each line playing at once
FLAT_MAX = 16
#: the user-visible words of the menus (the i18n catalogue wraps them)
TEXT = {
    "choices": N_("{label} — {n} choices"),
    "back": N_("  0. back to the first menu"),
    "up": N_("  0. back to the previous menu"),
    "which": N_("{me}, {label}: which one? [1-{n}, 0 back]"),
    "move": N_("{me}, your move [1-{n}, h for help]"),
    "pick": N_("  please type a number from 1 to {n} (h for help)"),
    "pick_sub": N_("  please type a number from 1 to {n}, or 0 to go back"),
    "span": N_("{first} … {last}"),
    "with": N_("with {cards} only"),
    "together": " + ",
}


def words(key: str) -> str:
    """A menu text in the interface's language (TEXT's values are msgids)."""
    return _(TEXT[key])


@dataclass(frozen=True)
class Entry:
    """One line of a menu: the moves (1-based numbers into the turn's options) it opens."""

    label: str
    group: str
    options: tuple[int, ...]
    #: what the moves share (a card's name), heading the next menu
    name: str = ""
    #: the cards chosen on the way to this entry (a multi-card move is picked a card at a time)
    picked: tuple[str, ...] = ()
    #: the next menu splits by kind of move no more (this entry is one kind, or a run of one)
    split: bool = False


def _name(card: str) -> str:
    name = card_name(card)
    return card if name == HIDDEN else name


def _named(o: MoveOption) -> tuple[str, ...]:
    return tuple(o.cards) if o.cards else ((o.card,) if o.card else ())


def _leaves(options: Sequence[MoveOption], numbers: Sequence[int]) -> list[Entry]:
    return [Entry(options[n - 1].sentence, options[n - 1].group, (n,), options[n - 1].sentence)
            for n in numbers]


def _entry(options: Sequence[MoveOption], label: str, numbers: list[int], picked: tuple[str, ...],
           split: bool = False) -> Entry:
    """A line opening `numbers` (a lone move is the move itself)."""
    first = options[numbers[0] - 1]
    if len(numbers) == 1:
        return Entry(first.sentence, first.group, (numbers[0],), first.sentence)
    return Entry(words("choices").format(label=label, n=len(numbers)), first.group,
                 tuple(numbers), label, picked, split)


def _runs(options: Sequence[MoveOption], entries: list[Entry], picked: tuple[str, ...],
          split: bool = True) -> list[Entry]:
    """Too many entries for a screen: runs of consecutive ones, `MENU_MAX` runs at most (`split`
    False: a run of kinds of move is split by kind again)."""
    size = -(-len(entries) // MENU_MAX)  # entries per run
    while -(-len(entries) // size) > MENU_MAX:
        size += 1
    out = []
    for k in range(0, len(entries), size):
        run = entries[k:k + size]
        if len(run) == 1:
            out.append(run[0])
            continue
        label = words("span").format(first=run[0].name or run[0].label, last=run[-1].name or run[-1].label)
        numbers = [n for e in run for n in e.options]
        out.append(_entry(options, label, numbers, picked, split=split))
    return out


def build(options: Sequence[MoveOption], numbers: Sequence[int], picked: tuple[str, ...] = (),
          flat_up_to: int = MENU_MAX, split: bool = False) -> list[Entry]:
    """The menu of the moves `numbers`, `picked` being the cards chosen on the way here."""
    numbers = list(numbers)
    if len(numbers) <= flat_up_to:
        return _leaves(options, numbers)
    # a key per move: the next card it names that is not picked yet (in the order cards first
    # appear), else its kind ("with the picked cards only", or a move naming no card)
    order: dict[str, int] = {}
    for n in numbers:
        for c in _named(options[n - 1]):
            order.setdefault(c, len(order))
    keys: dict[tuple[str, str], list[int]] = {}
    for n in numbers:
        o = options[n - 1]
        rest = sorted((c for c in _named(o) if c not in picked), key=order.__getitem__)
        if rest:
            key = ("card", rest[0])
        else:
            key = ("done" if _named(o) else "group", o.group)
        keys.setdefault(key, []).append(n)
    if len(keys) <= FLAT_MAX and all(len(ns) == 1 and kind != "done" for (kind, _w), ns in keys.items()):
        return _leaves(options, numbers)  # one move per card: the hand, each line a move
    if len(keys) == 1:
        (kind, what), = keys
        if kind == "card":  # every move names this card: it is picked, the next one is asked
            return build(options, numbers, picked + (what,), flat_up_to, split)
        # one kind of move naming no more cards: its moves in runs
        return _runs(options, _leaves(options, numbers), picked)
    groups = list(dict.fromkeys(options[n - 1].group for n in numbers))
    if len(keys) > MENU_MAX and len(groups) > 1 and not split:
        # first the kind of move, then its cards
        kinds = [_entry(options, g, [n for n in numbers if options[n - 1].group == g], picked,
                        split=True) for g in groups]
        return kinds if len(kinds) <= MENU_MAX else _runs(options, kinds, picked, split=False)
    entries = []
    for (kind, what), ns in keys.items():
        if kind == "card":
            entries.append(_entry(options, TEXT["together"].join(_name(c) for c in picked + (what,)),
                                  ns, picked + (what,)))
        elif kind == "done" and len(keys) + len(ns) - 1 <= MENU_MAX:
            entries += _leaves(options, ns)  # the moves of exactly the picked cards, in place
        elif kind == "done":
            cards = TEXT["together"].join(_name(c) for c in picked)
            entries.append(_entry(options, words("with").format(cards=cards), ns, picked,
                                  split=True))
        else:
            entries.append(_entry(options, what, ns, picked, split=True))
    return entries if len(entries) <= MENU_MAX else _runs(options, entries, picked)


def first_menu(options: Sequence[MoveOption]) -> list[Entry]:
    """The first menu: one entry per move when the list is short, else one per card (or kind
    of move without a card), split further where it would not fit a screen."""
    return build(options, range(1, len(options) + 1), flat_up_to=ONE_MENU_UP_TO)


def submenu(options: Sequence[MoveOption], entry: Entry) -> list[Entry]:
    """The menu an entry opens: its moves, as a menu of its own (cards still to pick, targets)."""
    return build(options, entry.options, entry.picked, split=entry.split)


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


def sub_lines(turn: TurnStarted, entry: Entry, entries: Sequence[Entry] | None = None,
              depth: int = 1) -> list[str]:
    """A deeper menu: the entry's heading, its lines (by default, each of its moves), the way
    back (to the first menu from the second, else one level up)."""
    if entries is None:
        entries = _leaves(turn.options, entry.options)
    width = len(str(len(entries)))
    return [f" -- {entry.name} --"] + \
        [f"  {k:>{width}}. {e.label}" for k, e in enumerate(entries, 1)] + \
        [words("back" if depth <= 1 else "up")]


__all__ = ["Entry", "FLAT_MAX", "MENU_MAX", "ONE_MENU_UP_TO", "TEXT", "build", "first_menu", "menu_lines",
           "sub_lines", "submenu", "words"]
