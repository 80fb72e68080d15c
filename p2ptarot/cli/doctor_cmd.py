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
        transport = online.transport_of(args, False)
    except ValueError as exc:
        print(f"{args.prog}: {exc}", file=sys.stderr)
        return 2
    report = asyncio.run(doctor.diagnose(relays, list(transport.config.ice), args.interface,
                                         args.check_timeout))
    if args.json:
        print(doctor.as_json(report), flush=True)
        return 0 if report.verdict != "nothing" else 1
    say = lambda text: print(text, flush=True)  # noqa: E731
    say(_("interfaces: {list}").format(list=", ".join(f"{n} {ip}" for n, ip in report.interfaces)))
    for r in report.relays:
        if r.carries:
            say(_("relay {url}: carries our events (round trip {ms} ms, events up to {cap} "
                  "characters)").format(url=r.url, ms=r.round_trip_ms, cap=r.cap))
        else:
            say(_("relay {url}: not usable ({why})").format(url=r.url, why=r.problem))
    stun = report.stun
    for url, ip, port in stun.mapped:
        say(_("STUN {url}: this computer is seen as {ip}:{port}").format(url=url, ip=ip,
                                                                        port=port))
    if stun.udp_blocked:
        say(_("STUN: no answer over UDP ({why})").format(why=stun.problem))
    else:
        say(_("NAT: {kind}").format(kind=stun.nat))
    for t in report.turn:
        say(_("TURN {url}: allocation {result}").format(
            url=t.server, result=_("succeeds") if t.allocated else _("fails ({why})").format(
                why=t.problem)))
    if report.verdict == "nothing":
        say(_("verdict: nothing: because {why}").format(why=report.because))
    else:
        say(_("verdict: {verdict} (and LAN play), because {why}").format(
            verdict=report.verdict, why=report.because))
    for line in report.advice:
        say(_("to do: {advice}").format(advice=line))
    return 0 if report.verdict != "nothing" else 1
