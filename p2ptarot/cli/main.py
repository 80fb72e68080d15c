"""Entry point of the `p2ptarot` console script.

Each subcommand lives in its own module exposing `add_parser(subparsers)` (which registers the
subcommand and sets `run` and `prog` defaults) and `run(args) -> int`; add a module to COMMANDS to
add a subcommand.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType
from typing import Sequence

from p2ptarot import PROTOCOL_VERSION, __version__

from . import demo, games_cmd, peer, simulate, verify_cmd, web_cmd

COMMANDS: tuple[ModuleType, ...] = (games_cmd, simulate, peer, demo, verify_cmd, web_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p2ptarot", description="Serverless peer-to-peer tarot-deck card games.")
    parser.add_argument("--version", action="version",
                        version=f"p2ptarot {__version__} (protocol {PROTOCOL_VERSION})")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:
        parser.print_usage(sys.stderr)
        print("p2ptarot: error: a command is required", file=sys.stderr)
        return 2
    try:
        return int(run(args))
    except BrokenPipeError:  # e.g. `p2ptarot replay FILE | head`: the reader left early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit flush
        return 128 + 13  # the shell's convention for a process ended by SIGPIPE


if __name__ == "__main__":
    raise SystemExit(main())
