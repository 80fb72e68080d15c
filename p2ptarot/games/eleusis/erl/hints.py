"""Structured hints (rules §6.10): binding, syntactic statements about the rule text.

They are checked on the rule's tokens (comments are not part of the rule), so they are exact and
cheap. Free-text hints are table talk and never checked.
"""

from __future__ import annotations

from .errors import ErlError
from .lexer import INT, WORD, tokenize
from p2ptarot.i18n.message import tr

IGNORES_COLOUR = "ignores colour"
IGNORES_RANK = "ignores rank"
IGNORES_POSITION = "ignores position"
HISTORY = ("history 1", "history 2", "history 3")
HINTS: tuple[str, ...] = (IGNORES_COLOUR, IGNORES_RANK, IGNORES_POSITION) + HISTORY

_COLOUR_WORDS = frozenset({"suit", "suitnum", "color", "red", "black", "clubs", "diamonds",
                           "hearts", "spades"})
_RANK_WORDS = frozenset({"rank", "odd", "even", "face", "prime"})


def check_hint_syntax(hint: object) -> str:
    """`hint` if it is one of the structured hints, ErlError otherwise."""
    if not isinstance(hint, str) or hint not in HINTS:
        raise ErlError(tr("unknown structured hint {hint} (known: {known})",
                          hint=repr(hint), known=', '.join(HINTS)))
    return hint


def hint_holds(text: str, hint: str) -> bool:
    """Whether the (valid) rule `text` satisfies the structured hint `hint`."""
    check_hint_syntax(hint)
    tokens = tokenize(text)
    words = {t.text for t in tokens if t.kind == WORD}
    if hint == IGNORES_COLOUR:
        return not words & _COLOUR_WORDS
    if hint == IGNORES_RANK:
        return not words & _RANK_WORDS
    if hint == IGNORES_POSITION:
        return "n" not in words
    k = int(hint.split()[1])
    if any(f"p{j}" in words for j in range(k + 1, 4)):
        return False
    for i, t in enumerate(tokens[:-1]):
        if t.kind == WORD and t.text == "last":
            window = tokens[i + 1]
            if window.kind == INT and int(window.text) > k:
                return False
    return True


def true_hints(text: str) -> tuple[str, ...]:
    """Every structured hint the (valid) rule `text` satisfies, in HINTS order."""
    return tuple(h for h in HINTS if hint_holds(text, h))
