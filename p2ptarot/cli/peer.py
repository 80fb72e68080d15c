"""`p2ptarot host`, `join` and `list`: play on the LAN (the network subcommands)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from p2ptarot.bots import make as make_bot
from p2ptarot.engine import BadConfiguration, Move
from p2ptarot.net.finder import describe as describe_table
from p2ptarot.present import describe_move, move_group, presenter, render_view
from p2ptarot.net.runner import (GameResult, PeerConfig, RunError, bot_chooser, run_host,
                                 run_join, run_resume)
from p2ptarot.table.effects import NeedMove

from .errors import check_table, usage_error

if TYPE_CHECKING:  # zeroconf is imported only by the commands that browse (not `join ws://`)
    from p2ptarot.net.discovery import TableAdvert


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", default=os.environ.get("USER", "player"), help="your display name")
    p.add_argument("--interface", default=None, metavar="IP",
                   help="bind sockets and zeroconf to this address (default: all interfaces)")
    p.add_argument("--port", type=int, default=0, help="listening port (default: any free port)")
    p.add_argument("--data-dir", type=Path, default=Path.home() / ".p2ptarot", metavar="DIR",
                   help="identity key, secrets and transcripts (default: ~/.p2ptarot)")
    p.add_argument("--bot", nargs="?", const="heuristic", default=None, metavar="KIND",
                   help="let a bot play this seat (random or heuristic; default heuristic)")
    p.add_argument("--seed", type=int, default=None, help="seed of the bot's choices")
    p.add_argument("--timeout", type=int, default=120, help="seconds of silence before a seat is blamed")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--lobby-timeout", type=float, default=600.0, metavar="SECONDS",
                   help="give up if the table has not started after this long (default 600)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    h = subparsers.add_parser("host", help="open a table on the LAN and play at seat 0",
                              description="Advertise a table with zeroconf, wait for players, play.")
    h.add_argument("--game", required=True, help="the game to play (see `p2ptarot games`)")
    h.add_argument("--variant", default=None, help="a variant of the game (default: its base rules)")
    h.add_argument("--seats", type=int, required=True, help="number of players, you included")
    h.add_argument("--bots", type=int, default=0, help="fill this many seats with local bot processes")
    _common(h)
    h.set_defaults(run=run_host_cmd, prog=h.prog)

    j = subparsers.add_parser("join", help="sit down at a table on the LAN",
                              description="Join a table found by zeroconf or given as ws://host:port.")
    j.add_argument("table", nargs="?", default=None, metavar="TABLE",
                   help="ws://host:port (or host:port) of the host, or a host fingerprint from "
                        "`p2ptarot list`; default: the only open table (asks, or refuses with "
                        "the list, when there are several)")
    j.add_argument("--game", default=None, help="only join a table of this game")
    j.add_argument("--find-timeout", type=float, default=30.0, metavar="SECONDS",
                   help="how long to look for the table on the LAN (default 30)")
    j.add_argument("--resume", action="store_true",
                   help="resume the unfinished game saved in --data-dir (after a crash)")
    _common(j)
    j.set_defaults(run=run_join_cmd, prog=j.prog)

    ls = subparsers.add_parser("list", help="list the open tables on the LAN")
    ls.add_argument("--interface", default=None, metavar="IP")
    ls.add_argument("--timeout", type=float, default=3.0, help="seconds to listen")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(run=run_list, prog=ls.prog)


# ---- the local player ---------------------------------------------------------------------------
_HELP = ("type a move's number to play it; m = list the moves again; v = the raw JSON view; "
         "w = write your own move where the game allows it (an Eleusis rule or run); h or ? = this help")
#: move lists longer than this are printed under one heading per kind of move
_GROUP_OVER = 12


def _ordered_moves(legal: tuple[Move, ...]) -> list[tuple[str, Move]]:
    """Legal moves grouped by kind (first appearance order), so numbers run on within a group."""
    groups: dict[str, list[Move]] = {}
    for move in legal:
        groups.setdefault(move_group(move), []).append(move)
    return [(title, move) for title, moves in groups.items() for move in moves]


def _print_moves(ordered: list[tuple[str, Move]], view: dict[str, Any]) -> None:
    grouped = len(ordered) > _GROUP_OVER and len({t for t, _ in ordered}) > 1
    width = len(str(len(ordered)))
    last = None
    for i, (title, move) in enumerate(ordered, start=1):
        if grouped and title != last:
            count = sum(1 for t, _ in ordered if t == title)
            print(f" -- {title} ({count}) --")
            last = title
        print(f"  {i:>{width}}. {describe_move(move, view)}")


def _human_chooser(say):
    """Show the seat's screen and numbered moves; read a number, `v`, `m` or `h`."""
    async def choose(need: NeedMove) -> Move:
        view = need.view
        ordered = _ordered_moves(need.legal)
        screen = presenter(str(view.get("game")))
        automatic = getattr(screen, "automatic", None)
        if automatic is not None and automatic(view, need.legal):  # e.g. an Eleusis judgment (R34)
            print(f"  your peer: {describe_move(need.legal[0], view)}")
            return need.legal[0]
        print("\n" + render_view(view))
        _print_moves(ordered, view)
        while True:
            try:
                text = await asyncio.to_thread(input, f"seat {need.seat}, your move [1-{len(ordered)}, h for help]: ")
            except EOFError:  # the runner ends the game loop with this as a RunError
                raise RunError("standard input closed before a move was chosen; leaving the table") from None
            text = text.strip().lower()
            if text.isdigit() and 1 <= int(text) <= len(ordered):
                return ordered[int(text) - 1][1]
            composer = getattr(screen, "compose", None)
            if text == "w" and composer is not None:
                written = await asyncio.to_thread(composer, view, need.legal, input)
                if written is not None:
                    return written
                _print_moves(ordered, view)
            elif text == "v":
                print(json.dumps(view, indent=1, sort_keys=True))
            elif text == "m":
                _print_moves(ordered, view)
            elif text in ("h", "?"):
                print("  " + _HELP)
            else:
                print(f"  please type a number from 1 to {len(ordered)} (h for help)")
    return choose


def _chooser(args: argparse.Namespace, say):
    if args.bot:
        return bot_chooser(make_bot(args.bot, args.seed if args.seed is not None else os.getpid()))
    return _human_chooser(say)


def _config(args: argparse.Namespace) -> PeerConfig:
    say = (lambda text: None) if args.quiet else (lambda text: print(text, flush=True))
    return PeerConfig(data_dir=args.data_dir, name=args.name, interface=args.interface,
                      port=args.port, timeout=args.timeout, lobby_timeout=args.lobby_timeout, say=say)


def _report(result: GameResult) -> int:
    summary: dict[str, Any] = {"table": result.table_id.hex(), "transcript": str(result.transcript)}
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
    cfg = _config(args)
    children: list[subprocess.Popen] = []

    def spawn_bots(url: str) -> None:
        for k in range(args.bots):
            cmd = [sys.executable, "-m", "p2ptarot.cli.main", "join", url, "--bot", "--quiet",
                   "--name", f"bot-{k + 1}", "--data-dir", str(args.data_dir / f"bot-{k + 1}"),
                   "--timeout", str(args.timeout)]
            if args.interface:
                cmd += ["--interface", args.interface]
            children.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL))

    try:
        result = asyncio.run(run_host(cfg, args.game, args.variant, args.seats, _chooser(args, cfg.say),
                                      on_listening=spawn_bots))
    except (RunError, BadConfiguration) as exc:
        print(f"p2ptarot host: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        for child in children:
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
    return _report(result)


async def _ask_which_table(candidates: list[TableAdvert]) -> TableAdvert | None:
    """Several open tables: the user picks one by number (empty answer: none)."""
    print("Several open tables:")
    for i, advert in enumerate(candidates, start=1):
        print(f"  {i}. {describe_table(advert)}")
    while True:
        try:
            text = await asyncio.to_thread(input, f"which table [1-{len(candidates)}, Enter to quit]: ")
        except EOFError:
            return None
        text = text.strip()
        if not text:
            return None
        if text.isdigit() and 1 <= int(text) <= len(candidates):
            return candidates[int(text) - 1]
        print(f"  please type a number from 1 to {len(candidates)}")


def run_join_cmd(args: argparse.Namespace) -> int:
    cfg = _config(args)
    try:
        if args.resume:
            result = asyncio.run(run_resume(cfg, _chooser(args, cfg.say)))
        else:
            pick = _ask_which_table if (sys.stdin.isatty() and not args.bot) else None
            result = asyncio.run(run_join(cfg, args.table, args.game, _chooser(args, cfg.say), pick=pick,
                                          find_wait=args.find_timeout))
    except RunError as exc:
        print(f"p2ptarot join: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return _report(result)


def run_list(args: argparse.Namespace) -> int:
    from p2ptarot.net.discovery import browse_tables

    if not args.json:
        where = args.interface or "every interface"
        print(f"looking for tables on {where} for {args.timeout:g} s...", file=sys.stderr, flush=True)
    adverts = asyncio.run(browse_tables([args.interface] if args.interface else None, args.timeout))
    rows = [{"game": a.table.game, "variant": a.table.variant,
             "seats": f"{a.table.seats_taken}/{a.table.seats_total}",
             "state": "full" if a.table.is_full else "open",
             "host": a.table.fingerprint, "table": a.table.table_id, "url": a.ws_url} for a in adverts]
    if args.json:
        print(json.dumps({"tables": rows}))
        return 0
    if not rows:
        print("no table seen (is a host running on this network, and is multicast allowed?)")
        return 0
    header = f"{'GAME':<12} {'VARIANT':<10} {'SEATS':<6} {'STATE':<5} {'HOST':<20} ADDRESS"
    print(header)
    for r in rows:
        print(f"{r['game']:<12} {r['variant'] or '-':<10} {r['seats']:<6} {r['state']:<5} "
              f"{r['host']:<20} {r['url']}")
    print("join one with: p2ptarot join HOST   (or p2ptarot join ADDRESS)")
    return 0
