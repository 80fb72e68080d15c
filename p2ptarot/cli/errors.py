"""Uniform reporting of bad command-line arguments (exit status 2, like argparse)."""

from __future__ import annotations

import argparse
import sys

from p2ptarot.engine import BadConfiguration, UnknownGame
from p2ptarot.engine import info as game_info
from p2ptarot.i18n import _
from p2ptarot.i18n.message import render as say

USAGE_ERROR = 2


def usage_error(args: argparse.Namespace, message: str) -> int:
    """Print `prog: error: message` on stderr and return the usage-error exit status."""
    prog = getattr(args, "prog", "p2ptarot")
    print(_("{prog}: error: {message}").format(prog=prog, message=say(message)),  # a lower layer's too
          file=sys.stderr)
    return USAGE_ERROR


def check_table(args: argparse.Namespace, game: str, players: int,
                variant: str | None = None) -> int | None:
    """The usage-error status when `game` is unknown, not played by `players`, or has no playable
    variant `variant` (None: its default), else None. Checked before anything is advertised."""
    try:
        gi = game_info(game)
        gi.check_players(players)
        gi.resolve_variant(variant)
    except (UnknownGame, BadConfiguration) as exc:
        return usage_error(args, say(exc.args[0] if exc.args else exc))
    return None


def interface_arg(value: str) -> str:
    """argparse type of `--interface`: a card's name or an address, resolved to the address
    every socket and zeroconf then bind (p2ptarot.net.interfaces)."""
    from p2ptarot.net.interfaces import InterfaceError, resolve_interface

    try:
        return resolve_interface(value)
    except InterfaceError as exc:
        raise argparse.ArgumentTypeError(say(exc)) from exc
