"""ERL lexical structure (rules §6.2): ASCII text, `#` comments, integers, names, reserved words.

The lexer is a single forward scan with no backtracking; it refuses any byte outside the
language (tabs, spaces and LF are the only whitespace) and reports positions as line/column.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ErlError
from p2ptarot.i18n.message import tr

MAX_TEXT_BYTES = 4096
MAX_INT = 9999
MAX_NAME = 32

RESERVED: frozenset[str] = frozenset(
    "accept let if then else and or not implies in true false n c p1 p2 p3 last sum prod min max "
    "abs rank suit suitnum color odd even face prime red black clubs diamonds hearts spades".split())

#: two-character symbols are tried before one-character ones
SYMBOLS2 = ("==", "!=", "<=", ">=")
SYMBOLS1 = frozenset("<>+-*/%(){},.=;")

INT, WORD, NAME, SYM, END = "int", "word", "name", "sym", "end"


@dataclass(frozen=True, slots=True)
class Token:
    """One token: `kind` (int, word = reserved word, name, sym, end), its text and position."""

    kind: str
    text: str
    line: int
    column: int

    @property
    def value(self) -> int:
        return int(self.text)


def _is_name_start(ch: str) -> bool:
    return "a" <= ch <= "z"


def _is_name_char(ch: str) -> bool:
    return "a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"


def tokenize(text: str) -> list[Token]:
    """The tokens of `text` followed by an `end` token; ErlError with a position otherwise."""
    if not isinstance(text, str):
        raise ErlError(tr("a rule is a text"))
    if len(text) > MAX_TEXT_BYTES:  # before any work on a hostile megabyte
        raise ErlError(tr("the rule text is longer than {max} bytes", max=MAX_TEXT_BYTES))
    try:
        size = len(text.encode("ascii"))
    except UnicodeEncodeError:
        bad = next(i for i, ch in enumerate(text) if ord(ch) > 127)
        line = text.count("\n", 0, bad) + 1
        column = bad - (text.rfind("\n", 0, bad) + 1) + 1
        raise ErlError(tr("the rule text must be ASCII"), line, column) from None
    if size > MAX_TEXT_BYTES:
        raise ErlError(tr("the rule text is {size} bytes, more than {max}",
                          size=size, max=MAX_TEXT_BYTES))
    tokens: list[Token] = []
    i, line, line_start, end = 0, 1, 0, len(text)
    while i < end:
        ch = text[i]
        column = i - line_start + 1
        if ch == "\n":
            i += 1
            line += 1
            line_start = i
        elif ch in " \t":
            i += 1
        elif ch == "#":
            while i < end and text[i] != "\n":
                i += 1
        elif "0" <= ch <= "9":
            j = i
            while j < end and "0" <= text[j] <= "9":
                j += 1
            if j < end and _is_name_char(text[j]):
                raise ErlError(tr("a number may not run into a name: {text}",
                                  text=repr(text[i:j + 1])), line, column)
            digits = text[i:j]
            if int(digits) > MAX_INT:  # at most 4096 digits: well within int()'s limit
                raise ErlError(tr("integer {digits} is larger than {max}",
                                  digits=digits, max=MAX_INT), line, column)
            tokens.append(Token(INT, digits, line, column))
            i = j
        elif _is_name_start(ch):
            j = i
            while j < end and _is_name_char(text[j]):
                j += 1
            word = text[i:j]
            if j < end and "A" <= text[j] <= "Z":
                raise ErlError(tr("names use lower-case letters, digits and '_' only"), line, j - line_start + 1)
            if word in RESERVED:
                tokens.append(Token(WORD, word, line, column))
            else:
                if len(word) > MAX_NAME:
                    raise ErlError(tr("name {name}… is longer than {max} characters",
                                      name=word[:MAX_NAME], max=MAX_NAME),
                                   line, column)
                tokens.append(Token(NAME, word, line, column))
            i = j
        elif text.startswith(SYMBOLS2, i):
            tokens.append(Token(SYM, text[i:i + 2], line, column))
            i += 2
        elif ch in SYMBOLS1:
            tokens.append(Token(SYM, ch, line, column))
            i += 1
        elif ch == "\r":
            raise ErlError(tr("lines end with LF; carriage returns are not allowed"), line, column)
        else:
            shown = ch if ch.isprintable() else f"\\x{ord(ch):02x}"
            said = tr("unexpected character {char} (names are lower-case)", char=repr(shown)) \
                if "A" <= ch <= "Z" else tr("unexpected character {char}", char=repr(shown))
            raise ErlError(said, line, column)
    column = end - line_start + 1
    tokens.append(Token(END, "", line, column))
    return tokens
