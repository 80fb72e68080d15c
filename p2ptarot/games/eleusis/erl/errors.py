"""The one error ERL raises (rules §6.7): a rule that does not lex, parse, type-check or stay
within limits.

Every error carries the 1-based line and column of the offending text so a human dealer can fix
his rule before committing it (rules §6.7).
"""

from __future__ import annotations

from p2ptarot.i18n.message import tr


class ErlError(ValueError):
    """An invalid rule; `line`/`column` locate the fault (0 when it concerns the whole text)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        self.message = message
        self.line = line
        self.column = column
        super().__init__(tr("line {line}, column {column}: {message}", line=line, column=column,
                             message=message) if line else message)
