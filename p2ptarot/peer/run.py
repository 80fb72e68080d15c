"""A peer's entry points: host a table, join one, resume a saved one (used by the front ends)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Callable

from p2ptarot.engine.local import Agent
from p2ptarot.engine import Move
from p2ptarot.i18n import _
from p2ptarot.i18n.message import render as say
from p2ptarot.net.finder import FindError, Pick, find_table, parse_target
from p2ptarot.table.effects import NeedMove

from .config import Chooser, GameResult, PeerConfig, RunError
from .game import play
from .lobby import host_lobby, join_lobby
from .store import DataDir, TableStore


def _interfaces(cfg: PeerConfig) -> list[str] | None:
    return [cfg.interface] if cfg.interface else None


async def run_host(cfg: PeerConfig, game: str, variant: str | None, seats: int, choose: Chooser,
                   options: dict[str, Any] | None = None,
                   on_listening: Callable[[str], None] | None = None) -> GameResult:
    identity = DataDir(cfg.data_dir).identity(cfg.test_seed)
    transport = cfg.links()
    closing: set[asyncio.Task[None]] = set()  # the advert, withdrawn while the table starts
    async with transport.open(identity) as links:
        try:
            try:
                async with asyncio.timeout(cfg.lobby_timeout):
                    signed = await host_lobby(cfg, links, identity, game, variant, seats,
                                              options, on_listening, transport, closing)
            except TimeoutError:
                raise RunError(_("the table was not filled and signed within {wait} s; closing "
                                 "it (--lobby-timeout sets how long to wait)").format(
                    wait=f"{cfg.lobby_timeout:.0f}")) from None
            return await play(cfg, links, identity, signed, choose)
        finally:
            for task in closing:  # best effort: a table's result never waits on its advert's
                with contextlib.suppress(Exception):  # failure to say goodbye
                    await task


async def run_join(cfg: PeerConfig, target: str | None, game: str | None, choose: Chooser,
                   pick: Pick | None = None, find_wait: float = 30.0,
                   host_fingerprint: str | None = None) -> GameResult:
    """Join the table the user named (or the only open one; `pick` chooses among several).
    `host_fingerprint` pins the host (an invitation code's advert names it)."""
    identity = DataDir(cfg.data_dir).identity(cfg.test_seed)
    try:
        wanted = parse_target(target)
        if wanted.url is not None:
            url = wanted.url
        else:
            url = await find_table(_interfaces(cfg), game, wanted.prefix, wait=find_wait, pick=pick)
            cfg.say(_("found the table at {url}").format(url=url))
    except FindError as exc:
        raise RunError(say(exc)) from None
    async with cfg.links().open(identity) as links:
        try:
            async with asyncio.timeout(cfg.lobby_timeout):
                signed = await join_lobby(cfg, links, identity, url, host_prefix=wanted.prefix,
                                           host_fingerprint=host_fingerprint)
        except TimeoutError:
            raise RunError(_("the table did not start within {wait} s; leaving it "
                             "(--lobby-timeout sets how long to wait)").format(
                wait=f"{cfg.lobby_timeout:.0f}")) from None
        return await play(cfg, links, identity, signed, choose)


async def run_resume(cfg: PeerConfig, choose: Chooser) -> GameResult:
    data = DataDir(cfg.data_dir)
    unfinished = data.unfinished()
    if not unfinished:
        raise RunError(_("no unfinished game in {path}").format(path=cfg.data_dir))
    store = TableStore.open_existing(data, unfinished[-1])
    identity = data.identity()
    seat = store.signed.charter.seat_of(identity.public_bytes)
    if seat is None:
        raise RunError(_("this data directory's identity has no seat at its saved table"))
    address = store.signed.charter.seats[seat].address
    async with cfg.links().open(identity, address) as links:
        return await play(cfg, links, identity, store.signed, choose, resume=True)


def bot_chooser(bot: Agent) -> Chooser:
    """A bot plays the seat: it sees only the seat's own view."""
    async def choose(need: NeedMove) -> Move:
        return bot.choose(need.seat, need.view, list(need.legal))
    return choose
