"""`p2ptarot host`, `join` and `list`: play on the LAN (the network subcommands)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from p2ptarot import app, cli
from p2ptarot.app.clock import DEFAULT_MOVE_TIMEOUT
from p2ptarot.app.events import Notice
from p2ptarot.bots import make as make_bot
from p2ptarot.engine import BadConfiguration, Move
from p2ptarot.i18n import N_, _
from p2ptarot.i18n.message import render as say
from p2ptarot.net.finder import describe as describe_table
from p2ptarot.net.lan import DEFAULT_HEARTBEAT
from p2ptarot.peer.bots import LocalBots, host_with_bots
from p2ptarot.peer.config import (DEFAULT_LOBBY_GRACE, DEFAULT_LOBBY_RECONNECT,
                                  DEFAULT_STAND_IN_AFTER, GameResult, PeerConfig, RunError)
from p2ptarot.peer.run import bot_chooser, run_join, run_resume
from p2ptarot.peer.store import DataDir
from p2ptarot.table.charter import MAX_STAND_IN_AFTER

from . import online
from .errors import check_table, interface_arg, usage_error

if TYPE_CHECKING:  # zeroconf is imported only by the commands that browse (not `join ws://`)
    from p2ptarot.app.hub import Hub
    from p2ptarot.net.discovery import TableAdvert

#: the bots `--bot` names (p2ptarot.bots.BOTS, not imported before a bot is made: it loads the
#: games' heuristics)
BOT_KINDS = ("heuristic", "random")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", default=os.environ.get("USER", "player"), help=_("your display name"))
    p.add_argument("--interface", default=None, metavar="CARD|IP", type=interface_arg,
                   help=_("bind sockets and zeroconf to this network card (a name such as eth0, "
                        "or its address; default: all interfaces)"))
    p.add_argument("--port", type=int, default=0, help=_("listening port (default: any free port)"))
    p.add_argument("--data-dir", type=Path, default=Path.home() / ".p2ptarot", metavar="DIR",
                   help=_("identity key, secrets and transcripts (default: ~/.p2ptarot)"))
    p.add_argument("--bot", nargs="?", const="heuristic", default=None, metavar="KIND",
                   choices=BOT_KINDS,
                   help=_("let a bot play this seat (random or heuristic; default heuristic)"))
    p.add_argument("--seed", type=int, default=None, help=_("seed of the bot's choices"))
    p.add_argument("--test-seed", type=int, default=None, metavar="N",
                   help=_("TESTS AND BENCHMARKS ONLY: derive this peer's identity key and every "
                        "secret of its table (hence the deal) from N; anyone who knows N knows "
                        "the cards"))
    p.add_argument("--timeout", type=int, default=120,
                   help=_("seconds a stalled step waits before this peer pushes its recent "
                        "messages to the seats it waits for and asks everyone for what it missed "
                        "(default 120; ending the table is the charter's --move-timeout)"))
    p.add_argument("--move-timeout", type=int, default=DEFAULT_MOVE_TIMEOUT, metavar="SECONDS",
                   help="host: the table's limit, written in its charter: seconds a step may "
                        "wait on a seat (its move, or its link coming back) before the table is "
                        f"abandoned, blaming nobody (default {DEFAULT_MOVE_TIMEOUT}: enough to "
                        "think over a move in the slowest game). A player is warned 60 s and "
                        "15 s before; then the table's stand-in policy applies (--stand-in-after)")
    p.add_argument("--watch", action="store_true",
                   help=_("print the public table as it is played (e.g. for a bot seat)"))
    p.add_argument("--web", action="store_true",
                   help=_("also show the table in your browser (a local page; the URL is printed)"))
    p.add_argument("--web-port", type=int, default=0, metavar="PORT",
                   help=_("port of the local page (default: any free port)"))
    p.add_argument("--web-interface", default="127.0.0.1", metavar="IP",
                   help=_("address the local page listens on (default 127.0.0.1: this computer only)"))
    p.add_argument("--quiet", action="store_true", help=_("print only the result (one JSON line)"))
    p.add_argument("--json", action="store_true", help=_("end with one JSON line of the result"))
    p.add_argument("--not-ready", action="store_true",
                   help=_("sit down without being ready: the table waits until you type `ready` "
                        "(default: ready as soon as you sit; bots always are)"))
    p.add_argument("--lobby-timeout", type=float, default=600.0, metavar="SECONDS",
                   help=_("give up if the table has not started after this long (default 600)"))
    p.add_argument("--lobby-reconnect", type=float, default=DEFAULT_LOBBY_RECONNECT,
                   metavar="SECONDS",
                   help=_("before the game starts, how long a dropped link may take to come back: "
                          "a joiner re-dials its host that long, a host keeps a dropped joiner's "
                          "seat (or waits for its charter signature) that long (default {seconds})"
                          ).format(seconds=f"{DEFAULT_LOBBY_RECONNECT:g}"))
    p.add_argument("--heartbeat", type=float, default=DEFAULT_HEARTBEAT, metavar="SECONDS",
                   help=f"ping every link this often; a link silent this long is dropped and "
                        f"dialled again (online: a ping every third of it, a data channel "
                        f"silent two heartbeats is dropped; default {DEFAULT_HEARTBEAT:g})")


def _common_online(p: argparse.ArgumentParser) -> None:
    online.add_online_args(p)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    h = subparsers.add_parser("host", help=_("open a table on the LAN and play at seat 0"),
                              description=_("Advertise a table with zeroconf, wait for players, play."))
    h.add_argument("--game", required=True, help=_("the game to play (see `p2ptarot games`)"))
    h.add_argument("--variant", default=None, help=_("a variant of the game (default: its base rules)"))
    h.add_argument("--seats", type=int, required=True, help=_("number of players, you included"))
    h.add_argument("--bots", type=int, default=0, help=_("fill this many seats with local bot processes"))
    h.add_argument("--lobby-grace", type=float, default=DEFAULT_LOBBY_GRACE, metavar="SECONDS",
                   help="a table hosted by a bot (--bot) starts this long after its seats were "
                        "all taken, with the players ready by then, so a joiner that never says "
                        f"ready cannot hold it (default {DEFAULT_LOBBY_GRACE:g})")
    h.add_argument("--stand-in-after", type=int, default=None, metavar="SECONDS",
                   help=_("table policy, written in the charter: when a human has left (page "
                        "closed, terminal gone) this long, their own peer lets a bot play their "
                        "seat until they come back, and a connected player's overdue move is "
                        "played by the bot just before the move time runs out (the seat stays "
                        "theirs). 0 = never: an overdue table is abandoned. A player who is "
                        "connected is never replaced for thinking. Default 60 s; 0 when "
                        "--move-timeout is 60 s or less. Must be shorter than --move-timeout"))
    _common(h)
    _common_online(h)
    h.set_defaults(run=run_host_cmd, prog=h.prog)

    j = subparsers.add_parser("join", help=_("sit down at a table on the LAN"),
                              description=_("Join a table found by zeroconf or given as ws://host:port."))
    j.add_argument("table", nargs="?", default=None, metavar="TABLE",
                   help=_("ws://host:port (or host:port) of the host, a host fingerprint from "
                        "`p2ptarot list`, or an online table's invitation code XXXXX-XXXXX; default: the only open table (asks, or refuses with "
                        "the list, when there are several)"))
    j.add_argument("--game", default=None, help=_("only join a table of this game"))
    j.add_argument("--find-timeout", type=float, default=30.0, metavar="SECONDS",
                   help=_("how long to look for the table on the LAN (default 30)"))
    j.add_argument("--resume", action="store_true",
                   help=_("resume the unfinished game saved in --data-dir (after a crash)"))
    _common(j)
    _common_online(j)
    j.set_defaults(run=run_join_cmd, prog=j.prog)

    ls = subparsers.add_parser("list", help=_("list the open tables on the LAN (or --online)"))
    ls.add_argument("--online", action="store_true", help=_("list the tables on NOSTR relays"))
    ls.add_argument("--relay", action="append", default=[], metavar="URL",
                    help=_("a NOSTR relay to ask (repeatable; default: <data dir>/relays.txt, "
                         "else the packaged list)"))
    ls.add_argument("--data-dir", type=Path, default=Path.home() / ".p2ptarot", metavar="DIR")
    ls.add_argument("--interface", default=None, metavar="CARD|IP", type=interface_arg,
                    help=_("listen on this network card only (a name or an address)"))
    ls.add_argument("--timeout", type=float, default=3.0, help=_("seconds to listen"))
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(run=run_list, prog=ls.prog)


# ---- the local player ---------------------------------------------------------------------------
def stand_in_policy(args: argparse.Namespace) -> int | str:
    """The host's stand-in grace for the charter (seconds, 0 = never), or why it is refused."""
    value = args.stand_in_after
    if value is None:
        return DEFAULT_STAND_IN_AFTER if args.move_timeout > DEFAULT_STAND_IN_AFTER else 0
    if not 0 <= value <= MAX_STAND_IN_AFTER:
        return f"--stand-in-after must be from 0 to {MAX_STAND_IN_AFTER} seconds"
    if value and value >= args.move_timeout:
        return "--stand-in-after must be shorter than --move-timeout (or 0 for never)"
    return value


def _chooser(args: argparse.Namespace, hub: Hub | None):
    """A bot seat's bot; a human seat's chooser, with a stand-in bot that plays for the player
    while they are away (after the table's grace, from the charter, or when they hand over).
    Under mental poker only this peer can play this seat: its keys never leave it."""
    if args.bot:
        return bot_chooser(make_bot(args.bot, args.seed if args.seed is not None else os.getpid()))
    assert hub is not None
    return app.human_seat(hub, args.name, args.seed if args.seed is not None else os.getpid())


def _hub(args: argparse.Namespace) -> Hub | None:
    """A human seat (or a watched bot with --web) gets the application layer's hub."""
    if args.bot and not (args.web or args.watch):
        return None
    hub = app.Hub()
    hub.public = bool(args.bot and args.watch)  # a watched bot shows what the table shows
    return hub


async def _with_fronts(args: argparse.Namespace, cfg: PeerConfig, hub: Hub | None,
                       game: Callable[[], Awaitable[GameResult]]) -> GameResult:
    """Run the game with its front ends: the terminal (typed moves, Ctrl-D leaves at any time)
    and, with --web, the local browser page. Leaving ends the game task at once."""
    if hub is None:
        return await game()
    helpers: list[asyncio.Task[Any]] = []
    if not args.bot or args.watch:
        term = cli.Terminal(hub, say=lambda text: print(text, flush=True), spectator=bool(args.bot),
                            lang=getattr(args, "lang", None),
                            raw=lambda text: print(text, end="", flush=True),
                            live=sys.stdin.isatty() and sys.stdout.isatty())
        if not args.bot:
            # Ctrl-D at a terminal leaves; input that is no terminal (a launcher, `< /dev/null`)
            # ending leaves only when the browser page cannot play instead
            page_plays = args.web and not sys.stdin.isatty()
            helpers.append(asyncio.create_task(term.read_commands(cli.Console(),
                                                                  eof_leaves=not page_plays)))
            helpers.append(asyncio.create_task(term.remind()))
    if not args.quiet:  # lobby news reach the page too (the terminal prints them as notices)
        shown = not args.bot or args.watch

        def say(text: str) -> None:
            hub.publish(Notice(text))
            if not shown:
                print(text, flush=True)
        cfg.say = say
    servers = []
    if args.web:
        from p2ptarot.web.server import WebServer
        lang = getattr(args, "lang", None)
        server = WebServer(hub, host=args.web_interface, port=args.web_port, lang=lang)
        servers.append(server)
        print(_("your table in the browser: {url}").format(url=await server.start()), flush=True)
        cfg.spectators = app.Hub()
        cfg.spectators.public = True
        watchers = WebServer(cfg.spectators, host=args.web_interface, lang=lang)
        servers.append(watchers)
        print(_("spectators (the public table, no cards of yours): {url}").format(
            url=await watchers.start()), flush=True)
    try:
        result = await app.until_left(hub, game())
        if args.web and not args.bot:
            await _keep_serving(hub)
        return result
    finally:
        for task in helpers:
            task.cancel()
        for server in servers:
            await server.close()


#: how long `host|join --web` keeps the page of a finished game (its standings) up at most
KEEP_SERVING = 3600.0
AFTER_GAME_TEXT = N_("the game is over: your page keeps showing the final standings (reload works) "
                   "until you leave (Leave the table in the page, Ctrl-C, or Ctrl-D at a terminal)")


async def _keep_serving(hub: Hub) -> None:
    """The game ended: its page (and the spectators') stays up with the final standings until
    the player leaves, at most KEEP_SERVING seconds."""
    print(_(AFTER_GAME_TEXT), flush=True)
    try:
        async with asyncio.timeout(KEEP_SERVING):
            await hub.leaving.wait()
    except TimeoutError:
        pass


def _left_message(args: argparse.Namespace, why: str) -> None:
    """Tell a player who left how to come back (the game is saved in the data directory)."""
    if DataDir(args.data_dir).unfinished():
        print(_("{why}; the game is saved: come back with  p2ptarot join --resume "
                "--data-dir {dir}").format(why=why, dir=args.data_dir), file=sys.stderr, flush=True)
    else:
        print(why, file=sys.stderr, flush=True)


def _config(args: argparse.Namespace) -> PeerConfig:
    say = (lambda text: None) if args.quiet else (lambda text: print(text, flush=True))
    cfg = PeerConfig(data_dir=args.data_dir, name=args.name, interface=args.interface,
                     port=args.port, timeout=args.timeout, move_timeout=args.move_timeout,
                     lobby_timeout=args.lobby_timeout, say=say, heartbeat=args.heartbeat,
                     lobby_grace=getattr(args, "lobby_grace", DEFAULT_LOBBY_GRACE),
                     lobby_reconnect=getattr(args, "lobby_reconnect", DEFAULT_LOBBY_RECONNECT),
                     ready=not (args.not_ready and not args.bot), bot=bool(args.bot),
                     test_seed=args.test_seed)
    if online.wants_online(args):
        from p2ptarot.crypto.signing import fingerprint
        transport = online.transport_of(args)

        def tell(peer: bytes, path: str, rtt: float | None) -> None:
            when = (_(", round trip {ms} ms").format(ms=f"{rtt * 1000:.0f}") if rtt is not None
                    else "")
            say(_("link to {fingerprint}: {path}{when}").format(fingerprint=fingerprint(peer),
                                                                 path=path, when=when))
        transport.on_link = tell
        cfg.transport = transport
        args.online_transport = transport
    return cfg


def _report(result: GameResult, args: argparse.Namespace) -> int:
    """The result: one JSON line for scripts (bots, --quiet, --json), a sentence for people (the
    standings table was already printed by the terminal front end)."""
    if not (args.bot or args.quiet or getattr(args, "json", False)):
        if result.outcome is not None:
            print(_("game finished; transcript saved in {path}").format(path=result.transcript),
                  flush=True)
            return 0
        a = result.aborted
        print(_("game aborted ({reason}); transcript saved in {path}").format(
            reason=a.reason if a else _("no reason"), path=result.transcript), flush=True)
        return 1
    summary: dict[str, Any] = {"table": result.table_id.hex(), "transcript": str(result.transcript)}
    transport = getattr(args, "online_transport", None)
    if transport is not None:  # which path each link took, and its last round-trip time
        from p2ptarot.crypto.signing import fingerprint
        seen = transport.paths()
        summary["paths"] = {fingerprint(k): p for k, (p, _) in seen.items()}
        summary["rtt_ms"] = {fingerprint(k): round(r * 1000, 1) for k, (_, r) in seen.items()
                             if r is not None}
    if result.outcome is not None:
        summary["outcome"] = result.outcome.to_json()
        print(json.dumps({"result": "finished", "scores": list(result.outcome.scores),
                          "winners": list(result.outcome.winners), **summary}), flush=True)
        return 0
    a = result.aborted
    print(json.dumps({"result": "aborted", "blame": a.blame if a else None,
                      "reason": a.reason if a else "", **summary}), flush=True)
    return 1


def run_host_cmd(args: argparse.Namespace) -> int:
    bad = check_table(args, args.game, args.seats, args.variant)
    if bad is not None:
        return bad
    if not 0 <= args.bots < args.seats:
        return usage_error(args, "--bots must leave at least the host's seat")
    policy = stand_in_policy(args)
    if isinstance(policy, str):
        return usage_error(args, policy)
    try:
        cfg = _config(args)
    except ValueError as exc:  # an online setting that cannot be used (a sentence)
        return usage_error(args, str(exc))
    extra = online.bot_args(args) if cfg.transport is not None else ()
    cfg.stand_in_after = policy

    async def go() -> GameResult:
        hub = _hub(args)
        cfg.hub = hub
        return await _with_fronts(args, cfg, hub, lambda: host_with_bots(
            cfg, args.game, args.variant, args.seats, _chooser(args, hub),
            LocalBots.for_table(cfg, args.bots, extra=extra)))

    try:
        result = asyncio.run(go())
    except (RunError, BadConfiguration) as exc:  # (first: a bot never loads app.human)
        _left_message(args, f"p2ptarot host: {say(exc)}")
        return 1
    except app.LeftTable as exc:
        _left_message(args, f"p2ptarot host: {say(exc)}")
        return 1
    except KeyboardInterrupt:
        _left_message(args, "p2ptarot host: " + _("interrupted; you left the table"))
        return 130
    return _report(result, args)


async def _ask_which_table(candidates: list[TableAdvert]) -> TableAdvert | None:
    """Several open tables: the user picks one by number (empty answer: none)."""
    print(_("Several open tables:"))
    for i, advert in enumerate(candidates, start=1):
        print(f"  {i}. {describe_table(advert)}")
    while True:
        try:
            text = await asyncio.to_thread(input, _("which table [1-{count}, Enter to quit]: ").format(
                count=len(candidates)))
        except EOFError:
            return None
        text = text.strip()
        if not text:
            return None
        if text.isdigit() and 1 <= int(text) <= len(candidates):
            return candidates[int(text) - 1]
        print("  " + _("please type a number from 1 to {count}").format(count=len(candidates)))


def run_join_cmd(args: argparse.Namespace) -> int:
    try:
        cfg = _config(args)
        host_fingerprint = None  # an invitation code pins the host its advert names
        if online.is_code(args.table):
            args.table, host_fingerprint = asyncio.run(
                online.resolve_code(args, args.table, args.find_timeout))
    except (LookupError, ValueError) as exc:
        _left_message(args, f"p2ptarot join: {say(exc)}")
        return 1

    async def go() -> GameResult:
        hub = _hub(args)
        cfg.hub = hub
        if args.resume:
            return await _with_fronts(args, cfg, hub, lambda: run_resume(cfg, _chooser(args, hub)))
        pick = _ask_which_table if (sys.stdin.isatty() and not args.bot) else None
        return await _with_fronts(args, cfg, hub, lambda: run_join(
            cfg, args.table, args.game, _chooser(args, hub), pick=pick, find_wait=args.find_timeout,
            host_fingerprint=host_fingerprint))

    try:
        result = asyncio.run(go())
    except RunError as exc:  # (first: a bot never loads app.human)
        _left_message(args, f"p2ptarot join: {say(exc)}")
        return 1
    except app.LeftTable as exc:
        _left_message(args, f"p2ptarot join: {say(exc)}")
        return 1
    except KeyboardInterrupt:
        _left_message(args, "p2ptarot join: " + _("interrupted; you left the table"))
        return 130
    return _report(result, args)


def run_list(args: argparse.Namespace) -> int:
    if args.online or args.relay:
        return online.run_list_online(args)
    from p2ptarot.net.discovery import browse_tables

    from .spinner import Spinner

    where = args.interface or "every interface"
    spinner = Spinner(_("looking for tables on {where}").format(where=where))
    if not args.json and not spinner.live:
        print(_("looking for tables on {where} for {seconds} s...").format(
            where=where, seconds=f"{args.timeout:g}"), file=sys.stderr, flush=True)
    try:
        adverts = asyncio.run(browse_tables([args.interface] if args.interface else None,
                                            args.timeout, progress=None if args.json else spinner))
    finally:
        spinner.done()
    rows = [{"game": a.table.game, "variant": a.table.variant,
             "seats": f"{a.table.seats_taken}/{a.table.seats_total}",
             "state": "full" if a.table.is_full else "open",
             "host": a.table.fingerprint, "name": a.table.host_name, "table": a.table.table_id,
             "url": a.ws_url} for a in adverts]
    if args.json:
        print(json.dumps({"tables": rows}))
        return 0
    if not rows:
        print(_("no table seen (is a host running on this network, and is multicast allowed?)"))
        return 0
    # the rows keep "full"/"open" as data (--json); the table words them, columns as wide as needed
    state = {"full": _("full"), "open": _("open")}
    heads = [_("GAME"), _("VARIANT"), _("SEATS"), _("STATE"), _("HOSTED BY"), _("HOST"), _("ADDRESS")]
    widths = [max(w, len(h)) for w, h in zip((12, 10, 6, max(map(len, state.values())), 16, 20, 0), heads)]
    print(" ".join(f"{h:<{w}}" for h, w in zip(heads, widths)).rstrip())
    for r in rows:
        cells = [r["game"], r["variant"] or "-", r["seats"], state[r["state"]], (r["name"] or "-")[:16],
                 r["host"], r["url"]]
        print(" ".join(f"{c:<{w}}" for c, w in zip(cells, widths)).rstrip())
    print(_("join one with: p2ptarot join HOST   (or p2ptarot join ADDRESS)"))
    return 0
