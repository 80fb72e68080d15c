"""Moves written in the browser page's forms (an Eleusis rule, hint or run), as presenters see them.

The page sends plain fields (a text, chosen words, card handles), strictly parsed by
`app.events.command_from_json`; a presenter's `page_move(view, legal, form, ...)` validates them
against the seat's view and the legal moves and builds the move itself, or raises
`PageMoveError` with what to show the player (for a rule: the line and column of the fault).
"""

from __future__ import annotations


class PageMoveError(ValueError):
    """A written move the table cannot take; `line`/`column` (1-based, 0 when none) locate the
    fault in the text."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        self.message = message
        self.line = line
        self.column = column
        super().__init__(message)


__all__ = ["PageMoveError"]
