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
import time
from typing import Any, Awaitable, Callable

from p2ptarot.crypto.signing import Identity
from p2ptarot.engine import Move
from p2ptarot.net.errors import MeshError
from p2ptarot.net.events import LinkDown, LinkUp, Received
from p2ptarot.net.link import Links
from p2ptarot.i18n import _
from p2ptarot.i18n.message import render as say
from p2ptarot.mental import ahead as shuffle_ahead
from p2ptarot.mental.randomness import SeededRandomSource
from p2ptarot.table.charter import SignedCharter
from p2ptarot.table.effects import (Aborted, DigestTo, Effect, Finished, Forward, Found, NeedMove,
                                    Notice, Progress, Record, ResendTo, Send)
from p2ptarot.table.errors import TableUsageError
from p2ptarot.table.inputs import StandInMove
from p2ptarot.table.names import printable
from p2ptarot.table.session import Session

from .catchup import RESYNC_AFTER, CatchUp, SyncServer, sync_step
from .config import Chooser, GameResult, PeerConfig, RunError
from .fault_point import StopBefore
from .frames import ctl, finished_seats, parse_ctl, safe_send
from .heal import HIGHER_SEAT_PAUSE, Healer
from .store import DataDir, LineAppender, TableStore, test_secret
from .trace import StepTrace
from .watcher import Watcher

logger = logging.getLogger(__name__)

#: seconds between the last catch-up request and abandoning the table
ABANDON_GRACE = 3.0
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

    healer = Healer(links, keys, [s.address for s in charter.seats], seat,
                    pause=0.0 if resume else HIGHER_SEAT_PAUSE)
    moves: asyncio.Queue[Move | StandInMove | Exception] = asyncio.Queue()
    pending_choice: list[asyncio.Task[None]] = []
    names = [s.name for s in charter.seats]
    watch = Watcher(cfg.hub, session, charter, seat, store.transcript_path)
    # spectators (a page showing the public table) get their own feed, never this seat's cards
    audience = Watcher(cfg.spectators, session, charter, seat, store.transcript_path, public=True)

    loaded = [False]  # the saved messages of a resumed game are replayed first: no hold then
    trace = StepTrace.from_env(seat)  # a benchmark's per-step trace (off: None)
    stop_before = StopBefore.from_env()  # a test's fault point (off: None)

    async def hold_round_end() -> None:
        """A round ended: before this seat's first message of what follows (the next deal, or
        its first move of the next round), the player reads the result until he continues
        (`Hub.hold_round`); the other seats wait for that message as for a slow peer, well
        within the table's limit."""
        if cfg.hub is None or not loaded[0]:
            return
        number = watch.round_to_hold()
        if number is None:
            return
        watch.settle()  # the round's result on the screen first
        audience.settle()
        await cfg.hub.hold_round(number, charter.timeout / 2)

    async def handle(effects: list[Effect]) -> None:
        # a round that ended before this batch holds its first message, a move included; one
        # that ends in it holds the first message after its own ending move
        ended_before = cfg.hub is not None and loaded[0] and watch.shown_unheld()
        if trace is not None:
            trace.mark("session")
            trace.sent(sum(isinstance(e, Send) for e in effects))
        sends = persist(effects, transcript, outbox)
        if trace is not None:
            trace.mark("persist")
        lines = iter(sends)
        for e in effects:
            watch.effect(e)
            audience.effect(e)
            if isinstance(e, Send):
                if ended_before or e.envelope.kind not in ("move", "move.open"):
                    await hold_round_end()
                if stop_before is not None:
                    stop_before.before_send(e.envelope.kind)
                await links.broadcast(next(lines))
            elif isinstance(e, Forward):  # an abort record: every peer learns who stopped
                try:
                    await links.broadcast(e.envelope.encoded())
                except MeshError as exc:
                    logger.info("relay failed: %s", exc)
            elif isinstance(e, DigestTo):  # step messages are compared by digest, not relayed
                if e.seat is None:
                    await links.broadcast(ctl(e.frame))
                else:
                    await safe_send(links, keys[e.seat], ctl(e.frame))
            elif isinstance(e, ResendTo):
                await safe_send(links, keys[e.seat], e.envelope.encoded())
            elif isinstance(e, NeedMove):
                async def ask(need: NeedMove = e) -> None:
                    try:
                        choice: Move | StandInMove | Exception = await choose(need)
                    except Exception as exc:  # surfaced by the game loop, never swallowed
                        choice = exc
                    await moves.put(choice)
                pending_choice.append(asyncio.create_task(ask()))
            elif isinstance(e, Progress):
                logger.debug("step %d: %s", e.step, printable(e.text))
            elif isinstance(e, Notice):
                logger.info("%s", printable(e.text))
            elif isinstance(e, Finished):
                scores = ", ".join(f"{names[i]} {score}" for i, score in enumerate(e.outcome.scores))
                won = ", ".join(names[w] for w in e.outcome.winners) or _("nobody")
                cfg.say(_("game over: {scores}; won by {winners}").format(scores=scores, winners=won))
            elif isinstance(e, Found):  # a fault the rules punish in play (Eleusis void round)
                cfg.say(_("{name} (seat {n}) is at fault: {reason}; play goes on").format(
                    name=names[e.blame], n=e.blame + 1, reason=printable(say(e.reason))))
            elif isinstance(e, Aborted):
                who = (_("{name} (seat {n}) is blamed").format(name=names[e.blame], n=e.blame + 1)
                       if e.blame is not None else _("nobody is blamed"))
                cfg.say(_("game aborted at step {step}: {who}: {reason}").format(
                    step=e.step, who=who, reason=printable(say(e.reason))))  # may quote a cheater's text
        if trace is not None:
            trace.mark("send")
        watch.settle()
        audience.settle()
        loaded[0] = True

    paths = getattr(links, "paths", None)  # online links say which path they took
    reporter = asyncio.ensure_future(_report_paths(paths, watch)) if callable(paths) else None
    try:
        await _pump(cfg, links, session, handle, healer, moves, saved if resume else None,
                    on_link=lambda peer, up: (watch.link(peer, up), audience.link(peer, up)),
                    on_chat=lambda peer, text: (watch.chat(peer, text), audience.chat(peer, text)),
                    chat_out=watch.chat_out, trace=trace)
    finally:
        if trace is not None:
            trace.write()
        if reporter is not None:
            reporter.cancel()
        await healer.close()
        for task in pending_choice:
            task.cancel()
        outbox.close()
        transcript.close()
    if session.outcome is not None:
        store.mark_done()
    return GameResult(charter.table_id, store.transcript_path, session.outcome, session.aborted)
def persist(effects: list[Effect], transcript: LineAppender, outbox: LineAppender) -> list[bytes]:
    """Write a batch's lines; return the own messages to send, every one durable already.

    One durable write per batch: the transcript's lines are handed to the OS (synced at close:
    every one of them is some seat's outbox line, and a resumed peer fetches a lost tail from its
    peers), the own messages are appended to the outbox and fsynced before this returns, so no
    peer can act on a message its author could lose in a crash (a resumed seat reuses it instead
    of signing a second version). The fsync runs on the event loop's thread: under load, the hop
    to a worker thread and back cost more wall time than the fsync itself (issue 36: 8.9 against
    6.4 ms from a batch's session work to its send, p50, 4 peers on one 2-core machine), and
    while the worker ran, the loop took up other frames and the send waited behind their
    verification."""
    sends = [e.envelope.encoded() for e in effects if isinstance(e, Send)]
    for e in effects:
        if isinstance(e, Record):
            transcript.append(e.envelope.encoded())
    for line in sends:
        outbox.append(line)
    if sends:
        outbox.sync()
    return sends


async def _report_paths(paths: Callable[[], dict[bytes, tuple[str, float | None]]],
                        watch: Watcher, every: float = 2.0) -> None:
    """Show the player each online link's path and round-trip time as they change."""
    while True:
        watch.paths(paths())
        await asyncio.sleep(every)


class _Stall:
    """How long the current step has waited, on this peer's running clock: time the peer itself
    was not running (suspended, SIGSTOP: the loop, which wakes every second, saw a gap) is not
    counted against the seats it waits for."""

    GAP = 5.0  # a loop turn longer than this means the peer itself was not running

    def __init__(self, step: int) -> None:
        now = time.monotonic()
        self.step, self.since, self.wall, self.tick = step, now, time.time(), now

    def observe(self, step: int) -> bool:
        """Note the session's step; True when it moved on."""
        now = time.monotonic()
        gap, self.tick = now - self.tick, now
        if gap > self.GAP:
            self.since += gap - 1.0
        if step != self.step:
            self.step, self.since, self.wall = step, now, time.time()
            return True
        return False

    def waited(self) -> float:
        return time.monotonic() - self.since

    def since_text(self) -> str:
        return time.strftime("%H:%M UTC", time.gmtime(self.wall))


async def _pump(cfg: PeerConfig, links: Links, session: Session,
                handle: Callable[[list[Effect]], Awaitable[None]], healer: Healer,
                moves: "asyncio.Queue[Move | StandInMove | Exception]", saved: list[bytes] | None,
                on_link: Callable[[bytes, bool], None] | None = None,
                on_chat: Callable[[bytes, object], None] | None = None,
                chat_out: Callable[[], list[str]] | None = None,
                trace: StepTrace | None = None) -> None:
    """Feed the session from the links and the local chooser until the game ends, then linger.

    Clocks (PROTOCOL §8): a stalled step asks for catch-up every `RESYNC_AFTER` s; after the
    local `cfg.timeout` it also pushes its recent messages to the seats it waits for and asks
    from a few steps back; past the table's limit (the charter's `timeout`, the same at every
    seat) it does that once more and then abandons the table, convicting nobody."""
    healer.start()
    if saved is not None:
        cfg.say(_("resuming from {n} saved messages").format(n=len(saved)))
        await handle(session.load(saved))
    else:
        await handle(session.start())
    catch = CatchUp()  # a peer far behind asks again as soon as it has taken an answer's window
    await links.broadcast(ctl(catch.ask(session.step)))
    syncs = SyncServer()
    stall = _Stall(session.step)
    table_limit = float(session.charter.timeout)
    deep_every = max(RESYNC_AFTER, min(float(cfg.timeout), table_limit))
    last_sync = last_deep = stall.since
    asked: float | None = None  # when the catch-up before abandoning was requested
    done: set[bytes] = set()  # peers that said they finished: they hold all our messages

    async def deep_catch_up() -> None:
        """Ask every peer from a few steps back (a split view's other version precedes the
        stall) and push the same to the seats this one waits for (one that missed a message
        is waiting on us, not silent): a seat waiting on someone else is never named."""
        back = max(0, session.step - SYNC_BACK)
        await links.broadcast(ctl(catch.ask(back)))
        recent = session.messages_from(back)
        for seat in session.pending_seats():
            if seat != session.seat:
                for env in recent:
                    await safe_send(links, session.charter.seat_key(seat), env.encoded())

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
                if trace is not None:
                    trace.begin("move", session.step)
                await _on_move(session, handle, choice)
                if trace is not None:
                    trace.end(session.step)
            if event_task.done():
                ev, event_task = event_task.result(), None
                if trace is not None:
                    trace.begin("recv", session.step, ev.data if isinstance(ev, Received) else None)
                await _on_event(links, session, handle, healer, syncs, done, ev, on_link, on_chat,
                                catch)
                if trace is not None:
                    trace.end(session.step)
                follow = catch.again(session.step)
                if follow is not None:  # an answer's whole window taken: the rest at once
                    if trace is not None:
                        trace.note("more", session.step)
                    await links.broadcast(ctl(follow))
            for text in chat_out() if chat_out is not None else []:  # the player's chat lines
                await links.broadcast(ctl({"ctl": "chat", "text": text}))
            if session.finished:
                break
            now = time.monotonic()
            if stall.observe(session.step):
                asked, last_deep = None, now
            elif stall.waited() > table_limit and asked is None:
                asked = last_sync = now  # the last chance to hear from the awaited seats
                if trace is not None:
                    trace.note("deep", session.step)
                await deep_catch_up()
            elif asked is not None and now - asked > ABANDON_GRACE:
                await handle(session.abandon(stall.since_text()))
            elif stall.waited() > deep_every and now - last_deep > deep_every:
                last_deep = last_sync = now
                if trace is not None:
                    trace.note("deep", session.step)
                await deep_catch_up()
            elif now - max(stall.since, last_sync) > RESYNC_AFTER:
                last_sync = now  # stalled: ask again (an answer may have been cut or lost)
                if trace is not None:
                    trace.note("resync", session.step)
                await links.broadcast(ctl(catch.ask(session.step)))
                await handle(session.digest())  # a peer on another history shows its heads
    finally:
        for task in (event_task, move_task):
            if task is not None and not task.done():
                task.cancel()  # a queue's get gives nothing up when cancelled
    # an event that arrived while this turn awaited something else is the linger's first
    first = None
    if event_task is not None and event_task.done() and not event_task.cancelled() \
            and event_task.exception() is None:
        first = event_task.result()
    if trace is not None:
        trace.note("over", session.step)
    await _linger(cfg, links, session, handle, healer, syncs, done, first)
    if trace is not None:
        trace.note("left", session.step)


async def _on_move(session: Session, handle: Callable[[list[Effect]], Awaitable[None]],
                   choice: Move | StandInMove | Exception) -> None:
    """This seat's move, chosen by the local chooser (a person, a bot or the stand-in)."""
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


async def _on_event(links: Links, session: Session,
                    handle: Callable[[list[Effect]], Awaitable[None]], healer: Healer,
                    syncs: SyncServer, done: set[bytes], ev: Any,
                    on_link: Callable[[bytes, bool], None] | None,
                    on_chat: Callable[[bytes, object], None] | None,
                    catch: CatchUp | None = None) -> None:
    """One event of the links while the game runs."""
    if isinstance(ev, Received):
        msg = parse_ctl(ev.data)
        if msg is None:
            await handle(session.receive(ev.data))
        elif msg["ctl"] == "done":
            seat_keys = [session.charter.seat_key(i) for i in range(session.n)]
            done.update(finished_seats(msg, ev.peer, seat_keys))
        elif msg["ctl"] == "chat":
            if on_chat is not None:
                on_chat(ev.peer, msg.get("text"))
        elif msg["ctl"] == "digest":
            sender = session.charter.seat_of(ev.peer)
            if sender is not None:
                await handle(session.receive_digest(sender, msg))
        elif msg["ctl"] == "join":  # a seat whose lobby link dropped before `signed` reached it
            if session.charter.seat_of(ev.peer) is not None:
                signed = session.signed.model_dump(mode="json")
                await safe_send(links, ev.peer, ctl({"ctl": "signed", "signed": signed}))
        else:
            await _answer_sync(links, syncs, session, ev.peer, msg)
    elif isinstance(ev, LinkUp):  # a new or healed link: each side asks the other
        request = catch.ask(session.step) if catch is not None else \
            {"ctl": "sync", "step": session.step}
        await safe_send(links, ev.peer, ctl(request))
    elif isinstance(ev, LinkDown):
        healer.lost(ev.peer)
    if on_link is not None and isinstance(ev, (LinkUp, LinkDown)):
        on_link(ev.peer, isinstance(ev, LinkUp))


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
        return ctl({"ctl": "done", "step": session.step, "seats": known})
    await links.broadcast(done_frame())
    start = linked_at = time.monotonic()
    told = False  # the player was told whom a long wait is for
    try:
        while True:
            waiting = (keys if finished else set(links.peers())) - done
            if not finished:
                end = start + cfg.linger
            elif waiting - set(links.peers()):
                end = start + float(session.charter.timeout)
            else:  # counted from the last link that came up: its seat has to catch up first
                end = min(start + float(session.charter.timeout),
                          linked_at + max(cfg.linger, 2 * cfg.heartbeat))
            left = end - time.monotonic()
            if finished and waiting and not told and left > 0 \
                    and time.monotonic() - start > max(cfg.linger, 2 * cfg.heartbeat):
                told = True
                names = ", ".join(printable(session.charter.seats[i].name, 40)
                                  for i, key in enumerate(seat_keys) if key in waiting)
                cfg.say(_("the game is over and its transcript is saved; waiting up to {seconds} s "
                          "for {names} to confirm they have the end (you may leave now)").format(
                              seconds=f"{left:.0f}", names=names))
            if first is not None:
                ev, first = first, None
            elif not waiting or left <= 0:
                break
            else:
                try:
                    ev = await asyncio.wait_for(links.next_event(),
                                                timeout=min(max(0.05, left), 1.0))
                except TimeoutError:
                    continue
            if isinstance(ev, Received):
                msg = parse_ctl(ev.data)
                if msg is not None and msg["ctl"] == "done":
                    before = len(done)
                    done.update(finished_seats(msg, ev.peer, seat_keys))
                    if len(done) > before:  # pass it on: a seat whose own `done` to some
                        await links.broadcast(done_frame())  # peer was lost is still known
                elif msg is not None:
                    await _answer_sync(links, syncs, session, ev.peer, msg)
                else:
                    await handle(session.receive(ev.data))
            elif isinstance(ev, LinkUp):
                linked_at = time.monotonic()
                await safe_send(links, ev.peer, done_frame())
            elif isinstance(ev, LinkDown):
                healer.lost(ev.peer)
    finally:
        await healer.close()


async def _answer_sync(links: Links, syncs: SyncServer, session: Session, peer: bytes,
                       msg: dict[str, Any]) -> None:
    """Serve a catch-up request: rate-limited per peer, size-bounded (see `catchup`)."""
    step = sync_step(msg)
    if step is None:
        return
    for data in syncs.answer(peer, lambda: session.messages_from(step), step):
        await safe_send(links, peer, data)


