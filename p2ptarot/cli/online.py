"""The command line's online options (`--online`, `--relay`, `--stun`, `--turn` …), the
invitation code as `join` accepts it, and `list --online`.

Heavy modules (aiortc, coincurve) are imported only when a command goes online: every name
of the online stack is reached through its lazy front door, the `p2ptarot.net.online` package.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from p2ptarot.net import online as net
from p2ptarot.net.lan import DEFAULT_HEARTBEAT
from p2ptarot.i18n import _

if TYPE_CHECKING:
    from p2ptarot.net.nostr.pool import RelayNotice
    from p2ptarot.net.online.transport import OnlineTransport

#: exit status of a peer no relay would carry
EXIT_NO_RELAY = 3
#: the environment variable that carries the TURN password (bots inherit it from the host:
#: another process's argv is readable by every local user, its environment only by its owner)
TURN_PASS_ENV = "P2PTAROT_TURN_PASS"

_CODE_SHAPE = re.compile(r"^(?:p2ptarot:(?://)?)?[0-9A-Za-z]{5}-[0-9A-Za-z]{5}$", re.IGNORECASE)


def add_online_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("online play (NOSTR relays, WebRTC)")
    g.add_argument("--online", action="store_true",
                   help=_("play over the Internet: meet on NOSTR relays, link by WebRTC"))
    g.add_argument("--relay", action="append", default=[], metavar="URL",
                   help=_("a NOSTR relay (ws:// or wss://; repeatable; default: <data dir>/"
                        "relays.txt, else the packaged list)"))
    g.add_argument("--relay-key-file", default=None, metavar="FILE",
                   help=_("a file of 'URL SECRET' lines: the key (64 hex digits) to answer the "
                          "named relay's NIP-42 AUTH challenge with; a relay that asks for "
                          "authentication and has no key here is left"))
    g.add_argument("--stun", action="append", default=[], metavar="URL",
                   help=_("a STUN server, stun:HOST:PORT (repeatable; default: <data dir>/"
                          "ice.txt, else the packaged list of public STUN servers, which learn "
                          "only this computer's public address)"))
    g.add_argument("--no-default-stun", action="store_true",
                   help=_("contact no STUN server but the ones given with --stun (homes "
                          "behind NATs then rarely link directly)"))
    g.add_argument("--turn", default=None, metavar="URL",
                   help=_("a TURN server for when NATs refuse a direct path: turn:HOST:PORT "
                        "(?transport=tcp to cross a UDP block), with --turn-user and the "
                        "password in --turn-pass-file or P2PTAROT_TURN_PASS"))
    g.add_argument("--turn-user", default=None, metavar="NAME")
    g.add_argument("--turn-pass-file", default=None, metavar="FILE",
                   help=_("a file holding the TURN password (or set P2PTAROT_TURN_PASS): a "
                          "password on the command line is readable by every local user"))
    g.add_argument("--turn-pass", default=None, metavar="SECRET", help=argparse.SUPPRESS)
    g.add_argument("--rtc-deadline", type=float, default=15.0, metavar="SECONDS",
                   help=_("give WebRTC this long, then carry the link on the relays (default 15)"))
    g.add_argument("--rtc-retry", type=float, default=30.0, metavar="SECONDS",
                   help=_("a link carried on the relays tries WebRTC again after this long, "
                        "doubling up to 5 min; 0: never (default 30)"))
    g.add_argument("--relay-only", action="store_true",
                   help=_("carry every link on the relays (no WebRTC)"))


def is_code(text: str | None) -> bool:
    """`join XXXXX-XXXXX` (or p2ptarot:XXXXX-XXXXX) names an online table, not a LAN one."""
    return bool(text) and _CODE_SHAPE.match(text.strip()) is not None  # type: ignore[union-attr]  # `bool(text) and` ruled None out; mypy does not narrow through it


def wants_online(args: argparse.Namespace) -> bool:
    table = getattr(args, "table", None)
    return bool(getattr(args, "online", False) or getattr(args, "relay_only", False)
                or is_code(table) or (table or "").startswith("nostr:"))


def bot_args(args: argparse.Namespace) -> tuple[str, ...]:
    """The online options a host hands to its local bot processes (they join by address).
    Never the TURN password: it goes in this process's environment, which the bots inherit."""
    out: list[str] = []
    for url in relays_of(args):
        out += ["--relay", url]
    for server in ice_of(args):
        out += ["--stun", server.url]
    if not args.stun and not ice_of(args):
        out += ["--no-default-stun"]
    if args.turn:
        server = net.parse_turn(args.turn, args.turn_user, turn_password(args) or "")
        out += ["--turn", server.url]
        if server.username:
            out += ["--turn-user", server.username]
        if server.credential:
            os.environ[TURN_PASS_ENV] = server.credential
    if getattr(args, "relay_key_file", None):  # a path: the keys stay in the file
        out += ["--relay-key-file", str(Path(args.relay_key_file).resolve())]
    out += ["--rtc-deadline", f"{args.rtc_deadline:g}", "--rtc-retry", f"{args.rtc_retry:g}"]
    return tuple(out + (["--relay-only"] if args.relay_only else []))


def ice_of(args: argparse.Namespace) -> list[net.IceServer]:
    """The STUN servers: ``--stun``, else (unless ``--no-default-stun``) the user's
    <data dir>/ice.txt, else the packaged list."""
    if args.stun:
        return [net.IceServer(u) for u in args.stun]
    if getattr(args, "no_default_stun", False):
        return []
    data_dir = getattr(args, "data_dir", None)
    return net.default_ice(Path(data_dir) if data_dir else None)


def turn_password(args: argparse.Namespace) -> str | None:
    """The TURN password: ``--turn-pass-file``, else ``P2PTAROT_TURN_PASS``, else the hidden
    ``--turn-pass`` (kept for old scripts; visible to ``ps``)."""
    path = getattr(args, "turn_pass_file", None)
    if path:
        try:
            return Path(path).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise net.OnlineConfigError(f"cannot read the TURN password file {path}: "
                                        f"{exc.strerror}") from None
    return os.environ.get(TURN_PASS_ENV) or getattr(args, "turn_pass", None)


def relay_keys_of(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """The NIP-42 keys of ``--relay-key-file`` (none without it)."""
    path = getattr(args, "relay_key_file", None)
    return net.read_relay_keys(Path(path)) if path else ()


def auth_keys_of(args: argparse.Namespace) -> dict:
    return net.auth_keys(relay_keys_of(args))


def relays_of(args: argparse.Namespace) -> list[str]:
    if args.relay:
        return [net.check_relay(u) for u in args.relay]
    return net.default_relays(Path(args.data_dir) if getattr(args, "data_dir", None) else None)


def transport_of(args: argparse.Namespace, stop_on_failure: bool = True) -> OnlineTransport:
    """The online transport the options describe (`OnlineConfigError` with a sentence if not).
    A data channel pings three times a `--heartbeat` and is gone after two silent heartbeats
    (six pings: 5 s and 30 s by default).  What a relay does that the player should know is
    said in one sentence on stderr; when no relay will carry the table, the process says so and
    exits (status 3) unless ``stop_on_failure`` is false (the page's server keeps running)."""
    ice = ice_of(args)
    heartbeat = getattr(args, "heartbeat", DEFAULT_HEARTBEAT)  # `p2ptarot web` has none
    if args.turn:
        ice.append(net.parse_turn(args.turn, args.turn_user, turn_password(args)))
    transport = net.OnlineTransport(net.OnlineConfig(relays=tuple(relays_of(args)),
                                                     ice=tuple(ice),
                                                     rtc_deadline=args.rtc_deadline,
                                                     rtc_retry=max(0.0, args.rtc_retry),
                                                     transport="relay" if args.relay_only
                                                     else "auto",
                                                     ping_interval=heartbeat / 3,
                                                     relay_keys=relay_keys_of(args)))
    transport.on_relay = lambda notice: tell_relay(notice, stop_on_failure)
    return transport


def relay_sentence(notice: RelayNotice) -> str:
    """One sentence for a player: which relay did what, and why (its own words)."""
    if notice.what == "rate-limited":
        return _("relay {relay} is limiting how fast we send ({reason}): slowing down").format(
            relay=notice.relay, reason=notice.detail)
    if notice.what == "shrunk":
        return _("relay {relay} refused an event as too large ({reason}): sending events of "
                 "at most {cap} characters").format(relay=notice.relay, reason=notice.detail,
                                                    cap=notice.cap)
    if notice.what == "dropped" and notice.detail.lower().startswith(("auth-required",
                                                                      "restricted")):
        return _("relay {relay} asks who we are ({reason}) and will not carry this table without "
                 "a key: no longer using it (a key for it goes in --relay-key-file)").format(
            relay=notice.relay, reason=notice.detail)
    if notice.what == "dropped":
        return _("relay {relay} will not carry this table ({reason}): no longer using it").format(
            relay=notice.relay, reason=notice.detail)
    if notice.what == "failed":
        return _("no relay will carry this table: {reason}").format(reason=notice.detail)
    return _("relay {relay} says: {reason}").format(relay=notice.relay, reason=notice.detail)


def tell_relay(notice: RelayNotice, stop_on_failure: bool = True) -> None:
    """Print a relay's notice; when no relay is left, stop the process (status 3): a table
    nobody can reach must not wait for its move timeout."""
    print(relay_sentence(notice), file=sys.stderr, flush=True)
    if notice.what == "failed" and stop_on_failure:
        sys.stdout.flush()
        os._exit(EXIT_NO_RELAY)


async def resolve_code(args: argparse.Namespace, text: str, wait: float) -> tuple[str, str]:
    """(address to dial, host fingerprint) of the table a code names; `LookupError` if none."""
    code = net.normalize_code(text)
    if code is None:
        raise LookupError(f"{text!r} is not an invitation code (XXXXX-XXXXX)")
    try:
        found = await net.find_code(relays_of(args), code, wait, on_notice=tell_relay,
                                    auth_keys=auth_keys_of(args))
    except net.RelaysFailed as exc:
        tell_relay(net.RelayNotice("", "failed", str(exc)))
        raise LookupError(str(exc)) from None
    if found is None:
        raise LookupError(_("no open table with code {code} on the relays ({relays}) within "
                            "{seconds} s").format(code=net.show_code(code),
                                                  relays=", ".join(relays_of(args)), seconds=f"{wait:g}"))
    return found.address, found.table.fingerprint


def run_list_online(args: argparse.Namespace) -> int:
    show_code = net.show_code
    try:
        tables = asyncio.run(net.browse_online(relays_of(args), args.timeout,
                                               on_notice=lambda n: tell_relay(n, False),
                                               auth_keys=auth_keys_of(args)))
    except net.RelaysFailed as exc:
        tell_relay(net.RelayNotice("", "failed", str(exc)), False)
        return EXIT_NO_RELAY
    if args.json:
        print(json.dumps({"tables": [
            {"code": show_code(t.code), "game": t.table.game, "variant": t.table.variant,
             "seats": f"{t.table.seats_taken}/{t.table.seats_total}", "host": t.table.fingerprint,
             "name": t.table.host_name, "address": t.address} for t in tables]}))
        return 0
    if not tables:
        print(_("no open online table on the relays"))
        return 0
    for t in tables:
        who = f"{t.table.host_name} " if t.table.host_name else ""
        seats = _("{taken}/{total} seats").format(taken=t.table.seats_taken, total=t.table.seats_total)
        print(f"{show_code(t.code)}  {t.table.game}{'/' + t.table.variant if t.table.variant else ''}"
              f"  {seats}  {who}({t.table.fingerprint})  -> p2ptarot join {show_code(t.code)}")
    return 0
