"""The feed from a table being played to the peer application layer (`p2ptarot.app`).

Moves with their sentences, the view, what the table waits for and until when, presence (links
lost and back). A no-op without a hub, so bots and tests without a front end pay nothing.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from p2ptarot import app
from p2ptarot.app.events import ChatLine, Event, LinkPaths
from p2ptarot.app.facts import (Fact, GameOver, GameStopped, Heard, LinkChanged, MoveRecorded,
                                ViewNow, WaitingOn)
from p2ptarot.table.charter import Charter
from p2ptarot.table.effects import Aborted, Effect, Finished, Record
from p2ptarot.table.names import printable
from p2ptarot.table.session import MOVE_STEP_KINDS, Session

if TYPE_CHECKING:  # loaded only with a hub: a bot peer never imports the front end
    from p2ptarot.app.hub import Hub
    from p2ptarot.app.table import TableApp


class Watcher:
    """One hub's view of the table: the seat's own (its cards), or the public one."""

    def __init__(self, hub: Hub | None, session: Session, charter: Charter, seat: int,
                 transcript: Path, public: bool = False) -> None:
        self.hub, self.session, self.charter = hub, session, charter
        self.seat: int | None = None if public or (hub is not None and hub.public) else seat
        self.transcript = transcript
        self.step, self.step_start = -1, time.monotonic()
        #: the table's limit: a step waiting this long on other seats abandons the table
        self._limit = float(charter.timeout)
        self.app: TableApp | None = None
        self._view: dict[str, Any] | None = None
        self._last_chat: dict[int, float] = {}
        self._paths: list[dict[str, Any]] = []
        if hub is not None:
            self.app = app.TableApp(charter.game, charter.variant, [s.name for s in charter.seats],
                                self.seat, charter.timeout, charter.stand_in_after)
            hub.open_table(self.app)
            hub.publish(self.app.opened())
            self._view = session.game.view(seat)
        #: rounds whose result already held the next deal (a resumed game's are not held again)
        self._held = self._rounds_ended()

    def _rounds_ended(self) -> int:
        if self.app is None:
            return 0
        from p2ptarot.app.results import round_rows  # noqa: PLC0415 - front end only

        return len(round_rows(self.session.game.view(self.seat), self.app.names))

    def shown_unheld(self) -> bool:
        """A round already shown (at an earlier batch's end) has not held anything yet."""
        return self.app is not None and self._held < self.app.rounds_seen \
            and self.round_to_hold(mark=False) is not None

    def round_to_hold(self, mark: bool = True) -> int | None:
        """The number of a round that ended and has not yet held what follows, or None (no
        front end, the game over, nothing new); `mark`: it is held now."""
        if self.app is None or self.session.finished or self.session.game.is_over():
            return None  # after the last round the standings come, not a deal
        ended = self._rounds_ended()
        if ended <= self._held:
            return None
        if mark:
            self._held = ended
        return ended

    def _publish(self, event: Event | None) -> None:
        if self.hub is not None:
            self.hub.publish(event)

    def _tell(self, fact: Fact) -> None:
        """Hand the app what happened; publish the events it makes of it."""
        if self.app is not None:
            for event in self.app.take(fact):
                self._publish(event)

    def effect(self, e: Effect) -> None:
        if self.app is None:
            return
        if isinstance(e, Record):
            self._tell(Heard(e.envelope.seat))
        if isinstance(e, Record) and e.envelope.kind in ("move", "move.open") \
                and isinstance(e.envelope.body.get("move"), dict):
            by = e.envelope.body.get("by")  # validated by the session: "bot" or absent
            self._tell(MoveRecorded(e.envelope.step, e.envelope.seat, e.envelope.body["move"],
                                    self._view or {}, by if isinstance(by, str) else None))
        elif isinstance(e, Finished):
            self._tell(GameOver(e.outcome.scores, e.outcome.winners, str(self.transcript),
                                self.session.game.view(self.seat)))
        elif isinstance(e, Aborted):
            self._tell(GameStopped(e.blame, e.reason, e.step))

    def settle(self) -> None:
        """After a batch of effects: the new view and what the table now waits for."""
        if self.app is None or self.session.finished:
            return
        if self.session.step != self.step:
            self.step, self.step_start = self.session.step, time.monotonic()
        self._view = self.session.game.view(self.seat)
        self._tell(ViewNow(self._view))
        spec = self.session.spec
        pending = self.session.pending_seats()
        if spec is None or not pending:
            return
        what = "move" if spec.kind in MOVE_STEP_KINDS else spec.label
        deadline = time.time() + self._limit - (time.monotonic() - self.step_start)
        self._tell(WaitingOn(pending, what, deadline))

    def chat_out(self) -> list[str]:
        """Chat lines the player typed since the last call (to broadcast)."""
        return self.hub.take_chat() if self.hub is not None else []

    def chat(self, peer: bytes, text: object) -> None:
        """A peer's chat line: shown with its player's name, printable and short, at most one
        every half second per peer (a flood is dropped, not queued)."""
        seat = self.charter.seat_of(peer)
        if self.app is None or seat is None or not isinstance(text, str):
            return
        now = time.monotonic()
        if now - self._last_chat.get(seat, -1.0) < 0.5:
            return
        self._last_chat[seat] = now
        self._publish(ChatLine(self.app.name(seat), printable(text, 300)))

    def paths(self, paths: dict[bytes, tuple[str, float | None]]) -> None:
        """Online links: each seat's path and round-trip time, published when it changes (the
        time rounded to 10 ms, so a page is not redrawn for jitter)."""
        if self.app is None:
            return
        rows: list[dict[str, Any]] = []
        for peer, (path, rtt) in paths.items():
            seat = self.charter.seat_of(peer)
            if seat is not None and seat != self.seat:
                rows.append({"seat": seat, "name": self.app.name(seat), "path": path,
                             "rtt_ms": None if rtt is None else round(rtt * 100) * 10})
        rows.sort(key=lambda r: r["seat"])
        if rows != self._paths:
            self._paths = rows
            self._publish(LinkPaths(tuple(rows)))

    def link(self, peer: bytes, up: bool) -> None:
        if self.app is None:
            return
        seat = self.charter.seat_of(peer)
        if seat is not None:
            self._tell(LinkChanged(seat, up, since=time.time()))
