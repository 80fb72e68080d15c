"""The lobby behind `p2ptarot web`: the open tables zeroconf sees, and sitting at one of them
from the page (the game is then played in the same page)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from p2ptarot.app.events import Notice, Sit, TablesSeen
from p2ptarot.app.human import human_seat
from p2ptarot.app.table import Hub
from p2ptarot.net.discovery import TableAdvert, TableBrowser
from p2ptarot.net.runner import GameResult, PeerConfig, RunError, run_join

logger = logging.getLogger(__name__)


def table_row(advert: TableAdvert) -> dict[str, Any]:
    t = advert.table
    return {"game": t.game, "variant": t.variant, "host": t.host_name or t.fingerprint,
            "fingerprint": t.fingerprint, "taken": t.seats_taken,
            "free": t.seats_total - t.seats_taken, "full": t.is_full,
            # the fingerprint pins the host: the page never sits at a table it did not show
            "target": t.fingerprint}


class Lobby:
    def __init__(self, hub: Hub, cfg: PeerConfig, interfaces: list[str] | None) -> None:
        self.hub, self.cfg, self.interfaces = hub, cfg, interfaces
        self.game: asyncio.Task[GameResult] | None = None
        self._last: tuple[Any, ...] | None = None

    async def watch(self, every: float = 1.0) -> None:
        """Publish the open tables whenever the list changes (until the player sits down)."""
        async with TableBrowser(interfaces=self.interfaces) as browser:
            while self.game is None:
                rows = tuple(sorted((table_row(a) for a in browser.tables.values()),
                                    key=lambda r: (r["game"], r["host"])))
                key = tuple(tuple(sorted(r.items())) for r in rows)
                if key != self._last:
                    self._last = key
                    self.hub.publish(TablesSeen(rows, self.cfg.name))
                await asyncio.sleep(every)

    async def command(self, cmd: Any) -> None:
        """Sit: join the named table and play it in this page."""
        if not isinstance(cmd, Sit) or self.game is not None:
            return
        if cmd.name.strip():
            self.cfg.name = cmd.name.strip()[:40]
        self.hub.publish(Notice(f"joining the table of {cmd.target}..."))
        self.game = asyncio.create_task(run_join(self.cfg, cmd.target, None,
                                                 human_seat(self.hub, self.cfg.name)))
        self.game.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[GameResult]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if isinstance(exc, RunError):
            self.hub.publish(Notice(f"could not play: {exc}"))
        elif exc is not None:
            logger.error("lobby game failed", exc_info=exc)
            self.hub.publish(Notice(f"the game stopped: {exc}"))
