"""The lobby behind `p2ptarot web`: the open tables zeroconf sees (and, online, the ones
advertised on the NOSTR relays), sitting at one of them from the page or by an invitation code,
or hosting a table from the page, on the LAN or online (bots as local processes); the game is
then played in the same page."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from p2ptarot.i18n import _, language, ngettext
from p2ptarot.i18n.message import render as say
from p2ptarot.app.events import (BackToLobby, CheckConnection, ConnectionChecked, GameAborted,
                                 GameFinished, Host, Leave, Notice, Rematch, Sit, TablesSeen)
from p2ptarot.app.human import human_seat
from p2ptarot.app.hub import Hub
from p2ptarot.engine import BadConfiguration, UnknownGame, games
from p2ptarot.engine import info as game_info
from p2ptarot.net import online as net_online
from p2ptarot.net.discovery import TableAdvert, TableBrowser
from p2ptarot.net.txt import TableInfo
from p2ptarot.peer.bots import LocalBots, host_with_bots
from p2ptarot.peer.config import GameResult, PeerConfig, RunError
from p2ptarot.peer.run import run_join
from p2ptarot.peer.store import DataDir

if TYPE_CHECKING:  # aiortc and the NOSTR code load only when the lobby goes online
    from p2ptarot.net.online.finder import OnlineTable
    from p2ptarot.net.online.transport import OnlineTransport

logger = logging.getLogger(__name__)


def table_row(advert: TableAdvert) -> dict[str, Any]:
    return info_row(advert.table)


def info_row(t: TableInfo) -> dict[str, Any]:
    """A table as the page lists it (a LAN one is joined by its host's fingerprint)."""
    return {"game": t.game, "variant": t.variant, "host": t.host_name or t.fingerprint,
            "fingerprint": t.fingerprint, "taken": t.seats_taken,
            "free": t.seats_total - t.seats_taken, "full": t.is_full,
            # the fingerprint pins the host: the page never sits at a table it did not show
            "target": t.fingerprint, "online": False}


def online_row(found: OnlineTable) -> dict[str, Any]:
    """An online table: as a LAN one, joined by its invitation code."""
    row = info_row(found.table)
    code = net_online.show_code(found.code)
    return {**row, "target": code, "code": code, "online": True}


@dataclass(frozen=True)
class OnlineSide:
    """What `p2ptarot web --online` adds: the relays to list tables from, a fresh online
    transport per game, and the options a hosted table's bot processes join with."""

    relays: tuple[str, ...]
    transport: Callable[[], OnlineTransport]
    bot_args: tuple[str, ...] = ()
    #: the same settings without the default STUN servers (the page's "no public STUN server"
    #: setting, `--no-default-stun`); None: these settings name no default STUN server
    without_default_stun: OnlineSide | None = None

    def choose(self, no_default_stun: bool) -> OnlineSide:
        """These settings, or the ones without default STUN servers when the player asked."""
        return self.without_default_stun if no_default_stun and self.without_default_stun \
            else self


def game_rows() -> tuple[dict[str, Any], ...]:
    """The games the page offers to host: name, title, player range, playable variants."""
    return tuple({"name": g.name, "title": g.title_in(language()), "players": [g.min_players, g.max_players],
                  "variants": list(g.playable_variants()), "default": g.default_variant or ""}
                 for g in games())


#: seconds the relays are given to show the advert an invitation code names
FIND_WAIT = 20.0
#: seconds each relay check of the page's "Check my connection" may take
DOCTOR_WAIT = 10.0
#: seconds a finished game may still linger (the other seats' "done") before a rematch ends it
LINGER_WAIT = 15.0


class Lobby:
    def __init__(self, hub: Hub, cfg: PeerConfig, interfaces: list[str] | None,
                 online: OnlineSide | None = None) -> None:
        self.hub, self.cfg, self.interfaces, self.online = hub, cfg, interfaces, online
        self.game: asyncio.Task[GameResult] | None = None
        self._last: tuple[Any, ...] | None = None
        #: the rows last shown (to name a table's host when the player sits down)
        self._rows: tuple[dict[str, Any], ...] = ()
        self._games = game_rows()
        #: the bot processes of a table hosted from the page (stopped when its game task ends)
        self.bots: LocalBots | None = None
        self._every = 1.0
        self._rewatch: asyncio.Future[None] | None = None
        #: the table this page hosted last (a rematch opens the same again)
        self.hosted: Host | None = None
        #: the after-game command being handled (a second one meanwhile is dropped)
        self._after: asyncio.Future[None] | None = None
        #: the page's connection check being run (a second click meanwhile is dropped)
        self._doctor: asyncio.Future[None] | None = None

    async def after_game(self, cmd: BackToLobby | Rematch) -> None:
        """Once the game is over: back to the list of tables, or (the host) the same table anew.
        The page starts afresh (the hub forgets the finished game); the other players see the new
        table in their lobby and sit down again."""
        over = any(isinstance(e, (GameFinished, GameAborted)) for e in self.hub.history)
        if self.game is None or not (self.game.done() or over):
            self.hub.publish(Notice(_("the game is not over yet")))
            return
        if not self.game.done():  # finished, still lingering for the other seats' "done"
            try:
                async with asyncio.timeout(LINGER_WAIT):  # (3.11's wait_for can drop a cancellation)
                    await asyncio.shield(self.game)
            except TimeoutError:
                self.game.cancel()
                await asyncio.gather(self.game, return_exceptions=True)
            except Exception:  # noqa: BLE001 - its end was already told by _done
                pass
        self.hub.reset()
        if isinstance(cmd, Rematch) and self.hosted is not None:
            if self.bots is not None:
                bots, self.bots = self.bots, None
                asyncio.get_running_loop().run_in_executor(None, bots.stop, True)
            self.game = None
            self.host(self.hosted)
            return
        self._back_to_the_list()

    async def watch(self, every: float = 1.0) -> None:
        """Publish the open tables whenever the list changes (until the player sits down)."""
        self._every = every
        async with contextlib.AsyncExitStack() as stack:
            browser = await stack.enter_async_context(TableBrowser(interfaces=self.interfaces))
            relays = None
            if self.online is not None:
                relays = await stack.enter_async_context(
                    net_online.OnlineBrowser(list(self.online.relays), auth_keys=self.online
                                             .transport().config.auth_keys()))
            while self.game is None:
                found = [table_row(a) for a in browser.tables.values()]
                found += [online_row(t) for t in relays.tables] if relays is not None else []
                rows = tuple(sorted(found, key=lambda r: (r["online"], r["game"], r["host"])))
                key = tuple(tuple(sorted(r.items())) for r in rows)
                if key != self._last:
                    self._last, self._rows = key, rows
                    self.hub.publish(TablesSeen(rows, self.cfg.name, self._games,
                                                online=self.online is not None))
                await asyncio.sleep(every)

    async def leave(self) -> None:
        """The page's "Leave the table": this seat's game stops (its links close, so the other
        players are told; the game stays in the data directory for `join --resume`, and a hosted
        table's bots wait for it), and the page is back in the lobby, the program still running.
        After the end of the game it is the same as "Back to the lobby"."""
        over = any(isinstance(e, (GameFinished, GameAborted)) for e in self.hub.history)
        if self.game is not None and over:
            await self.command(BackToLobby())
            return
        if self.game is None or self.game.done():
            return  # nothing to leave: the page is in the lobby already
        game, self.bots = self.game, None
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)
        self.hub.reset()
        self.hub.publish(Notice(_("you left the table")))
        self._back_to_the_list()

    async def check_connection(self, cmd: CheckConnection) -> None:
        """The doctor's checks with this lobby's online settings (the LAN check only when the
        lobby is not online: it contacts no server then), published as `ConnectionChecked`."""
        from p2ptarot.app.connection import advice_lines, check_lines, verdict_line
        from p2ptarot.net.online import doctor
        self.hub.publish(ConnectionChecked(running=True))
        try:
            if self.online is None:  # the LAN only: no relay or STUN server contacted
                report = await doctor.diagnose([], [], _ip_or_any(self.cfg.interface),
                                               online=False)
                report.advice.append(doctor.ONLINE_OFF)
            else:
                config = self.online.choose(cmd.no_default_stun).transport().config
                report = await doctor.diagnose(list(config.relays), list(config.ice),
                                               _ip_or_any(self.cfg.interface), DOCTOR_WAIT,
                                               config.auth_keys())
        except Exception as exc:  # noqa: BLE001 - the panel says it; the lobby lives on
            logger.warning("connection check failed", exc_info=exc)
            self.hub.publish(ConnectionChecked(running=False, verdict="nothing",
                                               said=_("the check failed: {why}").format(
                                                   why=say(exc))))
            return
        if self.online is not None and cmd.no_default_stun \
                and not any(s.url.startswith("stun:") for s in config.ice):
            report.advice.append(doctor.NO_DEFAULT_STUN)
        checks = tuple({"check": c, "ok": good, "text": text}
                       for c, good, text in check_lines(report))
        self.hub.publish(ConnectionChecked(running=False, checks=checks, verdict=report.verdict,
                                           said=verdict_line(report),
                                           advice=tuple(advice_lines(report))))

    async def command(self, cmd: Any) -> None:
        """Sit: join the named table; Host: open a table (bots as local processes); either is
        then played in this page. Leave: back to the lobby."""
        if isinstance(cmd, CheckConnection):
            if self._doctor is None or self._doctor.done():  # one check at a time
                self._doctor = asyncio.ensure_future(self.check_connection(cmd))
            return
        if isinstance(cmd, Leave):
            if self._after is not None and not self._after.done():
                return
            self._after = asyncio.ensure_future(self.leave())
            return
        if isinstance(cmd, (BackToLobby, Rematch)):
            if self._after is not None and not self._after.done():
                return  # a second click (or a second page) while the first is handled: one table
            # its own task: the page that asked reloads meanwhile, closing its socket
            self._after = asyncio.ensure_future(self.after_game(cmd))
            return
        if isinstance(cmd, Host) and self.game is None:
            self.host(cmd)
        if not isinstance(cmd, Sit) or self.game is not None:
            return
        if cmd.name.strip():
            self.cfg.name = cmd.name.strip()[:40]
        row = next((r for r in self._rows if r["target"] == cmd.target), None)
        what = (_("{host}'s table of {game}").format(host=row["host"], game=row["game"]) if row
                else _("the table of {target}").format(target=cmd.target))
        code = net_online.normalize_code(cmd.target)
        if code is not None:  # an invitation code (typed, pasted as a link, or a listed row)
            if self.online is None:
                self.hub.publish(Notice(_("an invitation code needs online play: start "
                                          "`p2ptarot web --online`")))
                return
            what = what if row else _("the table with code {code}").format(
                code=net_online.show_code(code))
        self.hub.publish(Notice(_("joining {what}...").format(what=what)))
        self.game = asyncio.create_task(
            self._join_online(code, cmd.no_default_stun) if code is not None else
            run_join(self.cfg, cmd.target, None, human_seat(self.hub, self.cfg.name)))
        self.game.add_done_callback(self._done)

    async def _join_online(self, code: str, no_default_stun: bool = False) -> GameResult:
        """Find the advert the code names on the relays, then join over an online transport."""
        assert self.online is not None
        try:
            found = await net_online.find_code(
                list(self.online.relays), code, wait=FIND_WAIT,
                auth_keys=self.online.transport().config.auth_keys())
        except LookupError as exc:  # two hosts claim the code
            raise RunError(say(exc)) from None
        if found is None:
            raise RunError(_("no open table with code {code} on the relays").format(
                code=net_online.show_code(code)))
        cfg = self._online_config(no_default_stun)
        return await run_join(cfg, found.address, None, human_seat(self.hub, cfg.name),
                              host_fingerprint=found.table.fingerprint)

    def _online_config(self, no_default_stun: bool = False) -> PeerConfig:
        """This lobby's settings with a fresh online transport whose links are shown."""
        assert self.online is not None
        return replace(self.cfg, transport=self.online.choose(no_default_stun).transport())

    def host(self, cmd: Host) -> None:
        """Open the table the page's form describes; the page's player sits at seat 1, not ready
        until they click Ready (or Start now)."""
        try:
            gi = game_info(cmd.game)
            gi.check_players(cmd.seats)
            variant = gi.resolve_variant(cmd.variant or None)
            gi.check_options(dict(cmd.options), cmd.seats)
        except (UnknownGame, BadConfiguration) as exc:
            self.hub.publish(Notice(_("cannot host that table: {why}").format(why=say(exc))))
            return
        if cmd.name.strip():
            self.cfg.name = cmd.name.strip()[:40]
        self.hosted = cmd
        self.hub.publish(Notice(
            (ngettext("opening a table of {game} for {seats} with {bots} bot...",
                      "opening a table of {game} for {seats} with {bots} bots...", cmd.bots)
             if cmd.bots else _("opening a table of {game} for {seats}...")).format(
                game=gi.title_in(language()), seats=cmd.seats, bots=cmd.bots)))
        cfg, extra = self.cfg, tuple[str, ...]()
        if cmd.online:
            if self.online is None:
                self.hub.publish(Notice(_("hosting online needs `p2ptarot web --online`")))
                return
            cfg = self._online_config(cmd.no_default_stun)
            extra = self.online.choose(cmd.no_default_stun).bot_args
            self.hub.publish(Notice(_("invitation code {code}: the others type it in their lobby, "
                                      "or `p2ptarot join` it").format(code=self.invitation())))
        self.bots = LocalBots.for_table(cfg, cmd.bots, self.cfg.data_dir / "bots", extra=extra)
        self.game = asyncio.create_task(host_with_bots(cfg, cmd.game, variant, cmd.seats,
                                                       human_seat(self.hub, cfg.name),
                                                       self.bots, dict(cmd.options) or None))
        self.game.add_done_callback(self._done)

    def invitation(self) -> str:
        """The invitation code of a table this page hosts online (fixed by the identity)."""
        identity = DataDir(self.cfg.data_dir).identity(self.cfg.test_seed)
        return net_online.show_code(net_online.code_of(
            net_online.nostr_key_for(identity).public_hex))

    async def close(self) -> None:
        """Stop the game (if any; its bots stop with it) and the list of tables."""
        if self._rewatch is not None:
            self._rewatch.cancel()
        if self._doctor is not None and not self._doctor.done():
            self._doctor.cancel()
            await asyncio.gather(self._doctor, return_exceptions=True)
        if self.game is not None and not self.game.done():
            self.game.cancel()
            await asyncio.gather(self.game, return_exceptions=True)

    def _done(self, task: asyncio.Task[GameResult]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if isinstance(exc, RunError):
            self.hub.publish(Notice(_("could not play: {why}").format(why=say(exc))))
        elif exc is not None:
            logger.error("lobby game failed", exc_info=exc)
            self.hub.publish(Notice(_("the game stopped: {why}").format(why=say(exc))))
        if exc is not None and self.hub.app is None:  # no table was opened: back to the list
            self._back_to_the_list()

    def _back_to_the_list(self) -> None:
        """After a sit or a host that failed before the game (a full table, a host that left):
        the page shows the open tables again and may sit elsewhere."""
        self.game, self._last = None, None
        self._rewatch = asyncio.ensure_future(self.watch(self._every))


def _ip_or_any(interface: str | None) -> str:
    """The address the STUN checks send from: the lobby's when it names one, else any."""
    import ipaddress
    try:
        return str(ipaddress.IPv4Address(interface or ""))
    except ValueError:
        return "0.0.0.0"
