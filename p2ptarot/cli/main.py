"""Entry point of the `p2ptarot` console script.

Each subcommand lives in its own module exposing `add_parser(subparsers)` (which registers the
subcommand and sets `run` and `prog` defaults) and `run(args) -> int`; add its name and module to
COMMANDS to add a subcommand. Only the module of the command being run is imported (every module
for the overall help or an unknown command): `p2ptarot games` or `verify` never load the network
stack, and a peer process does not load the verifier's or the simulator's front end.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from p2ptarot import PROTOCOL_VERSION, __version__
from p2ptarot._startup import collector_held, install as install_startup_levers
from p2ptarot.i18n import LANGUAGES, _, set_language

from .argparse_words import install as install_argparse_words
from .taskdump import install as install_task_dump

install_startup_levers()  # before any command module is imported: see p2ptarot/_startup.py

#: command -> the module of this package that registers and runs it (in the order of the help)
COMMANDS: dict[str, str] = {
    "games": "games_cmd", "simulate": "simulate", "host": "peer", "join": "peer", "list": "peer",
    "demo": "demo", "verify": "verify_cmd", "replay": "verify_cmd", "web": "web_cmd",
    "doctor": "doctor_cmd",
}


def _modules(argv: Sequence[str] | None) -> list[str]:
    """The modules to import for this command line: the named command's, or all of them."""
    words = [w for w in argv or () if not w.startswith("-")]
    if words and words[0] in COMMANDS:
        return [COMMANDS[words[0]]]
    return list(dict.fromkeys(COMMANDS.values()))


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv` (every subcommand when None)."""
    parser = argparse.ArgumentParser(
        prog="p2ptarot", description=_("Serverless peer-to-peer tarot-deck card games."))
    parser.add_argument("--version", action="version",
                        version=f"p2ptarot {__version__} (protocol {PROTOCOL_VERSION})")
    subparsers = parser.add_subparsers(title=_("commands"), metavar="COMMAND")
    for name in _modules(argv):
        importlib.import_module(f"{__package__}.{name}").add_parser(subparsers)
    for sub in subparsers.choices.values():  # every command speaks the same languages
        sub.add_argument("--lang", choices=LANGUAGES, default=None,
                         help=_("language of the interface (default: the system's, from LANGUAGE, "
                              "LC_ALL, LC_MESSAGES or LANG; English when it is neither)"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # the process's own entry point: `kill -USR1` prints what it waits on
        install_task_dump()
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C before a command took over (e.g. while modules load)
        print("p2ptarot: interrupted", file=sys.stderr)
        return 130


def _lang_given(argv: Sequence[str]) -> str | None:
    """`--lang X` or `--lang=X` on the command line, read before the parser is built so that
    `--help` is in that language too (the parser checks the value afterwards)."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word.startswith("--lang="):
            return word.split("=", 1)[1]
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
    return None


def _parse(argv: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The parser of this command line (its command's module imported) and its arguments, in
    the language they ask for."""
    if not argv:  # a player's first command: the lobby, opened in the browser (its address printed)
        argv = list(BARE)
    early = _lang_given(argv)
    set_language(early if early in LANGUAGES else None)  # the help's language
    install_argparse_words()  # argparse's own usage and error sentences in it too
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    set_language(getattr(args, "lang", None))
    return parser, args


#: what a bare `p2ptarot` runs: the player's way in, the lobby in the default browser
BARE = ("web", "--open")


def _main(argv: Sequence[str] | None) -> int:
    with collector_held(freeze=argv is None):  # the command's modules load (see p2ptarot/_startup.py)
        parser, args = _parse(sys.argv[1:] if argv is None else list(argv))
    run = getattr(args, "run", None)
    if run is None:
        parser.print_usage(sys.stderr)
        print(_("{prog}: error: {message}").format(prog="p2ptarot",
                                                   message=_("a command is required")),
              file=sys.stderr)
        return 2
    args.command_line = main  # what a command that starts peers of its own runs in each (demo)
    try:
        return int(run(args))
    except BrokenPipeError:  # e.g. `p2ptarot replay FILE | head`: the reader left early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit flush
        return 128 + 13  # the shell's convention for a process ended by SIGPIPE


if __name__ == "__main__":
    raise SystemExit(main())
