"""Uniform reporting of bad command-line arguments (exit status 2, like argparse)."""

from __future__ import annotations

import argparse
import sys

from p2ptarot.engine import UnknownGame
from p2ptarot.engine import info as game_info

USAGE_ERROR = 2


def usage_error(args: argparse.Namespace, message: str) -> int:
    """Print `prog: error: message` on stderr and return the usage-error exit status."""
    prog = getattr(args, "prog", "p2ptarot")
    print(f"{prog}: error: {message}", file=sys.stderr)
    return USAGE_ERROR


def check_table(args: argparse.Namespace, game: str, players: int) -> int | None:
    """The usage-error status when `game` is unknown or not played by `players`, else None."""
    try:
        gi = game_info(game)
    except UnknownGame as exc:
        return usage_error(args, str(exc))
    if not gi.min_players <= players <= gi.max_players:
        return usage_error(args, f"{gi.name} is played by {gi.min_players} to {gi.max_players} "
                                 f"players, not {players}")
    return None
