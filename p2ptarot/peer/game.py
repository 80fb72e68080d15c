"""The game pump: one table played to its end around the sans-I/O `table.Session`.

Everything protocol-relevant happens in the session; this module moves bytes between it, the
links, the data directory and the local player (bot or human), and keeps the clocks: catch-up
requests when a step stalls, and the silence rule when it stalls too long.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Awaitable, Callable

from p2ptarot.crypto.signing import Identity
from p2ptarot.engine import Move
from p2ptarot.net.errors import MeshError
from p2ptarot.net.events import LinkDown, LinkUp, Received
from p2ptarot.net.link import Links
from p2ptarot.table.charter import SignedCharter
from p2ptarot.table.effects import (Aborted, Effect, Finished, Forward, NeedMove, Notice, Progress,
                                    Record, Send)
from p2ptarot.table.errors import TableUsageError
from p2ptarot.table.inputs import StandInMove
from p2ptarot.table.names import printable
from p2ptarot.table.session import Session

from .catchup import RESYNC_AFTER, SyncServer, sync_step
from .config import Chooser, GameResult, PeerConfig, RunError
from .frames import ctl, parse_ctl, safe_send
from .store import DataDir, TableStore
from .watcher import Watcher

logger = logging.getLogger(__name__)

SILENCE_GRACE = 3.0  # seconds between the last catch-up request and a silence verdict
SYNC_BACK = 8  # steps of history a pre-verdict catch-up asks for


async def play(cfg: PeerConfig, links: Links, identity: Identity, signed: SignedCharter,
               choose: Chooser, resume: bool = False) -> GameResult:
    """Play one table to its end (or abort) over the links; persist everything on the way."""
    data = DataDir(cfg.data_dir)
    store = TableStore(data, signed)
    charter = signed.charter
    seat = charter.seat_of(identity.public_bytes)
    if seat is None:
        raise RunError("this identity has no seat at the table")
    session = Session(signed, seat, identity, store.seed)
    saved = store.saved_messages() if resume else []
    outbox = store.outbox()
    transcript = store.fresh_transcript()
    keys = [charter.seat_key(i) for i in range(len(charter.seats))]
    links.admit_only(keys)  # a running game talks to its seats only (strangers are cut off)

    async def dial(i: int) -> None:
        if keys[i] in links.peers():
            return
        address = charter.seats[i].address
        for attempt in range(20):
            try:
                await links.connect(address, expected_key=keys[i])
                return
            except MeshError:
                await asyncio.sleep(0.25 * (attempt + 1))

    async def dial_others() -> None:
        """Dial the seats this one links to, all at once (not one handshake after another)."""
        targets = [i for i in range(len(keys)) if i != seat and (resume or i < seat)]
        await asyncio.gather(*(dial(i) for i in targets))

    moves: asyncio.Queue[Move | StandInMove | Exception] = asyncio.Queue()
    pending_choice: list[asyncio.Task[None]] = []
    names = [s.name for s in charter.seats]
    watch = Watcher(cfg.hub, session, charter, seat, store.transcript_path)
    # spectators (a page showing the public table) get their own feed, never this seat's cards
    audience = Watcher(cfg.spectators, session, charter, seat, store.transcript_path, public=True)

    async def handle(effects: list[Effect]) -> None:
        # one durable write per batch: own messages are fsynced before any of them is sent
        sends = [e.envelope.encoded() for e in effects if isinstance(e, Send)]
        for e in effects:
            if isinstance(e, Record):
                transcript.append(e.envelope.encoded())
        for line in sends:
            outbox.append(line)
        if sends:
            outbox.sync()  # the transcript is synced at close: lost lines come back from peers
        lines = iter(sends)
        for e in effects:
            watch.effect(e)
            audience.effect(e)
            if isinstance(e, Send):
                await links.broadcast(next(lines))
            elif isinstance(e, Forward):  # relayed before anything is chained on it
                try:
                    await links.broadcast(e.envelope.encoded())
                except MeshError as exc:
                    logger.info("relay failed: %s", exc)
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
                cfg.say("game over: " + ", ".join(f"{names[i]} {score}" for i, score
                                                  in enumerate(e.outcome.scores))
                        + "; won by " + (", ".join(names[w] for w in e.outcome.winners) or "nobody"))
            elif isinstance(e, Aborted):
                who = (f"{names[e.blame]} (seat {e.blame + 1}) is blamed" if e.blame is not None
                       else "nobody is blamed")
                cfg.say(f"game aborted at step {e.step}: {who}: "
                        f"{printable(e.reason)}")  # a reason may quote a cheater's text
        watch.settle()
        audience.settle()

    try:
        await _pump(cfg, links, session, handle, dial_others, moves, saved if resume else None,
                    watch.timeout_for(cfg.timeout),
                    on_link=lambda peer, up: (watch.link(peer, up), audience.link(peer, up)),
                    on_chat=lambda peer, text: (watch.chat(peer, text), audience.chat(peer, text)),
                    chat_out=watch.chat_out)
    finally:
        for task in pending_choice:
            task.cancel()
        outbox.close()
        transcript.close()
    if session.outcome is not None:
        store.mark_done()
    return GameResult(charter.table_id, store.transcript_path, session.outcome, session.aborted)
async def _pump(cfg: PeerConfig, links: Links, session: Session,
                handle: Callable[[list[Effect]], Awaitable[None]],
                dial_others: Callable[[], Awaitable[None]],
                moves: "asyncio.Queue[Move | StandInMove | Exception]", saved: list[bytes] | None,
                timeout: float | Callable[[], float],
                on_link: Callable[[bytes, bool], None] | None = None,
                on_chat: Callable[[bytes, object], None] | None = None,
                chat_out: Callable[[], list[str]] | None = None) -> None:
    """Feed the session from the mesh and the local chooser until the game ends, then linger.
    `timeout` may depend on the step (a human's move gets longer than a cryptographic step)."""
    await dial_others()
    if saved is not None:
        cfg.say(f"resuming from {len(saved)} saved messages")
        await handle(session.load(saved))
    else:
        await handle(session.start())
    await links.broadcast(ctl({"ctl": "sync", "step": session.step}))
    syncs = SyncServer()
    last_step, last_change = session.step, time.monotonic()
    last_sync = last_change
    asked: float | None = None  # when the catch-up before a silence verdict was requested
    done: set[bytes] = set()  # peers that said they finished: they hold all our messages
    while not session.finished:
        event_task = asyncio.ensure_future(links.next_event())
        move_task = asyncio.ensure_future(moves.get())
        ready, _ = await asyncio.wait({event_task, move_task}, timeout=1.0,
                                      return_when=asyncio.FIRST_COMPLETED)
        for t in (event_task, move_task):
            if t not in ready:
                t.cancel()
        if move_task in ready:
            choice = move_task.result()
            if isinstance(choice, Exception):
                raise RunError(f"no move for seat {session.seat}: {choice}") from choice
            try:
                if isinstance(choice, StandInMove):
                    effects = session.act(choice.move, by="bot")
                else:
                    effects = session.act(choice)
            except TableUsageError as exc:  # the local chooser broke the rules: a bug, not a fault
                raise RunError(f"the move chosen for seat {session.seat} was refused: {exc}") from exc
            await handle(effects)
        if event_task in ready:
            ev = event_task.result()
            if isinstance(ev, Received):
                msg = parse_ctl(ev.data)
                if msg is None:
                    await handle(session.receive(ev.data))
                elif msg["ctl"] == "done":
                    done.add(ev.peer)
                elif msg["ctl"] == "chat":
                    if on_chat is not None:
                        on_chat(ev.peer, msg.get("text"))
                else:
                    await _answer_sync(links, syncs, session, ev.peer, msg)
            elif isinstance(ev, LinkUp):
                await safe_send(links, ev.peer, ctl({"ctl": "sync", "step": session.step}))
            if on_link is not None and isinstance(ev, (LinkUp, LinkDown)):
                on_link(ev.peer, isinstance(ev, LinkUp))
        for text in chat_out() if chat_out is not None else []:  # the player's chat lines
            await links.broadcast(ctl({"ctl": "chat", "text": text}))
        limit = timeout() if callable(timeout) else timeout
        now = time.monotonic()
        if session.step != last_step:
            last_step, last_change, asked = session.step, now, None
        elif now - last_change > limit and asked is None and not session.finished:
            # before calling anyone silent, ask every peer for what this seat may have missed
            # (from a few steps back: a split view's other version precedes the stall), push the
            # same to the seats it waits for (one that missed a message is waiting on us, not
            # silent), and read what already arrived (after a SIGSTOP the clock jumps while abort
            # records sit unread in the sockets): a seat waiting on someone else is never blamed
            asked = last_sync = now
            back = max(0, session.step - SYNC_BACK)
            await links.broadcast(ctl({"ctl": "sync", "step": back}))
            recent = session.messages_from(back)
            for seat in session.pending_seats():
                if seat != session.seat:
                    for env in recent:
                        await safe_send(links, session.charter.seat_key(seat), env.encoded())
        elif asked is not None and now - asked > SILENCE_GRACE and not session.finished:
            await handle(session.blame_silence())
        elif now - max(last_change, last_sync) > RESYNC_AFTER and not session.finished:
            last_sync = now  # stalled: ask again (an answer may have been cut or lost)
            step = session.step if asked is None else max(0, session.step - SYNC_BACK)
            await links.broadcast(ctl({"ctl": "sync", "step": step}))
    # stay while some connected peer may still lack our last messages (at most `linger` s)
    await links.broadcast(ctl({"ctl": "done", "step": session.step}))
    end = time.monotonic() + cfg.linger
    while set(links.peers()) - done and time.monotonic() < end:
        try:
            ev = await asyncio.wait_for(links.next_event(), timeout=max(0.05, end - time.monotonic()))
        except TimeoutError:
            break
        if isinstance(ev, Received):
            msg = parse_ctl(ev.data)
            if msg is not None and msg["ctl"] == "done":
                done.add(ev.peer)
            elif msg is not None:
                await _answer_sync(links, syncs, session, ev.peer, msg)
            else:
                await handle(session.receive(ev.data))


async def _answer_sync(links: Links, syncs: SyncServer, session: Session, peer: bytes,
                       msg: dict[str, Any]) -> None:
    """Serve a catch-up request: rate-limited per peer, size-bounded (see `catchup`)."""
    step = sync_step(msg)
    if step is None:
        return
    for data in syncs.answer(peer, lambda: session.messages_from(step)):
        await safe_send(links, peer, data)


