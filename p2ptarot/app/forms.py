"""A move written in a page form (`WriteMove`) answered for the human chooser: the game's
presenter (`page_move`) validates the fields and builds the move; every refusal becomes a
`FormReply` for the page, never an exception that would end the seat's game."""

from __future__ import annotations

from typing import Any

from p2ptarot.present.page import PageMoveError
from p2ptarot.present.presenter import Presenter

from .events import FormReply, WriteMove


def _excerpt(text: str, line: int) -> str:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[line - 1][:200] if 0 < line <= len(lines) else ""


def answer_written(mod: Presenter, view: Any, legal: Any, turn: int,
                   cmd: WriteMove) -> tuple[Any | None, FormReply]:
    """(the move to play or None, the reply for the page)."""
    if cmd.turn != turn:
        return None, FormReply(cmd.form, False, f"that form belongs to an earlier turn (now {turn})")
    try:
        move, note = mod.page_move(view, legal, cmd.form, cmd.text, cmd.choices, cmd.handles)
    except PageMoveError as exc:
        return None, FormReply(cmd.form, False, exc.message, exc.line, exc.column,
                               _excerpt(cmd.text, exc.line))
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):  # never end the game
        return None, FormReply(cmd.form, False, f"this {cmd.form} cannot be read")
    warning = f"; warning: {note}" if note else ""
    if cmd.check:
        return None, FormReply(cmd.form, True,
                               f"valid {cmd.form}{warning} (checked only: nothing is committed yet)")
    done = {"rule": "valid rule, committed", "hint": "hint given", "run": "run played"}[cmd.form]
    return move, FormReply(cmd.form, True, done + warning, played=True)


__all__ = ["answer_written"]
