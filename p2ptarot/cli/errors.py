"""Uniform reporting of bad command-line arguments (exit status 2, like argparse)."""

from __future__ import annotations

import argparse
import sys

USAGE_ERROR = 2


def usage_error(args: argparse.Namespace, message: str) -> int:
    """Print `prog: error: message` on stderr and return the usage-error exit status."""
    prog = getattr(args, "prog", "p2ptarot")
    print(f"{prog}: error: {message}", file=sys.stderr)
    return USAGE_ERROR
