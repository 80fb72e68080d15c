"""The game pump: one table played to its end around the sans-I/O `table.Session`.

Everything protocol-relevant happens in the session; this module moves bytes between it, the
links, the data directory and the local player (bot or human), and keeps the clocks: catch-up
requests when a step stalls, links that heal (`heal.py`), and the abandonment rule when a step
waits past the table's limit (PROTOCOL §8: silence and unreachability convict nobody).
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import logging
from typing import Any, Awaitable, Callable, Iterator

from p2ptarot.crypto.signing import Identity
from p2ptarot.engine import Move
from p2ptarot.net.errors import MeshError
from p2ptarot.net.events import LinkDown, LinkUp, Received
from p2ptarot.net.link import Links
from p2ptarot.i18n import _
from p2ptarot.i18n.message import tr
from p2ptarot.mental import ahead as shuffle_ahead
from p2ptarot.mental.randomness import SeededRandomSource
from p2ptarot.table.charter import SignedCharter
from p2ptarot.table.control import ChatFrame, ControlFrame, DoneFrame, JoinFrame, SignedFrame, SyncFrame
from p2ptarot.table.digest import DigestFrame
from p2ptarot.table.effects import (Aborted, DigestTo, Effect, Finished, Forward, Found, NeedMove,
                                    Notice, Progress, ResendTo, Send)
from p2ptarot.table.errors import TableUsageError
from p2ptarot.table.inputs import StandInMove
from p2ptarot.table.names import printable
from p2ptarot.table.session import Session

from .catchup import CatchUp, SyncServer
from .config import Chooser, GameResult, PeerConfig, RunError
from .fault_point import StopBefore
from .frames import MALFORMED, ctl, control_of, finished_seats, safe_send
from .heal import HIGHER_SEAT_PAUSE, Healer
from .sentlog import OncePerLink, SentLog
from .stall import Due, LingerTimers, StallTimers
from . import texts
from .store import DataDir, LineAppender, TableStore, persist, test_secret
from .trace import StepTrace
from .watcher import Watcher

logger = logging.getLogger(__name__)

#: steps of history a deep catch-up asks for and pushes
SYNC_BACK = 8


def _exit_without_collecting() -> None:
    """When the process exits, move every object out of the garbage collector's reach
    (`gc.freeze`) first: the interpreter's teardown otherwise runs full collections over the
    network stack's and the game's objects while it unloads the modules, 0.4-1.0 s of CPU per
    peer at load 7-11 after its game had ended (issue 36; aiohttp's modules alone 0.19 s), and
    the last peer's exit is the end of the table's wall time. Only collection is skipped: the
    atexit handlers registered before this one still run, files are closed, the memory is the
    OS's again; an object left in a reference cycle at exit misses its `__del__`, which Python
    never promised at exit anyway. Registered once, by a process that plays a game."""
    if not getattr(_exit_without_collecting, "registered", False):
        atexit.register(gc.freeze)
        _exit_without_collecting.registered = True  # type: ignore[attr-defined]  # a flag kept on the function itself (registered once per process)


async def play(cfg: PeerConfig, links: Links, identity: Identity, signed: SignedCharter,
               choose: Chooser, resume: bool = False) -> GameResult:
    """Play one table to its end (or abort) over the links; persist everything on the way."""
    _exit_without_collecting()
    shuffle_ahead.enable()  # a seat makes its shuffle while it checks the one before (ahead.py)
    data = DataDir(cfg.data_dir)
    store = TableStore(data, signed, cfg.test_seed)
    charter = signed.charter
    seat = charter.seat_of(identity.public_bytes)
    if seat is None:
        raise RunError(_("this identity has no seat at the table"))
    session = Session(signed, seat, identity, store.seed,
                      None if cfg.test_seed is None
                      else SeededRandomSource(test_secret(cfg.test_seed, "deck")))
    saved = store.saved_messages() if resume else []
    outbox = store.outbox()
    transcript = store.fresh_transcript()
    keys = [charter.seat_key(i) for i in range(len(charter.seats))]
    links.admit_only(keys)  # a running game talks to its seats only (strangers are cut off)
    # an answer never sends a link an envelope it carried lately
    links = OncePerLink(links, SentLog(clock=cfg.clock.monotonic),
                        seats={key: i for i, key in enumerate(keys)})

    healer = Healer(links, keys, [s.address for s in charter.seats], seat,
                    pause=0.0 if resume else HIGHER_SEAT_PAUSE)
    watch = Watcher(cfg.hub, session, charter, seat, store.transcript_path)
    # spectators (a page showing the public table) get their own feed, never this seat's cards
    audience = Watcher(cfg.spectators, session, charter, seat, store.transcript_path, public=True)
    effects = _Effects(cfg, links, keys, [s.name for s in charter.seats], watch, audience,
                       choose, charter.timeout / 2, transcript, outbox, seat)
    reporter = asyncio.ensure_future(_report_paths(links.paths, watch))  # online: which path

    def on_link(peer: bytes, up: bool) -> None:
        watch.link(peer, up)
        audience.link(peer, up)

    def on_chat(peer: bytes, text: object) -> None:
        watch.chat(peer, text)
        audience.chat(peer, text)
    try:
        await _pump(cfg, links, session, effects.handle, healer, effects.moves,
                    saved if resume else None,
                    on_link=on_link, on_chat=on_chat,
                    chat_out=watch.chat_out, trace=effects.trace)
    finally:
        if effects.trace is not None:
            effects.trace.write()
        reporter.cancel()
        await healer.close()
        effects.cancel()
        outbox.close()
        transcript.close()
    if session.outcome is not None:
        store.mark_done()
    return GameResult(charter.table_id, store.transcript_path, session.outcome, session.aborted)


class _Effects:
    """Carries out the session's effects for the game pump: one durable write per batch
    (`persist`), then each effect by the handler its type names in `_EFFECTS` (types with none,
    such as `Record`, need nothing more)."""

    def __init__(self, cfg: PeerConfig, links: Links, keys: list[bytes], names: list[str],
                 watch: Watcher, audience: Watcher, choose: Chooser, hold_for: float,
                 transcript: LineAppender, outbox: LineAppender, seat: int) -> None:
        self.cfg, self.links, self.keys, self.names = cfg, links, keys, names
        self.watch, self.audience, self.choose, self.hold_for = watch, audience, choose, hold_for
        self.transcript, self.outbox = transcript, outbox
        self.moves: asyncio.Queue[Move | StandInMove | Exception] = asyncio.Queue()
        self.pending_choice: list[asyncio.Task[None]] = []
        self.loaded = False  # the saved messages of a resumed game are replayed first: no hold
        self.trace = StepTrace.from_env(seat)  # a benchmark's per-step trace (off: None)
        self.stop_before = StopBefore.from_env()  # a test's fault point (off: None)
        self._lines: Iterator[bytes] = iter(())
        self._ended_before = False

    async def handle(self, effects: list[Effect]) -> None:
        # a round that ended before this batch holds its first message, a move included; one
        # that ends in it holds the first message after its own ending move
        self._ended_before = self.cfg.hub is not None and self.loaded \
            and self.watch.shown_unheld()
        if self.trace is not None:
            self.trace.mark("session")
            self.trace.sent(sum(isinstance(e, Send) for e in effects))
        self._lines = iter(persist(effects, self.transcript, self.outbox))
        if self.trace is not None:
            self.trace.mark("persist")
        for e in effects:
            self.watch.effect(e)
            self.audience.effect(e)
            handler = _EFFECTS.get(type(e))
            if handler is not None:
                await handler(self, e)
        if self.trace is not None:
            self.trace.mark("send")
        self.watch.settle()
        self.audience.settle()
        self.loaded = True

    def cancel(self) -> None:
        for task in self.pending_choice:
            task.cancel()

    async def _hold_round_end(self) -> None:
        """A round ended: before this seat's first message of what follows (the next deal, or
        its first move of the next round), the player reads the result until he continues
        (`Hub.hold_round`); the other seats wait for that message as for a slow peer, well
        within the table's limit."""
        if self.cfg.hub is None or not self.loaded:
            return
        number = self.watch.round_to_hold()
        if number is None:
            return
        self.watch.settle()  # the round's result on the screen first
        self.audience.settle()
        await self.cfg.hub.hold_round(number, self.hold_for)

    async def send(self, e: Send) -> None:
        if self._ended_before or e.envelope.kind not in ("move", "move.open"):
            await self._hold_round_end()
        if self.stop_before is not None:
            self.stop_before.before_send(e.envelope.kind)
        await self.links.broadcast(next(self._lines))

    async def forward(self, e: Forward) -> None:
        """An abort record: every peer learns who stopped."""
        try:
            await self.links.broadcast(e.envelope.encoded())
        except MeshError as exc:
            logger.info("relay failed: %s", exc)

    async def digest_to(self, e: DigestTo) -> None:
        """Step messages are compared by digest, not relayed."""
        if e.seat is None:
            await self.links.broadcast(ctl(e.frame))
        else:
            await safe_send(self.links, self.keys[e.seat], ctl(e.frame))

    async def resend_to(self, e: ResendTo) -> None:
        await safe_send(self.links, self.keys[e.seat], e.envelope.encoded())

    async def need_move(self, e: NeedMove) -> None:
        async def ask() -> None:
            try:
                choice: Move | StandInMove | Exception = await self.choose(e)
            except Exception as exc:  # surfaced by the game loop, never swallowed
                choice = exc
            await self.moves.put(choice)
        self.pending_choice.append(asyncio.create_task(ask()))

    async def progress(self, e: Progress) -> None:
        if logger.isEnabledFor(logging.DEBUG):  # a player's peer logs no step lines
            logger.debug("step %d: %s", e.step, printable(e.text))

    async def notice(self, e: Notice) -> None:
        logger.info("%s", printable(e.text))

    async def finished(self, e: Finished) -> None:
        self.cfg.say(texts.game_over(self.names, e))

    async def found(self, e: Found) -> None:
        self.cfg.say(texts.at_fault(self.names, e))

    async def aborted(self, e: Aborted) -> None:
        self.cfg.say(texts.aborted(self.names, e))


#: each effect type the pump acts on, and how
_EFFECTS: dict[type, Callable[[_Effects, Any], Awaitable[None]]] = {
    Send: _Effects.send, Forward: _Effects.forward, DigestTo: _Effects.digest_to,
    ResendTo: _Effects.resend_to, NeedMove: _Effects.need_move, Progress: _Effects.progress,
    Notice: _Effects.notice, Finished: _Effects.finished, Found: _Effects.found,
    Aborted: _Effects.aborted}


async def _report_paths(paths: Callable[[], dict[bytes, tuple[str, float | None]]],
                        watch: Watcher, every: float = 2.0) -> None:
    """Show the player each online link's path and round-trip time as they change."""
    while True:
        watch.paths(paths())
        await asyncio.sleep(every)


async def _send_chat(links: Links, chat_out: Callable[[], list[str]] | None) -> None:
    """The player's chat lines typed since the last turn of the pump."""
    for text in chat_out() if chat_out is not None else []:
        await links.broadcast(ChatFrame(text=text).wire())


async def _pump(cfg: PeerConfig, links: Links, session: Session,
                handle: Callable[[list[Effect]], Awaitable[None]], healer: Healer,
                moves: "asyncio.Queue[Move | StandInMove | Exception]", saved: list[bytes] | None,
                on_link: Callable[[bytes, bool], None] | None = None,
                on_chat: Callable[[bytes, object], None] | None = None,
                chat_out: Callable[[], list[str]] | None = None,
                trace: StepTrace | None = None) -> None:
    """Feed the session from the links and the local chooser until the game ends, then linger;
    a stalled step asks again, deeper, then abandons (PROTOCOL §8: `stall.StallTimers`)."""
    healer.start()
    catch = CatchUp(have=session.have)  # asks again at once past a window; names what we hold
    await _begin(cfg, links, session, handle, saved, catch)
    syncs = SyncServer()
    clock = cfg.clock
    timers = StallTimers(session.step, float(cfg.timeout), float(session.charter.timeout),
                         clock.monotonic(), clock.wall())
    done: set[bytes] = set()  # peers that said they finished: they hold all our messages
    # one waiting task per source, kept across turns until it yields, rather than two new tasks,
    # a wait and a cancellation per event (15-25 us less per event: small, ~20 ms a peer and game)
    event_task: asyncio.Future[Any] | None = None
    move_task: asyncio.Future[Any] | None = None
    try:
        while not session.finished:
            if event_task is None:
                event_task = asyncio.ensure_future(links.next_event())
            if move_task is None:
                move_task = asyncio.ensure_future(moves.get())
            if not (event_task.done() or move_task.done()):
                await asyncio.wait({event_task, move_task}, timeout=1.0,
                                   return_when=asyncio.FIRST_COMPLETED)
            if move_task.done():
                choice, move_task = move_task.result(), None
                await _on_move(session, handle, choice, trace)
            if event_task.done():
                ev, event_task = event_task.result(), None
                if trace is not None:
                    trace.begin("recv", session.step, ev.data if isinstance(ev, Received) else None)
                await _on_event(links, session, handle, healer, syncs, done, ev, on_link, on_chat,
                                catch)
                if trace is not None:
                    trace.end(session.step)
                await _continue(links, session, catch, trace)
            await _send_chat(links, chat_out)
            if session.finished:
                break
            due = timers.tick(session.step, clock.monotonic(), clock.wall(), session.taken)
            if trace is not None and due in (Due.DEEP, Due.RESYNC):
                trace.note(due.value, session.step)
            await _on_due(due, links, session, handle, timers, catch)
    finally:
        for task in (event_task, move_task):
            if task is not None and not task.done():
                task.cancel()  # a queue's get gives nothing up when cancelled
    if trace is not None:
        trace.note("over", session.step)
    # an event that arrived while this turn awaited something else is the linger's first
    await _linger(cfg, links, session, handle, healer, syncs, done, _taken(event_task))
    if trace is not None:
        trace.note("left", session.step)


async def _begin(cfg: PeerConfig, links: Links, session: Session,
                 handle: Callable[[list[Effect]], Awaitable[None]],
                 saved: list[bytes] | None, catch: CatchUp) -> None:
    """Start the session (or replay a resumed game's saved messages) and ask every peer for
    what this seat lacks."""
    if saved is not None:
        cfg.say(texts.resuming(len(saved)))
        await handle(session.load(saved))
    else:
        await handle(session.start())
    await links.broadcast(catch.ask(session.step).wire())


async def _continue(links: Links, session: Session, catch: CatchUp,
                    trace: StepTrace | None) -> None:
    """An answer's whole window taken: ask for the rest at once."""
    follow = catch.again(session.step)
    if follow is not None:
        if trace is not None:
            trace.note("more", session.step)
        await links.broadcast(follow.wire())


async def _on_due(due: Due, links: Links, session: Session,
                  handle: Callable[[list[Effect]], Awaitable[None]], timers: StallTimers,
                  catch: CatchUp) -> None:
    """What the stall clocks asked for."""
    if due is Due.DEEP:
        await _deep_catch_up(links, session, catch)
    elif due is Due.ABANDON:
        await handle(session.abandon(timers.since_text()))
    elif due is Due.RESYNC:
        await links.broadcast(catch.ask(session.step).wire())
        await handle(session.digest())  # a peer on another history shows its heads


async def _deep_catch_up(links: Links, session: Session, catch: CatchUp) -> None:
    """Ask every peer from a few steps back (a split view's other version precedes the stall)
    and push the same to the seats this one waits for (one that missed a message is waiting on
    us, not silent): a seat waiting on someone else is never named."""
    back = max(0, session.step - SYNC_BACK)
    await links.broadcast(catch.ask(back).wire())
    recent = session.messages_from(back)
    for seat in session.pending_seats():
        if seat != session.seat:
            for env in recent:
                await safe_send(links, session.charter.seat_key(seat), env.encoded())


def _taken(task: asyncio.Future[Any] | None) -> Any:
    """The result of a finished task, None if it has none."""
    if task is not None and task.done() and not task.cancelled() and task.exception() is None:
        return task.result()
    return None


async def _on_move(session: Session, handle: Callable[[list[Effect]], Awaitable[None]],
                   choice: Move | StandInMove | Exception, trace: StepTrace | None) -> None:
    """This seat's move, chosen by the local chooser (a person, a bot or the stand-in)."""
    if trace is not None:
        trace.begin("move", session.step)
    if isinstance(choice, Exception):
        raise RunError(tr("no move for seat {seat}: {choice}",
                          seat=session.seat, choice=choice)) from choice
    try:
        if isinstance(choice, StandInMove):
            effects = session.act(choice.move, by="bot")
        else:
            effects = session.act(choice)
    except TableUsageError as exc:  # the local chooser broke the rules: a bug, not a fault
        raise RunError(tr("the move chosen for seat {seat} was refused: {exc}",
                          seat=session.seat, exc=exc)) from exc
    await handle(effects)
    if trace is not None:
        trace.end(session.step)


async def _on_event(links: Links, session: Session,
                    handle: Callable[[list[Effect]], Awaitable[None]], healer: Healer,
                    syncs: SyncServer, done: set[bytes], ev: Any,
                    on_link: Callable[[bytes, bool], None] | None,
                    on_chat: Callable[[bytes, object], None] | None,
                    catch: CatchUp | None = None) -> None:
    """One event of the links while the game runs."""
    if isinstance(ev, Received):
        frame = control_of(ev)
        if frame is None:
            await handle(session.receive(ev.data))
        elif frame is not MALFORMED:
            await _GAME_FRAMES.get(type(frame), _ignore)(
                _Play(links, session, handle, syncs, done, on_chat), ev.peer, frame)
    elif isinstance(ev, LinkUp):  # a new or healed link: each side asks the other
        request = catch.ask(session.step) if catch is not None else SyncFrame(step=session.step)
        await safe_send(links, ev.peer, request.wire())
    elif isinstance(ev, LinkDown):
        healer.lost(ev.peer)
    if on_link is not None and isinstance(ev, (LinkUp, LinkDown)):
        on_link(ev.peer, isinstance(ev, LinkUp))


class _Play:
    """What a control frame's handler may touch while the game runs."""

    __slots__ = ("links", "session", "handle", "syncs", "done", "on_chat")

    def __init__(self, links: Links, session: Session,
                 handle: Callable[[list[Effect]], Awaitable[None]], syncs: SyncServer,
                 done: set[bytes], on_chat: Callable[[bytes, object], None] | None) -> None:
        self.links, self.session, self.handle = links, session, handle
        self.syncs, self.done, self.on_chat = syncs, done, on_chat


async def _on_done(play: _Play, peer: bytes, frame: DoneFrame) -> None:
    seat_keys = [play.session.charter.seat_key(i) for i in range(play.session.n)]
    play.done.update(finished_seats(frame, peer, seat_keys))


async def _on_chat(play: _Play, peer: bytes, frame: ChatFrame) -> None:
    if play.on_chat is not None:
        play.on_chat(peer, frame.text)


async def _on_digest(play: _Play, peer: bytes, frame: DigestFrame) -> None:
    sender = play.session.charter.seat_of(peer)
    if sender is not None:
        await play.handle(play.session.receive_digest(sender, frame))


async def _on_join(play: _Play, peer: bytes, frame: JoinFrame) -> None:
    """A seat whose lobby link dropped before `signed` reached it: the signed charter again."""
    if play.session.charter.seat_of(peer) is not None:
        signed = play.session.signed.model_dump(mode="json")
        await safe_send(play.links, peer, SignedFrame(signed=signed).wire())


async def _on_sync(play: _Play, peer: bytes, frame: SyncFrame) -> None:
    await _answer_sync(play.links, play.syncs, play.session, peer, frame)


async def _ignore(play: _Play, peer: bytes, frame: ControlFrame) -> None:
    """A well-formed frame that has no meaning while the game runs (a lobby frame)."""


#: the game's control frames, by type
_GAME_FRAMES: dict[type, Callable[[_Play, bytes, Any], Awaitable[None]]] = {
    DoneFrame: _on_done, ChatFrame: _on_chat, DigestFrame: _on_digest, JoinFrame: _on_join,
    SyncFrame: _on_sync}


async def _linger(cfg: PeerConfig, links: Links, session: Session,
                  handle: Callable[[list[Effect]], Awaitable[None]], healer: Healer,
                  syncs: SyncServer, done: set[bytes], first: Any = None) -> None:
    """Stay while a seat may still lack our last messages (`first`: an event already taken from
    the links, handled first). A finished table waits for every
    seat's `done` — re-dialling the unreachable ones — up to the table's limit: a seat cut off
    during the final audit finishes from us when its link heals; a linked seat's `done` is
    awaited twice the heartbeat from the last link that came up: a dead link looks up until the
    heartbeat drops it (our last messages may have gone into it: then the seat is re-dialled),
    and a healed one needs a catch-up first. An abandoned table
    waits `cfg.linger` s for the seats linked now (the others reach the same end on their own)."""
    seat_keys = [session.charter.seat_key(i) for i in range(session.n)]
    keys = set(seat_keys) - {links.public_key}
    finished = session.outcome is not None

    def done_frame() -> bytes:  # who we know finished, ourselves included (see finished_seats)
        known = [i for i, key in enumerate(seat_keys) if i == session.seat or key in done]
        return DoneFrame(step=session.step, seats=known).wire()
    await links.broadcast(done_frame())
    clock = cfg.clock.monotonic
    timers = LingerTimers(finished, cfg.linger, cfg.heartbeat, float(session.charter.timeout),
                          clock())
    try:
        while True:
            waiting = (keys if finished else set(links.peers())) - done
            left = timers.left(clock(), bool(waiting - set(links.peers())))
            if waiting and timers.tell(clock(), left):
                _say_waiting(cfg, session, seat_keys, waiting, left)
            if first is not None:
                ev, first = first, None
            elif not waiting or left <= 0:
                break
            else:
                try:  # (asyncio.timeout: 3.11's wait_for can drop a cancellation)
                    async with asyncio.timeout(min(max(0.05, left), 1.0)):
                        ev = await links.next_event()
                except TimeoutError:
                    continue
            if isinstance(ev, Received):
                frame = control_of(ev)
                if isinstance(frame, DoneFrame):
                    before = len(done)
                    done.update(finished_seats(frame, ev.peer, seat_keys))
                    if len(done) > before:  # pass it on: a seat whose own `done` to some
                        await links.broadcast(done_frame())  # peer was lost is still known
                elif isinstance(frame, SyncFrame):
                    await _answer_sync(links, syncs, session, ev.peer, frame)
                elif frame is None:
                    await handle(session.receive(ev.data))
            elif isinstance(ev, LinkUp):
                timers.linked(clock())
                await safe_send(links, ev.peer, done_frame())
            elif isinstance(ev, LinkDown):
                healer.lost(ev.peer)
    finally:
        await healer.close()


def _say_waiting(cfg: PeerConfig, session: Session, seat_keys: list[bytes], waiting: set[bytes],
                 left: float) -> None:
    """A finished seat's long wait for others' `done`: whom for, and that the player may go."""
    cfg.say(texts.waiting_for([session.charter.seats[i].name for i, key in enumerate(seat_keys)
                               if key in waiting], left))


async def _answer_sync(links: Links, syncs: SyncServer, session: Session, peer: bytes,
                       frame: SyncFrame) -> None:
    """Serve a catch-up request: rate-limited per peer, size-bounded (see `catchup`)."""
    for data in syncs.answer(peer, lambda: session.messages_from(frame.step), frame.step,
                             frame.have):
        await safe_send(links, peer, data)


