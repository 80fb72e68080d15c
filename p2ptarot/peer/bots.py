"""Hosting a table with bot seats as local processes, written once for every front end
(`host --bots N`, a table hosted from the `p2ptarot web` page).

Each bot is its own peer, `p2ptarot join URL --bot`, bound to the host's interface, with its own
data directory: under mental poker only a seat's own process can play it (its keys never leave
it), so a bot seat cannot be a coroutine of the host.

Once the table is signed the bots are the table's peers as much as the host: a host that stops
mid-game (Ctrl-C, the page's Leave) keeps its game in its data directory and promises
`join --resume`, so its bots keep their seats, re-dial the host and wait for it (each bounded by
its own timeouts). They run in their own session: a Ctrl-C typed at the host's terminal, sent to
the whole foreground process group, is the host's and not theirs.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

from .config import Chooser, GameResult, PeerConfig
from .run import run_host
from .store import DataDir


class LocalBots:
    """`count` bot processes that join the table at the URL `spawn` is given."""

    def __init__(self, count: int, data_dir: Path, interface: str | None, timeout: int,
                 lobby_timeout: float, heartbeat: float | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.count, self.data_dir, self.interface = count, data_dir, interface
        self.timeout, self.lobby_timeout, self.heartbeat = timeout, lobby_timeout, heartbeat
        self.extra = extra  # more `join` options (an online table: its relays, STUN, TURN)
        self.children: list[subprocess.Popen[bytes]] = []

    @classmethod
    def for_table(cls, cfg: PeerConfig, count: int, data_dir: Path | None = None,
                  extra: tuple[str, ...] = ()) -> LocalBots:
        """`count` bots with the host's interface and limits (data in `data_dir`/bot-K);
        `extra`: more `join` options (an online table's relays, STUN, TURN)."""
        return cls(count, data_dir or cfg.data_dir, cfg.interface, cfg.timeout, cfg.lobby_timeout,
                   cfg.heartbeat, extra)

    def command(self, url: str, k: int) -> list[str]:
        cmd = [sys.executable, "-m", "p2ptarot.cli.main", "join", url, "--bot", "--quiet",
               "--name", f"bot-{k}", "--data-dir", str(self.data_dir / f"bot-{k}"),
               "--timeout", str(self.timeout), "--lobby-timeout", str(self.lobby_timeout)]
        if self.interface:
            cmd += ["--interface", self.interface]
        if self.heartbeat is not None:
            cmd += ["--heartbeat", f"{self.heartbeat:g}"]
        return cmd + list(self.extra)

    def spawn(self, url: str) -> None:
        """Start the bots, dialling the host at `url` (called once the table listens)."""
        for k in range(1, self.count + 1):
            home = self.data_dir / f"bot-{k}"
            home.mkdir(parents=True, exist_ok=True)
            # what a bot says goes to its own log: it may outlive the host's terminal or pipe
            with open(home / "bot.log", "ab") as log:
                self.children.append(subprocess.Popen(
                    self.command(url, k), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=log, start_new_session=True))

    def stop(self, finished: bool, started: bool = False) -> None:
        """Wait for the bots of a finished game; end them when the table never started (they
        have no game); leave them playing when the host stopped a started game (it resumes)."""
        if started and not finished:
            self.children.clear()  # their own peers now: they wait for the host's --resume
            return
        for child in self.children:
            if not finished:
                child.terminate()
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


async def host_with_bots(cfg: PeerConfig, game: str, variant: str | None, seats: int,
                         choose: Chooser, bots: LocalBots,
                         options: dict[str, Any] | None = None) -> GameResult:
    """Host a table and fill some of its seats with `bots` (started once the table listens);
    whatever happens to the host's game (finished, failed, cancelled), they are stopped before
    this returns, but a started game's bots outlive a host that stops (`--resume` finds them)."""
    finished = False
    saved = set(DataDir(cfg.data_dir).unfinished())
    try:
        result = await run_host(cfg, game, variant, seats, choose, options,
                                on_listening=bots.spawn if bots.count else None)
        finished = True
        return result
    finally:
        started = bool(set(DataDir(cfg.data_dir).unfinished()) - saved)
        await asyncio.shield(asyncio.to_thread(bots.stop, finished, started))
