"""`p2ptarot doctor`: why a friend cannot connect — interfaces, each relay, STUN and the NAT's
behaviour, TURN, UDP — ending with what will work ("direct", "through TURN", "relay only
(slow)" or "nothing: because …") and what to do.  It contacts only the servers the options
name (the same defaults as `host --online`)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from p2ptarot.cli import online
from p2ptarot.i18n import _


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("doctor", help=_("check this computer's network for online play "
                                               "and say what will work"))
    p.add_argument("--data-dir", default=None, metavar="DIR",
                   help=_("where relays.txt and ice.txt are read from"))
    p.add_argument("--interface", default="0.0.0.0", metavar="ADDRESS",
                   help=_("local address the STUN checks send from (default: any)"))
    p.add_argument("--json", action="store_true", help=_("one JSON object instead of sentences"))
    p.add_argument("--check-timeout", type=float, default=10.0, metavar="SECONDS",
                   help=_("seconds each relay check may take (default 10)"))
    online.add_online_args(p)
    p.set_defaults(run=run, prog=p.prog)


def run(args: argparse.Namespace) -> int:
    from p2ptarot.net.online import doctor
    try:
        relays = online.relays_of(args)
        transport = online.transport_of(args, False)  # (reads --relay-key-file too)
    except ValueError as exc:
        print(f"{args.prog}: {exc}", file=sys.stderr)
        return 2
    report = asyncio.run(doctor.diagnose(relays, list(transport.config.ice), args.interface,
                                         args.check_timeout, transport.config.auth_keys()))
    if args.json:
        print(doctor.as_json(report), flush=True)
        return 0 if report.verdict != "nothing" else 1
    from p2ptarot.app.connection import advice_lines, check_lines, verdict_line
    for _check, _good, line in check_lines(report):
        print(line, flush=True)
    print(verdict_line(report), flush=True)
    for line in advice_lines(report):
        print(line, flush=True)
    return 0 if report.verdict != "nothing" else 1
