"""`p2ptarot doctor`: why a friend cannot connect — interfaces, the card zeroconf uses and
whether multicast is heard on the LAN, each relay, STUN and the NAT's
behaviour, TURN, UDP — ending with what will work ("direct", "through TURN", "relay only
(slow)", "LAN" or "nothing: because …") and what to do.  It contacts only the servers the options
name (the same defaults as `host --online`)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from p2ptarot.cli import online
from p2ptarot.cli.errors import interface_arg
from p2ptarot.net.lan_check import LAN_WAIT
from p2ptarot.i18n import _


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("doctor", help=_("check this computer's network for online play "
                                               "and say what will work"))
    p.add_argument("--data-dir", default=None, metavar="DIR",
                   help=_("where relays.txt and ice.txt are read from"))
    p.add_argument("--interface", default=None, metavar="CARD|IP", type=interface_arg,
                   help=_("network card (or its address) zeroconf and the STUN checks use, as "
                          "`host --interface` (default: all interfaces)"))
    p.add_argument("--lan-only", action="store_true",
                   help=_("check the LAN only (zeroconf, multicast): contact no server"))
    p.add_argument("--lan-wait", type=float, default=LAN_WAIT, metavar="SECONDS",
                   help=_("seconds to listen for another computer's multicast (default 4); "
                          "run the doctor on two computers at once to test the LAN"))
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
    report = asyncio.run(doctor.diagnose(relays, list(transport.config.ice),
                                         args.interface or "0.0.0.0", args.check_timeout,
                                         transport.config.auth_keys(), lan_wait=args.lan_wait,
                                         online=not args.lan_only))
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
