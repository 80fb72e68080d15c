"""ERL, the Eleusis rule language (rules §6; normative text: spec/ERL.md).

`compile_rule(text)` lexes, parses, type-checks and guards a rule and returns a `Rule` that
judges candidates; any fault raises `ErlError` with a line and column. No `eval`, no Python
`ast`: a hand-written parser bounded in size and depth, and closures for evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from p2ptarot.cards.standard52 import standard_card

from .checker import check_rule
from .errors import ErlError
from .evaluator import Facts, Fn, compile_node
from .hints import HINTS, check_hint_syntax, hint_holds, true_hints
from .nodes import Node
from .parser import parse

VERSION = 1


def facts(card_id: str) -> Facts:
    """(rank, suitnum) of a standard card id of any copy; the copy is invisible to rules."""
    card = standard_card(card_id)
    return (card.rank, card.suitnum)


@dataclass(frozen=True)
class Rule:
    """A valid rule: its exact text, its frozen tree and the compiled judge."""

    text: str
    tree: Node = field(repr=False, compare=False)
    _fn: Fn = field(repr=False, compare=False)

    def accepts(self, main_line: Sequence[Facts], candidate: Facts) -> bool:
        """Whether `candidate` is correct after `main_line` (oldest first, starter included)."""
        n = len(main_line)
        if n < 1:
            raise ValueError("the main line always holds the starter")
        last = tuple(main_line[-1:-4:-1])
        return bool(self._fn(n, candidate, last, {}))

    def accepts_run(self, main_line: Sequence[Facts], run: Iterable[Facts]) -> bool:
        """A run is right when every card is correct after the line extended by the ones before
        it (R7)."""
        line = list(main_line)
        for card in run:
            if not self.accepts(line, card):
                return False
            line.append(card)
        return True


def compile_rule(text: str) -> Rule:
    """The valid rule of `text`, or ErlError (rules §6.7)."""
    tree = parse(text)
    check_rule(tree)
    return Rule(text, tree, compile_node(tree))


def validate(text: str) -> None:
    """Raise ErlError unless `text` is a valid rule."""
    compile_rule(text)


__all__ = ["HINTS", "VERSION", "ErlError", "Facts", "Rule", "check_hint_syntax", "compile_rule",
           "facts", "hint_holds", "true_hints", "validate"]
