"""A move written in a page form (`WriteMove`) answered for the human chooser: the game's
presenter (`page_move`) validates the fields and builds the move; every refusal becomes a
`FormReply` for the page, never an exception that would end the seat's game."""

from __future__ import annotations

from typing import Any

from p2ptarot.i18n import N_, _
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
        return None, FormReply(cmd.form, False, _("that form belongs to an earlier turn (now {turn})")
                               .format(turn=turn))
    try:
        move, note = mod.page_move(view, legal, cmd.form, cmd.text, cmd.choices, cmd.handles)
    except PageMoveError as exc:
        return None, FormReply(cmd.form, False, exc.message, exc.line, exc.column,
                               _excerpt(cmd.text, exc.line))
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):  # never end the game
        return None, FormReply(cmd.form, False, _(_UNREADABLE[cmd.form]))
    warning = "; " + _("warning: {note}").format(note=note) if note else ""
    if cmd.check:
        return None, FormReply(cmd.form, True, _(_CHECKED[cmd.form]).format(warning=warning))
    return move, FormReply(cmd.form, True, _(_DONE[cmd.form]) + warning, played=True)


#: the replies to a written move, by form (WRITE_FORMS: rule, hint, run)
_UNREADABLE = {"rule": N_("this rule cannot be read"), "hint": N_("this hint cannot be read"),
               "run": N_("this run cannot be read")}
_CHECKED = {"rule": N_("valid rule{warning} (checked only: nothing is committed yet)"),
            "hint": N_("valid hint{warning} (checked only: nothing is committed yet)"),
            "run": N_("valid run{warning} (checked only: nothing is committed yet)")}
_DONE = {"rule": N_("valid rule, committed"), "hint": N_("hint given"), "run": N_("run played")}


__all__ = ["answer_written"]
