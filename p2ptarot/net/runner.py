"""The peer runner: the lobby (seat players, sign the charter) and the pump around `Session`.

Everything protocol-relevant happens in the sans-I/O `p2ptarot.table.Session`; this module only
moves bytes between it, the websocket mesh, the data directory and the local player (bot or
human). Control frames (lobby and catch-up) are JSON objects with a "ctl" key; everything else is
an envelope for the session.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Sequence

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.signing import Identity, fingerprint, verify_signature
from p2ptarot.engine import Move, Outcome
from p2ptarot.engine import info as game_info
from p2ptarot.table import canonical
from p2ptarot.table.charter import Charter, SignedCharter, charter_signing_bytes
from p2ptarot.table.effects import (Aborted, Effect, Finished, Forward, NeedMove, Notice, Progress,
                                    Record, Send)
from p2ptarot.table.errors import TableUsageError
from p2ptarot.table.inputs import StandInMove
from p2ptarot.table.lobby import make_charter, sign_charter
from p2ptarot.table.names import clean_name, printable
from p2ptarot.table.room import (ChatRelay, Room, RoomError, RoomSeat, RosterSeen, clean_chat,
                                 parse_chat_relay, parse_roster)
from p2ptarot.table.session import MOVE_STEP_KINDS, Session
from pydantic import ValidationError

from .catchup import RESYNC_AFTER, SyncServer, sync_step
from .errors import MeshError
from .finder import FindError, Pick, find_table, matches_table_id_only, parse_target
from .events import LinkDown, LinkUp, Received
from .store import DataDir, TableStore
from .transport import WS_PATH, Mesh, MeshConfig
from .txt import TableInfo

logger = logging.getLogger(__name__)

#: answers a NeedMove: the move, or a StandInMove when the seat's stand-in bot chose it
Chooser = Callable[[NeedMove], Awaitable[Move | StandInMove]]
SILENCE_GRACE = 3.0  # seconds between the last catch-up request and a silence verdict
SYNC_BACK = 8  # steps of history a pre-verdict catch-up asks for
Say = Callable[[str], None]


#: the stand-in policy a person's table gets unless its host says otherwise (seconds): time to
#: think over a move, not minutes of a table held up by someone who walked away
DEFAULT_STAND_IN_AFTER = 60


class RunError(Exception):
    """The lobby or the game could not proceed (a clear sentence for the user)."""


@dataclass
class PeerConfig:
    """Settings shared by `host` and `join`."""

    data_dir: Path
    name: str
    interface: str | None = None  # None: all interfaces (real users); tests pass 127.0.0.1
    port: int = 0
    timeout: int = 120
    #: seconds a seat may think over its own move (agreed in the charter; humans need minutes);
    #: `timeout` stays the limit for the automatic (cryptographic) steps
    move_timeout: int = 300
    #: host: the table's stand-in policy written in the charter (seconds a human seat may leave
    #: its turn unanswered before its own peer lets a bot play for it; 0 = never)
    stand_in_after: int = 0
    linger: float = 2.0
    #: seconds a lobby (host: waiting for joiners; joiner: waiting for the table to fill) may take
    lobby_timeout: float = 600.0
    say: Say = field(default=lambda text: None)
    #: the peer application layer (`p2ptarot.app.Hub`) the front ends listen to, if any
    hub: Any = None
    #: a second hub fed with the public view only (a spectators' page), if any
    spectators: Any = None
    #: this player is ready to start when it sits down (a page that shows a Ready button: False)
    ready: bool = True
    #: this seat is played by a bot (always ready; shown as a bot in the lobby)
    bot: bool = False
    #: how this peer reaches the others: an online transport (`net.online.transport`), or None
    #: for the LAN websocket mesh on `interface`/`port`
    transport: Any = None


@dataclass
class GameResult:
    table_id: bytes
    transcript: Path
    outcome: Outcome | None
    aborted: Aborted | None


def _mesh_config(cfg: PeerConfig) -> MeshConfig:
    return MeshConfig(host=cfg.interface or "0.0.0.0", port=cfg.port, protocol_version=PROTOCOL_VERSION)


def _public_url(cfg: PeerConfig, mesh: Mesh) -> str:
    """The address peers should dial: the bound interface, or this host's LAN address when bound
    to every interface (a wildcard address cannot be dialled)."""
    if cfg.transport is not None:
        return mesh.url
    if cfg.interface and cfg.interface not in ("0.0.0.0", "::"):
        return mesh.url
    import socket
    try:
        host = socket.gethostbyname(socket.gethostname())
    except OSError:
        host = "127.0.0.1"
    return f"ws://{host}:{mesh.port}{WS_PATH}"


async def _safe_send(mesh: Mesh, peer: bytes, data: bytes) -> None:
    """Send, tolerating a link that dropped meanwhile (catch-up repairs any loss)."""
    try:
        await mesh.send(peer, data)
    except MeshError as exc:
        logger.info("send to %s failed: %s", peer.hex()[:16], exc)


def _interfaces(cfg: PeerConfig) -> list[str] | None:
    return [cfg.interface] if cfg.interface else None


def _ctl(obj: dict[str, Any]) -> bytes:
    return canonical.encode(obj)


def _parse_ctl(data: bytes) -> dict[str, Any] | None:
    """A control frame, or None when the frame is an envelope (or garbage) for the session."""
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError and huge integers included
        return None
    return obj if isinstance(obj, dict) and isinstance(obj.get("ctl"), str) else None


def _charter_signature_ok(charter: Charter, key: bytes, sig: object) -> bool:
    """True when `sig` is `key`'s valid signature of this charter (checked before it is kept)."""
    try:
        verify_signature(key, charter_signing_bytes(charter.table_id), canonical.unb64(sig, "sig", 64))
    except (CryptoError, canonical.CanonicalError):
        return False
    return True


# ---- lobby ------------------------------------------------------------------------------------
async def _lobby_input(mesh: Mesh, hub: Any) -> Any | None:
    """The next mesh event, or None when the local player did something in the lobby (a Ready,
    a StartNow, a chat line: read them from the hub)."""
    if hub is None:
        return await mesh.next_event()
    event_task = asyncio.ensure_future(mesh.next_event())
    poke = asyncio.ensure_future(hub.lobby_poke.wait())
    try:
        done, _ = await asyncio.wait({event_task, poke}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        poke.cancel()
        if not event_task.done():
            event_task.cancel()
    return event_task.result() if event_task in done else None


def _publish_lobby(hub: Any, game: str, roster_names: Sequence[str], ready: Sequence[bool],
                   bots: Sequence[bool], total: int, can_start: bool, seat: int | None,
                   host: bool, address: str = "") -> None:
    if hub is None:
        return
    from p2ptarot.app.events import LobbyState
    hub.publish(LobbyState(game, total, tuple(roster_names), address, tuple(ready), tuple(bots),
                           can_start, seat, host))


async def host_lobby(cfg: PeerConfig, mesh: Mesh, identity: Identity, game: str, variant: str | None,
                     seats: int, options: dict[str, Any] | None = None,
                     on_listening: Callable[[str], None] | None = None) -> SignedCharter:
    """Advertise the table, seat joiners in arrival order, start when every seat is taken and
    everyone is ready (or when the host starts now with a valid count), have every seat sign the
    charter. The roster goes to every seated joiner whenever it changes (`lobby` frames)."""
    from p2ptarot.app.events import ChatLine, Notice, Ready, StartNow

    from .discovery import TableAdvertiser  # local: a joiner dialling ws:// needs no zeroconf

    gi = game_info(game)
    variant = gi.resolve_variant(variant)  # BadConfiguration before anything is advertised
    try:
        room = Room(game, variant, seats,
                    RoomSeat(identity.public_bytes, clean_name(cfg.name), _public_url(cfg, mesh),
                             ready=cfg.ready, bot=cfg.bot),
                    gi.min_players, gi.max_players)
    except RoomError as exc:
        raise RunError(str(exc)) from None
    hub = cfg.hub
    if hub is not None:
        hub.me = clean_name(cfg.name)
        hub.take_chat()  # lines typed before sitting down had no table to go to
        hub.take_lobby()
    info = TableInfo(game=game, variant=variant or "", seats_taken=1,
                     seats_total=seats, fingerprint=identity.fingerprint,
                     host_name=cfg.name[:40])
    if cfg.transport is not None:
        advertiser: Any = cfg.transport.advert(info, mesh)
    else:
        advertiser = TableAdvertiser(info, mesh.port, interfaces=_interfaces(cfg),
                                     addresses=[cfg.interface] if cfg.interface else None)
    await advertiser.start()
    if cfg.transport is not None:
        from .nostr.adverts import show_code
        code = show_code(advertiser.code)
        cfg.say(f"table open online: {game} for {seats}; invitation code {code} "
                f"(others type: p2ptarot join {code}) (fingerprint {identity.fingerprint})")
    else:
        cfg.say(f"table open: {game} for {seats} at {mesh.url} (fingerprint {identity.fingerprint})")
    if on_listening:
        on_listening(mesh.url)

    async def tell_roster() -> None:
        roster = room.roster()
        for i, s in enumerate(roster.seats[1:], start=1):
            await _safe_send(mesh, s.key, _ctl(roster.frame(i)))
        _publish_lobby(hub, game, roster.names, roster.ready, [s.bot for s in roster.seats],
                       seats, roster.can_start_now, 0, True, mesh.url)

    async def relay(said: ChatRelay, sender: bytes | None) -> None:
        for s in room.seats[1:]:
            if s.key != sender:
                await _safe_send(mesh, s.key, _ctl(said.frame()))

    await tell_roster()
    chosen: list[RoomSeat] | None = None
    try:
        while chosen is None and not room.should_start:
            ev = await _lobby_input(mesh, hub)
            changed = False
            if isinstance(ev, Received):
                msg = _parse_ctl(ev.data)
                kind = msg["ctl"] if msg else None
                if kind == "join" and msg is not None:
                    was = room.seat_of(ev.peer)
                    if room.join(ev.peer, msg) == "full":
                        await _safe_send(mesh, ev.peer, _ctl({"ctl": "full"}))
                    elif was is None:
                        seat = room.seats[-1]
                        cfg.say(f"seat {len(room.seats)}: {seat.name} ({fingerprint(ev.peer)})")
                        changed = True
                elif kind == "ready" and msg is not None:
                    changed = room.set_ready(ev.peer, msg.get("ready"))
                elif kind == "chat" and msg is not None:
                    said = room.chat(ev.peer, msg.get("text"), time.monotonic())
                    if said is not None:
                        await relay(said, ev.peer)
                        if hub is not None:
                            hub.publish(ChatLine(said.name, said.text))
            elif isinstance(ev, LinkDown):
                if room.leave(ev.peer):
                    cfg.say("a player left the lobby")
                    changed = True
            elif ev is None and hub is not None:  # the host's own player
                for cmd in hub.take_lobby():
                    if isinstance(cmd, Ready):
                        changed |= room.set_ready(identity.public_bytes, cmd.ready)
                    elif isinstance(cmd, StartNow):
                        try:
                            chosen = room.start_now()
                        except RoomError as exc:
                            hub.publish(Notice(f"cannot start now: {exc}"))
                for text in hub.take_chat():  # the host's own lines (already shown locally)
                    clean = clean_chat(text)
                    if clean is not None:
                        await relay(ChatRelay(0, room.seats[0].name, clean), identity.public_bytes)
            if changed:
                await advertiser.update(seats_taken=len(room.seats))
                await tell_roster()
        seated = chosen if chosen is not None else list(room.seats)
        joined = [(s.key, s.name, s.address) for s in seated]
        if len(seated) != seats:
            cfg.say(f"starting now with {len(seated)} players")
        for s in room.seats:  # a joiner who was not ready when the host started is told so
            if all(s.key != k for k, _, _ in joined):
                await _safe_send(mesh, s.key, _ctl({"ctl": "left-out"}))
                cfg.say(f"{s.name} was not ready and is left out")
        charter = make_charter(game, joined, variant=variant, options=options,
                               timeout=cfg.move_timeout, stand_in_after=cfg.stand_in_after)
        mesh.admit_only([k for k, _, _ in joined])  # from now on only the seated keys may talk
        await advertiser.update(table_id=charter.table_id.hex())
        sigs: dict[bytes, str] = {identity.public_bytes: sign_charter(charter, identity)}
        for key, _, _ in joined[1:]:
            await mesh.send(key, _ctl({"ctl": "charter", "charter": charter.to_json()}))
        while len(sigs) < len(joined):
            ev = await mesh.next_event()
            if isinstance(ev, Received):
                msg = _parse_ctl(ev.data)
                seat = next((i for i, (k, _, _) in enumerate(joined) if k == ev.peer), None)
                if msg and msg["ctl"] == "sign" and seat is not None:
                    if _charter_signature_ok(charter, ev.peer, msg.get("sig")):
                        sigs[ev.peer] = msg["sig"]
                    else:
                        cfg.say(f"seat {seat} ({joined[seat][1]}) sent an invalid charter "
                                f"signature; waiting for a valid one")
            elif isinstance(ev, LinkDown) and any(k == ev.peer for k, _, _ in joined):
                raise RunError("a player left before signing the charter")
        signed = SignedCharter(charter=charter, signatures=[sigs[k] for k, _, _ in joined])
        signed.verify()
        await mesh.broadcast(_ctl({"ctl": "signed", "signed": signed.model_dump(mode="json")}))
        return signed
    finally:
        await advertiser.close()


async def join_lobby(cfg: PeerConfig, mesh: Mesh, identity: Identity, url: str,
                     host_prefix: str | None = None) -> SignedCharter:
    """Dial the host, ask for a seat, follow the roster (tell the host when this player is ready,
    send lobby chat), then check and sign the charter it proposes.

    `host_prefix` (the fingerprint the user named) is checked against the key the host proved in
    the handshake: a zeroconf advert is only a hint, anyone can copy another host's fingerprint.
    """
    from p2ptarot.app.events import ChatLine, Notice, Ready, StartNow

    try:
        host = await mesh.connect(url)
    except MeshError as exc:
        raise RunError(str(exc)) from exc
    if host_prefix is not None and not fingerprint(host).startswith(host_prefix.upper()) \
            and not matches_table_id_only(host_prefix):
        raise RunError(f"the host at {url} is {fingerprint(host)}, not the {host_prefix} you named")
    hub = cfg.hub
    if hub is not None:
        hub.me = clean_name(cfg.name)
        hub.take_chat()  # lines typed before sitting down had no table to go to
        hub.take_lobby()
    join: dict[str, Any] = {"ctl": "join", "name": cfg.name, "address": _public_url(cfg, mesh)}
    if not cfg.ready and not cfg.bot:
        join["ready"] = False
    if cfg.bot:
        join["bot"] = True
    await mesh.send(host, _ctl(join))
    cfg.say(f"joined the table at {url}; waiting for the other players")
    roster: RosterSeen | None = None
    while True:
        ev = await _lobby_input(mesh, hub)
        if ev is None and hub is not None:  # this player said something in the lobby
            for cmd in hub.take_lobby():
                if isinstance(cmd, Ready):
                    await _safe_send(mesh, host, _ctl({"ctl": "ready", "ready": cmd.ready}))
                elif isinstance(cmd, StartNow):
                    hub.publish(Notice("only the host can start the table"))
            for text in hub.take_chat():
                await _safe_send(mesh, host, _ctl({"ctl": "chat", "text": text}))
            continue
        if isinstance(ev, LinkDown) and ev.peer == host:
            raise RunError(f"the host closed the connection ({printable(ev.reason, 200)})")
        if not isinstance(ev, Received) or ev.peer != host:
            continue
        msg = _parse_ctl(ev.data)
        if msg is None:
            continue
        if msg["ctl"] == "lobby":
            seen = parse_roster(msg)
            if seen is not None:
                roster = seen
                game = msg.get("game")
                _publish_lobby(hub, printable(game, 40) if isinstance(game, str) else "", seen.names, seen.ready,
                               seen.bots, seen.seats_total, seen.can_start, seen.you, False, url)
        elif msg["ctl"] == "chat":
            said = parse_chat_relay(msg, roster)
            if said is not None and hub is not None and roster is not None and said.seat != roster.you:
                hub.publish(ChatLine(said.name, said.text))
        elif msg["ctl"] == "full":
            raise RunError("that table is full")
        elif msg["ctl"] == "left-out":
            raise RunError("the host started the table without you (you were not ready)")
        elif msg["ctl"] == "charter":
            try:
                charter = Charter.model_validate(msg.get("charter"))
                charter.check_version()
            except (ValidationError, ValueError) as exc:
                raise RunError(f"the host proposed an invalid charter: {printable(exc, 300)}") from exc
            if charter.seat_of(identity.public_bytes) is None:
                raise RunError("the host's charter does not seat this player")
            if charter.seat_key(0) != host:
                raise RunError("the charter's seat 0 is not the host we dialled")
            await mesh.send(host, _ctl({"ctl": "sign", "sig": sign_charter(charter, identity)}))
        elif msg["ctl"] == "signed":
            try:
                signed = SignedCharter.model_validate(msg.get("signed"))
                signed.verify()
            except (ValidationError, ValueError) as exc:
                raise RunError(f"the host sent an invalid signed charter: {printable(exc, 300)}") from exc
            mesh.admit_only([signed.charter.seat_key(i) for i in range(len(signed.charter.seats))])
            return signed


# ---- the game pump ----------------------------------------------------------------------------
async def play(cfg: PeerConfig, mesh: Mesh, identity: Identity, signed: SignedCharter,
               choose: Chooser, resume: bool = False) -> GameResult:
    """Play one table to its end (or abort) over the mesh; persist everything on the way."""
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
    mesh.admit_only(keys)  # a running game talks to its seats only (strangers are cut off)

    async def dial(i: int) -> None:
        if keys[i] in mesh.peers():
            return
        address = charter.seats[i].address
        for attempt in range(20):
            try:
                await mesh.connect(address, expected_key=keys[i])
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
    watch = _Watcher(cfg.hub, session, charter, seat, store.transcript_path)
    # spectators (a page showing the public table) get their own feed, never this seat's cards
    audience = _Watcher(cfg.spectators, session, charter, seat, store.transcript_path, public=True)

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
                await mesh.broadcast(next(lines))
            elif isinstance(e, Forward):  # relayed before anything is chained on it
                try:
                    await mesh.broadcast(e.envelope.encoded())
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
        await _pump(cfg, mesh, session, handle, dial_others, moves, saved if resume else None,
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


async def _pump(cfg: PeerConfig, mesh: Mesh, session: Session,
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
    await mesh.broadcast(_ctl({"ctl": "sync", "step": session.step}))
    syncs = SyncServer()
    last_step, last_change = session.step, time.monotonic()
    last_sync = last_change
    asked: float | None = None  # when the catch-up before a silence verdict was requested
    done: set[bytes] = set()  # peers that said they finished: they hold all our messages
    while not session.finished:
        event_task = asyncio.ensure_future(mesh.next_event())
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
                msg = _parse_ctl(ev.data)
                if msg is None:
                    await handle(session.receive(ev.data))
                elif msg["ctl"] == "done":
                    done.add(ev.peer)
                elif msg["ctl"] == "chat":
                    if on_chat is not None:
                        on_chat(ev.peer, msg.get("text"))
                else:
                    await _answer_sync(mesh, syncs, session, ev.peer, msg)
            elif isinstance(ev, LinkUp):
                await _safe_send(mesh, ev.peer, _ctl({"ctl": "sync", "step": session.step}))
            if on_link is not None and isinstance(ev, (LinkUp, LinkDown)):
                on_link(ev.peer, isinstance(ev, LinkUp))
        for text in chat_out() if chat_out is not None else []:  # the player's chat lines
            await mesh.broadcast(_ctl({"ctl": "chat", "text": text}))
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
            await mesh.broadcast(_ctl({"ctl": "sync", "step": back}))
            recent = session.messages_from(back)
            for seat in session.pending_seats():
                if seat != session.seat:
                    for env in recent:
                        await _safe_send(mesh, session.charter.seat_key(seat), env.encoded())
        elif asked is not None and now - asked > SILENCE_GRACE and not session.finished:
            await handle(session.blame_silence())
        elif now - max(last_change, last_sync) > RESYNC_AFTER and not session.finished:
            last_sync = now  # stalled: ask again (an answer may have been cut or lost)
            step = session.step if asked is None else max(0, session.step - SYNC_BACK)
            await mesh.broadcast(_ctl({"ctl": "sync", "step": step}))
    # stay while some connected peer may still lack our last messages (at most `linger` s)
    await mesh.broadcast(_ctl({"ctl": "done", "step": session.step}))
    end = time.monotonic() + cfg.linger
    while set(mesh.peers()) - done and time.monotonic() < end:
        try:
            ev = await asyncio.wait_for(mesh.next_event(), timeout=max(0.05, end - time.monotonic()))
        except TimeoutError:
            break
        if isinstance(ev, Received):
            msg = _parse_ctl(ev.data)
            if msg is not None and msg["ctl"] == "done":
                done.add(ev.peer)
            elif msg is not None:
                await _answer_sync(mesh, syncs, session, ev.peer, msg)
            else:
                await handle(session.receive(ev.data))


class _Watcher:
    """Feeds the peer application layer (`p2ptarot.app`) from the pump: moves with their
    sentences, the view, what the table waits for and until when, presence. A no-op without a
    hub, so bots and tests without a front end pay nothing."""

    def __init__(self, hub: Any, session: Session, charter: Charter, seat: int,
                 transcript: Path, public: bool = False) -> None:
        self.hub, self.session, self.charter = hub, session, charter
        self.seat: int | None = None if public or getattr(hub, "public", False) else seat
        self.transcript = transcript
        self.step, self.step_start = -1, time.monotonic()
        self._limit = float(charter.timeout)
        self._protocol_timeout = float(charter.timeout)
        self.app = None
        self._view: dict[str, Any] | None = None
        self._last_chat: dict[int, float] = {}
        if hub is not None:
            from p2ptarot.app.table import TableApp
            self.app = TableApp(charter.game, charter.variant, [s.name for s in charter.seats],
                                self.seat, charter.timeout, charter.stand_in_after)
            hub.app = self.app
            hub.publish(self.app.opened())
            self._view = session.game.view(seat)

    def timeout_for(self, protocol_timeout: float) -> Callable[[], float]:
        """A move step may last the charter's move timeout; other steps the protocol timeout."""
        self._protocol_timeout = protocol_timeout

        def limit() -> float:
            spec = self.session.spec
            if spec is not None and spec.kind in MOVE_STEP_KINDS:
                self._limit = float(self.charter.timeout)
            else:
                self._limit = float(min(self._protocol_timeout, self.charter.timeout))
            return self._limit
        return limit

    def effect(self, e: Effect) -> None:
        if self.app is None:
            return
        if isinstance(e, Record) and e.envelope.kind in ("move", "move.open") \
                and isinstance(e.envelope.body.get("move"), dict):
            by = e.envelope.body.get("by")  # validated by the session: "bot" or absent
            self.hub.publish(self.app.stand_in(e.envelope.seat, by == "bot"))
            self.hub.publish(self.app.move_recorded(e.envelope.step, e.envelope.seat,
                                                    e.envelope.body["move"], self._view or {},
                                                    by=by if by == "bot" else None))
        elif isinstance(e, Finished):
            view = self.session.game.view(self.seat)
            self.hub.publish(self.app.view_changed(view))
            self.hub.publish(self.app.finished(e.outcome.scores, e.outcome.winners,
                                               str(self.transcript), view))
        elif isinstance(e, Aborted):
            self.hub.publish(self.app.aborted(e.blame, e.reason, e.step))

    def settle(self) -> None:
        """After a batch of effects: the new view and what the table now waits for."""
        if self.app is None or self.session.finished:
            return
        if self.session.step != self.step:
            self.step, self.step_start = self.session.step, time.monotonic()
        self._view = self.session.game.view(self.seat)
        self.hub.publish(self.app.view_changed(self._view))
        for ev in self.app.rounds_over(self._view):
            self.hub.publish(ev)
        spec = self.session.spec
        pending = self.session.pending_seats()
        if spec is None or not pending:
            return
        self.timeout_for(self._protocol_timeout)()
        what = "move" if spec.kind in MOVE_STEP_KINDS else spec.label
        deadline = time.time() + self._limit - (time.monotonic() - self.step_start)
        self.hub.publish(self.app.waiting(pending, what, deadline))

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
        from p2ptarot.app.events import ChatLine
        self.hub.publish(ChatLine(self.app.name(seat), printable(text, 300)))

    def link(self, peer: bytes, up: bool) -> None:
        if self.app is None:
            return
        seat = self.charter.seat_of(peer)
        if seat is not None:
            self.hub.publish(self.app.link(seat, up))


async def _answer_sync(mesh: Mesh, syncs: SyncServer, session: Session, peer: bytes,
                       msg: dict[str, Any]) -> None:
    """Serve a catch-up request: rate-limited per peer, size-bounded (see `catchup`)."""
    step = sync_step(msg)
    if step is None:
        return
    for data in syncs.answer(peer, lambda: session.messages_from(step)):
        await _safe_send(mesh, peer, data)


# ---- entry points used by the CLI ----------------------------------------------------------------
def _links(cfg: PeerConfig, identity: Identity) -> Any:
    """The peer's links: the online transport's when one is set, else the LAN websocket mesh."""
    if cfg.transport is not None:
        return cfg.transport.open(identity)
    return Mesh(identity, _mesh_config(cfg))


def _is_online_address(target: str | None) -> bool:
    return target is not None and target.startswith("nostr:")


async def run_host(cfg: PeerConfig, game: str, variant: str | None, seats: int, choose: Chooser,
                   options: dict[str, Any] | None = None,
                   on_listening: Callable[[str], None] | None = None) -> GameResult:
    identity = DataDir(cfg.data_dir).identity()
    async with _links(cfg, identity) as mesh:
        try:
            async with asyncio.timeout(cfg.lobby_timeout):
                signed = await host_lobby(cfg, mesh, identity, game, variant, seats, options,
                                          on_listening)
        except TimeoutError:
            raise RunError(f"the table was not filled and signed within {cfg.lobby_timeout:.0f} s; "
                           "closing it (--lobby-timeout sets how long to wait)") from None
        return await play(cfg, mesh, identity, signed, choose)


async def run_join(cfg: PeerConfig, target: str | None, game: str | None, choose: Chooser,
                   pick: Pick | None = None, find_wait: float = 30.0) -> GameResult:
    """Join the table the user named (or the only open one; `pick` chooses among several)."""
    identity = DataDir(cfg.data_dir).identity()
    try:
        wanted = parse_target(None) if _is_online_address(target) else parse_target(target)
        if target is not None and _is_online_address(target):
            url = target
        elif wanted.url is not None:
            url = wanted.url
        else:
            url = await find_table(_interfaces(cfg), game, wanted.prefix, wait=find_wait, pick=pick)
            cfg.say(f"found the table at {url}")
    except FindError as exc:
        raise RunError(str(exc)) from None
    async with _links(cfg, identity) as mesh:
        try:
            async with asyncio.timeout(cfg.lobby_timeout):
                signed = await join_lobby(cfg, mesh, identity, url, host_prefix=wanted.prefix)
        except TimeoutError:
            raise RunError(f"the table did not start within {cfg.lobby_timeout:.0f} s; leaving it "
                           "(--lobby-timeout sets how long to wait)") from None
        return await play(cfg, mesh, identity, signed, choose)


async def run_resume(cfg: PeerConfig, choose: Chooser) -> GameResult:
    data = DataDir(cfg.data_dir)
    unfinished = data.unfinished()
    if not unfinished:
        raise RunError(f"no unfinished game in {cfg.data_dir}")
    store = TableStore.open_existing(data, unfinished[-1])
    identity = data.identity()
    seat = store.signed.charter.seat_of(identity.public_bytes)
    if seat is None:
        raise RunError("this data directory's identity has no seat at its saved table")
    address = store.signed.charter.seats[seat].address
    port = int(address.rsplit(":", 1)[1].split("/")[0]) if address else 0
    config = _mesh_config(cfg)
    config = MeshConfig(host=config.host, port=port, protocol_version=config.protocol_version)
    async with (cfg.transport.open(identity, address) if cfg.transport is not None
                else Mesh(identity, config)) as mesh:
        return await play(cfg, mesh, identity, store.signed, choose, resume=True)


def bot_chooser(bot: Any, seat_hint: int = 0) -> Chooser:
    async def choose(need: NeedMove) -> Move:
        return bot.choose(need.seat, need.view, list(need.legal))
    return choose
