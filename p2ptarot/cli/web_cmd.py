"""`p2ptarot web`: the browser lobby (open tables on the LAN, and with --online the ones on the
NOSTR relays: sit at one or type an invitation code, or host one with bots, and play it in the
page) or, with --replay FILE, a finished game step by step in the browser."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from p2ptarot.app.clock import DEFAULT_MOVE_TIMEOUT
from p2ptarot.app.events import ReplayLoaded
from p2ptarot.app.human import LeftTable
from p2ptarot.app.replay import frames
from p2ptarot.i18n import _
from p2ptarot.i18n.message import render as say
from p2ptarot.app.hub import Hub
from p2ptarot.peer.config import DEFAULT_STAND_IN_AFTER, PeerConfig
from p2ptarot.peer.store import read_transcript
from p2ptarot.present.seats import name_seats
from p2ptarot.transcript import TranscriptError, verify_transcript

from . import online
from .errors import interface_arg, usage_error

if TYPE_CHECKING:
    from p2ptarot.web.lobby import OnlineSide


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("web", help=_("the browser lobby, or a replay in the browser"),
                              description=__doc__)
    p.add_argument("--replay", type=Path, default=None, metavar="FILE",
                   help=_("step through this transcript in the browser instead of the lobby"))
    p.add_argument("--name", default=os.environ.get("USER", "player"), help=_("your display name"))
    p.add_argument("--interface", default=None, metavar="CARD|IP", type=interface_arg,
                   help=_("LAN card (a name or its address) for zeroconf and the game "
                        "(default: all interfaces)"))
    p.add_argument("--data-dir", type=Path, default=Path.home() / ".p2ptarot", metavar="DIR")
    p.add_argument("--web-port", type=int, default=0, metavar="PORT")
    p.add_argument("--web-interface", default="127.0.0.1", metavar="IP",
                   help=_("address the page listens on (default 127.0.0.1: this computer only)"))
    p.add_argument("--timeout", type=int, default=120,
                   help=_("seconds a stalled step waits before this peer asks everyone again for "
                          "what it missed (default 120); silence never convicts: a table whose "
                          "step waits past its limit ({limit} s) is abandoned, blaming "
                          "nobody").format(limit=DEFAULT_MOVE_TIMEOUT))
    p.add_argument("--open", action="store_true",
                   help=_("open the page in the default web browser (a bare p2ptarot does)"))
    online.add_online_args(p)
    p.set_defaults(run=run, prog=p.prog)


def open_in_browser(url: str) -> None:
    """Show `url` in the default browser without waiting for it (some browsers' commands return
    only when their window closes); the address is printed anyway, so a failure is only told."""
    import threading
    import webbrowser

    def go() -> None:
        try:
            if not webbrowser.open(url):
                print(_("no web browser found: open the address above yourself"), flush=True)
        except Exception:  # noqa: BLE001 - the address is printed: the player can still open it
            print(_("no web browser found: open the address above yourself"), flush=True)
    threading.Thread(target=go, daemon=True).start()


def online_side(args: argparse.Namespace) -> OnlineSide | None:
    """With --online (or --relay, --relay-only): the relays the lobby lists, a transport for
    each game, the options a hosted table's bots join with; `OnlineConfigError` if unusable."""
    if not (online.wants_online(args) or args.relay):
        return None
    online.transport_of(args, False)  # a setting that cannot be used is told now
    from p2ptarot.web.lobby import OnlineSide
    quiet = argparse.Namespace(**{**vars(args), "no_default_stun": True})
    without = OnlineSide(tuple(online.relays_of(quiet)), lambda: online.transport_of(quiet, False),
                         online.bot_args(quiet))
    return OnlineSide(tuple(online.relays_of(args)), lambda: online.transport_of(args, False),
                      online.bot_args(args), without)


def replay_event(path: Path) -> ReplayLoaded:
    transcript = read_transcript(path)
    verdict = verify_transcript(transcript)
    names, moves = frames(transcript)
    # the reason in the reader's language with the players' names; the evidence it quotes, listed
    reason = verdict.cause
    reason = "".join([name_seats(say(reason), names)] + [" — " + _(
        "evidence: seat {seat}'s signed {kind} message of step {step} (digest {digest}), re-checked "
        "by this replay").format(seat=e["seat"], kind=e["kind"], step=e["step"], digest=e["digest"])
        for e in verdict.evidence])
    said = (_("transcript verified: {steps} steps").format(steps=verdict.steps) if verdict.valid
            else _("transcript INVALID at step {step}: {reason}").format(step=verdict.step,
                                                                          reason=reason))
    return ReplayLoaded(tuple(names), tuple(f.to_json() for f in moves), said)


async def serve(args: argparse.Namespace) -> int:
    from p2ptarot.web.lobby import Lobby
    from p2ptarot.web.server import WebServer

    hub = Hub()
    lobby = None
    if args.replay is not None:
        hub.publish(replay_event(args.replay))
    else:
        cfg = PeerConfig(data_dir=args.data_dir, name=args.name, interface=args.interface,
                         timeout=args.timeout, hub=hub, ready=False,  # the page has a Ready button
                         move_timeout=DEFAULT_MOVE_TIMEOUT,
                         stand_in_after=DEFAULT_STAND_IN_AFTER,  # a table hosted from the page
                         say=lambda text: print(text, flush=True))
        lobby = Lobby(hub, cfg, [args.interface] if args.interface else None, args.online_side)
    server = WebServer(hub, host=args.web_interface, port=args.web_port,
                       lang=getattr(args, "lang", None),
                       on_command=lobby.command if lobby else None)
    url = await server.start()
    print(_("open this page in your browser: {url}").format(url=url), flush=True)
    print(_("Ctrl-C stops"), flush=True)
    if getattr(args, "open", False):
        open_in_browser(url)
    try:
        if lobby is not None:  # the page's Leave is the lobby's: back to its list, never an exit
            watching = asyncio.create_task(lobby.watch())
            try:
                await asyncio.Event().wait()
            finally:
                watching.cancel()
        else:
            await asyncio.Event().wait()
    finally:
        if lobby is not None:
            await lobby.close()  # a table hosted from the page: its bot processes end too
        await server.close()
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        args.online_side = online_side(args)
    except ValueError as exc:  # an online setting that cannot be used (a sentence)
        return usage_error(args, str(exc))
    try:
        return asyncio.run(serve(args))
    except TranscriptError as exc:
        print(f"{args.prog}: {say(exc)}", file=sys.stderr)
        return 2
    except LeftTable as exc:
        print(f"{args.prog}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
