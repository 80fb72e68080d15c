"""argparse's own sentences ("usage:", "the following arguments are required: ...") in the
interface's language: argparse looks its words up through gettext's default domain, which holds
none of ours, so `install` points the module's lookups at the p2ptarot catalogue. The msgids
below are argparse's (Python 3.11, %-formatted as argparse fills them in); marked here so that
the catalogue carries them."""

from __future__ import annotations

import argparse

from p2ptarot.i18n import N_, _, ngettext

#: the sentences a player can meet (help headings, usage errors); the rest are programming errors
MESSAGES = (
    N_("usage: "), N_("positional arguments"), N_("options"),
    N_("show this help message and exit"), N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"), N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"), N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"), N_("expected one argument"),
    N_("expected at most one argument"), N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"), N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("can't open '%(filename)s': %(error)s"),
)


def install() -> None:
    """argparse's words from now on in the language `p2ptarot.i18n` speaks (looked up each time
    a parser formats one, so a later `set_language` applies too)."""
    argparse._ = _  # type: ignore[attr-defined]  # argparse's module-level gettext alias
    argparse.ngettext = ngettext  # type: ignore[attr-defined]  # argparse's module-level ngettext alias, undeclared in its stub


__all__ = ["MESSAGES", "install"]
