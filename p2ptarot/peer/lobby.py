"""The lobby pump: seat players around the sans-I/O `table.room.Room`, have the charter signed.

The host advertises its table, seats joiners in arrival order and sends them the roster whenever
it changes (`lobby` frames); the table starts when every seat is taken and everyone is ready, when
the host starts now with the ready players, or — a table hosted by a bot, which has nobody to
press Start — `lobby_grace` seconds after its seats were first all taken, with the players ready
by then (a joiner that never says Ready, or leaves and sits again, cannot hold it). Every seat then signs the charter.

A dropped link does not end the lobby (PROTOCOL §10.1): a joiner re-dials its host for
`lobby_reconnect` seconds and joins again; the host keeps its seat meanwhile (away: not ready),
or, while the charter is being signed, keeps waiting for its signature and sends the charter
again when it is back. Past that bound the seat is freed, or the table ends, as before.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence

from pydantic import ValidationError

from p2ptarot.app.events import ChatLine, LobbyState, Notice, Ready, StartNow
from p2ptarot.crypto.signing import Identity, fingerprint
from p2ptarot.engine import info as game_info
from p2ptarot.i18n import _
from p2ptarot.i18n.message import render as say
from p2ptarot.net.errors import HandshakeError, MeshError
from p2ptarot.net.events import LinkDown, LinkUp, Received
from p2ptarot.net.finder import matches_table_id_only
from p2ptarot.net.link import Advert, LinkEvent, Links, Transport
from p2ptarot.net.txt import TableInfo
from p2ptarot.table.charter import Charter, SignedCharter
from p2ptarot.table.control import (CharterFrame, ChatFrame, FullFrame, JoinFrame, LeftOutFrame,
                                    LobbyFrame, ReadyFrame, SignedFrame, SignFrame)
from p2ptarot.table.lobby import make_charter, sign_charter
from p2ptarot.table.names import clean_name, printable
from p2ptarot.table.room import (Away, ChatRelay, Room, RoomError, RoomSeat, RosterSeen,
                                 clean_chat, parse_chat_relay, parse_roster)

from .config import PeerConfig, RunError
from .heal import retry_delay
from .store import test_secret
if TYPE_CHECKING:
    from p2ptarot.app.hub import Hub

#: websocket close codes of a peer that closed its link on purpose (RFC 6455 normal closure,
#: going away: its program quit or left the table), not a link that died: nobody re-dials it
_CLOSED_ON_PURPOSE = (1000, 1001)

from .frames import charter_signature_ok, control_of, safe_send


async def _lobby_input(links: Links, hub: Hub | None, wait: float | None = None
                       ) -> LinkEvent | None:
    """The next link event, or None when the local player did something in the lobby (a Ready,
    a StartNow, a chat line: read them from the hub) or `wait` seconds passed."""
    event_task = asyncio.ensure_future(links.next_event())
    tasks: set[asyncio.Future[Any]] = {event_task}
    poke = asyncio.ensure_future(hub.lobby_poke.wait()) if hub is not None else None
    if poke is not None:
        tasks.add(poke)
    try:
        done, _pending = await asyncio.wait(tasks, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if poke is not None:
            poke.cancel()
        if not event_task.done():
            event_task.cancel()
    return event_task.result() if event_task in done else None


def _publish_lobby(hub: Hub | None, game: str, roster_names: Sequence[str], ready: Sequence[bool],
                   bots: Sequence[bool], total: int, can_start: bool, seat: int | None,
                   host: bool, address: str = "") -> None:
    if hub is not None:
        hub.publish(LobbyState(game, total, tuple(roster_names), address, tuple(ready),
                               tuple(bots), can_start, seat, host))


def _announce(cfg: PeerConfig, text: str) -> None:
    """Tell the player (`cfg.say`) and the page (a hub `Notice`). The terminal's `say` already
    publishes its lines as notices: the same notice is not published twice in a row."""
    cfg.say(text)
    hub = cfg.hub
    if hub is not None and not (hub.history and hub.history[-1] == Notice(text)):
        hub.publish(Notice(text))


def _soonest(*waits: float | None) -> float | None:
    """The shortest of the waits that are running (None: none is)."""
    running = [w for w in waits if w is not None]
    return min(running) if running else None


def _enter(hub: Hub | None, name: str) -> None:
    if hub is not None:
        hub.introduce(clean_name(name))
        hub.take_chat()  # lines typed before sitting down had no table to go to
        hub.take_lobby()


class _Grace:
    """When a bot-hosted table starts without its last Ready: `grace` seconds after the **first**
    moment every seat was taken (PROTOCOL §10.1). A seat freed and taken again does not restart
    the wait: a squatter who leaves and sits again every few seconds would otherwise hold the
    table for ever; once the grace is over, the table starts as soon as the ready players can
    play it, every seat taken or not."""

    def __init__(self, grace: float, active: bool) -> None:
        self.grace, self.active = grace, active
        self.full_since: float | None = None  # the first moment every seat was taken

    def note(self, room: Room, now: float) -> None:
        if self.full_since is None and len(room.seats) == room.seats_total:
            self.full_since = now

    def due(self, now: float) -> bool:
        return self.active and self.full_since is not None and now - self.full_since >= self.grace

    def wait(self, now: float) -> float | None:
        """Seconds until the grace ends (None: not started, or over: only a Ready, a seat taken
        or freed or a chat line can change anything then)."""
        if not self.active or self.full_since is None or self.due(now):
            return None
        return self.full_since + self.grace - now


async def host_lobby(cfg: PeerConfig, links: Links, identity: Identity, game: str,
                     variant: str | None, seats: int, options: dict[str, Any] | None = None,
                     on_listening: Callable[[str], None] | None = None,
                     transport: Transport | None = None,
                     closing: set[asyncio.Task[None]] | None = None) -> SignedCharter:
    """Advertise the table, seat joiners, start (see the module docstring), have every seat
    sign the charter.

    `closing`: once the charter is signed, the advert is withdrawn in a task put there instead
    of before returning, for the caller to await when its game is over. Withdrawing a LAN advert
    sends zeroconf's goodbye packets, spaced over about a quarter of a second, and the seats
    already wait for the host's first message of the table meanwhile."""
    gi = game_info(game)
    variant = gi.resolve_variant(variant)  # BadConfiguration before anything is advertised
    try:
        room = Room(game, variant, seats,
                    RoomSeat(identity.public_bytes, clean_name(cfg.name), links.address,
                             ready=cfg.ready, bot=cfg.bot),
                    gi.min_players, gi.max_players, away_limit=cfg.lobby_reconnect)
    except RoomError as exc:
        raise RunError(say(exc)) from None
    _enter(cfg.hub, cfg.name)
    info = TableInfo(game=game, variant=variant or "", seats_taken=1,
                     seats_total=seats, fingerprint=identity.fingerprint,
                     host_name=cfg.name[:40])
    advertiser = (transport or cfg.links()).advert(info, links)
    await advertiser.start()
    _say_open(cfg, advertiser, links, identity, game, seats)
    if on_listening:
        on_listening(links.address)
    try:
        lobby = _HostLobby(cfg, links, identity, room, advertiser)
        seated = await lobby.fill()
        charter = make_charter(game, seated, variant=variant, options=options,
                               timeout=cfg.move_timeout, stand_in_after=cfg.stand_in_after,
                               nonce=None if cfg.test_seed is None
                               else test_secret(cfg.test_seed, "charter-nonce"))
        links.admit_only([k for k, _name, _addr in seated])  # only the seated keys talk now
        await advertiser.update(table_id=charter.table_id.hex())
        sigs = await _collect_signatures(cfg, links, identity, charter, seated)
        signed = SignedCharter(charter=charter, signatures=[sigs[k] for k, _name, _addr in seated])
        signed.verify()
        await links.broadcast(SignedFrame(signed=signed.model_dump(mode="json")).wire())
    except BaseException:
        await advertiser.close()
        raise
    if closing is None:
        await advertiser.close()
    else:
        closing.add(asyncio.ensure_future(advertiser.close()))
    return signed


def _say_open(cfg: PeerConfig, advertiser: Advert, links: Links, identity: Identity, game: str,
              seats: int) -> None:
    """Tell the host's player where others find the table (an online table's code, or the
    LAN address)."""
    if advertiser.invitation:
        cfg.say(_("table open online: {game} for {seats}; invitation code {code} (others type: "
                  "p2ptarot join {code}) (fingerprint {fingerprint})").format(
                      game=game, seats=seats, code=advertiser.invitation,
                      fingerprint=identity.fingerprint))
    else:
        cfg.say(_("table open: {game} for {seats} at {address} (fingerprint {fingerprint})").format(
            game=game, seats=seats, address=links.address, fingerprint=identity.fingerprint))


class _HostLobby:
    """The host's lobby until the table starts: each input (a joiner's frame, a link lost, the
    host player's command, the time) is one transition of the room; the roster goes out when it
    changed."""

    def __init__(self, cfg: PeerConfig, links: Links, identity: Identity, room: Room,
                 advertiser: Advert) -> None:
        self.cfg, self.links, self.identity, self.room = cfg, links, identity, room
        self.advertiser, self.hub = advertiser, cfg.hub
        self.grace = _Grace(cfg.lobby_grace, active=cfg.bot)
        self.bound = f"{cfg.lobby_reconnect:g}"
        self.chosen: list[RoomSeat] | None = None  # the players a start chose

    async def fill(self) -> list[tuple[bytes, str, str]]:
        """Run the lobby until the table starts; the seated players (key, name, address), each
        joiner left out told so."""
        room = self.room
        await self.tell_roster()
        while self.chosen is None and not room.should_start:
            now = self.cfg.clock.monotonic()
            ev = await _lobby_input(self.links, self.hub,
                                    _soonest(self.grace.wait(now), room.away_wait(now)))
            changed = await self.on_input(ev)
            changed |= self.on_time(self.cfg.clock.monotonic())
            if changed:
                await self.advertiser.update(seats_taken=len(room.seats))
                await self.tell_roster()
        return await self.seat()

    async def on_input(self, ev: LinkEvent | None) -> bool:
        """One input; True when the roster changed."""
        if isinstance(ev, Received):
            frame = control_of(ev)
            handler = _SAID_BY_JOINERS.get(type(frame))
            return False if handler is None else await handler(self, ev.peer, frame)
        if isinstance(ev, LinkDown):
            return self.on_link_down(ev)
        if ev is None and self.hub is not None:
            return await self.on_own_player(self.hub)
        return False

    async def tell_roster(self) -> None:
        roster = self.room.roster()
        for i, s in enumerate(roster.seats[1:], start=1):
            await safe_send(self.links, s.key, roster.frame(i).wire())
        _publish_lobby(self.hub, self.room.game, roster.names, roster.ready,
                       [s.bot for s in roster.seats], self.room.seats_total,
                       roster.can_start_now, 0, True, self.links.address)

    async def relay(self, said: ChatRelay, sender: bytes | None) -> None:
        for s in self.room.seats[1:]:
            if s.key != sender:
                await safe_send(self.links, s.key, said.frame().wire())

    async def on_join(self, peer: bytes, frame: JoinFrame) -> bool:
        room, was = self.room, self.room.seat_of(peer)
        answer = room.join(peer, frame)
        if answer == "full":
            await safe_send(self.links, peer, FullFrame().wire())
        elif answer == "back" and was is not None:
            _announce(self.cfg, _("{name} is back").format(name=room.seats[was].name))
            return True
        elif was is None:
            seat = room.seats[-1]
            self.cfg.say(_("seat {n}: {name} ({fingerprint})").format(
                n=len(room.seats), name=seat.name, fingerprint=fingerprint(peer)))
            return True
        else:  # seated, joining again over a new link: its roster again
            await safe_send(self.links, peer, room.roster().frame(was).wire())
        return False

    async def on_ready(self, peer: bytes, frame: ReadyFrame) -> bool:
        return self.room.set_ready(peer, frame.ready)

    async def on_chat(self, peer: bytes, frame: ChatFrame) -> bool:
        said = self.room.chat(peer, frame.text, self.cfg.clock.monotonic())
        if said is not None:
            await self.relay(said, peer)
            if self.hub is not None:
                self.hub.publish(ChatLine(said.name, said.text))
        return False

    def on_link_down(self, ev: LinkDown) -> bool:
        room = self.room
        seat_no = room.seat_of(ev.peer)
        if ev.code in _CLOSED_ON_PURPOSE:
            if seat_no is None or seat_no == 0:
                return False
            name = room.seats[seat_no].name  # it quit: no seat is kept for it
            room.leave(ev.peer)
            _announce(self.cfg, _("{name} left the lobby").format(name=name))
            return True
        if not room.lost(ev.peer, self.cfg.clock.monotonic()):
            return False
        name = room.seats[room.seat_of(ev.peer) or 0].name
        _announce(self.cfg, _("{name} lost the connection; waiting {seconds} s for {name} "
                              "to reconnect").format(name=name, seconds=self.bound))
        return True

    async def on_own_player(self, hub: Hub) -> bool:
        """The host's own player: Ready, Start now, chat lines (already shown locally)."""
        changed = False
        for cmd in hub.take_lobby():
            if isinstance(cmd, Ready):
                changed |= self.room.set_ready(self.identity.public_bytes, cmd.ready)
            elif isinstance(cmd, StartNow):
                try:
                    self.chosen = self.room.start_now()
                except RoomError as exc:
                    hub.publish(Notice(_("cannot start now: {reason}").format(reason=say(exc))))
        for text in hub.take_chat():
            clean = clean_chat(text)
            if clean is not None:
                await self.relay(ChatRelay(0, self.room.seats[0].name, clean),
                                 self.identity.public_bytes)
        return changed

    def on_time(self, now: float) -> bool:
        """Away seats past their bound leave; a bot host's grace may start the table."""
        room, changed = self.room, False
        for gone in room.expire(now):
            _announce(self.cfg, _("{name} did not reconnect within {seconds} s and left the "
                                  "lobby").format(name=gone.name, seconds=self.bound))
            changed = True
        self.grace.note(room, now)
        if self.chosen is None and not room.should_start and self.grace.due(now) \
                and room.roster().can_start_now:
            self.chosen = room.start_now()
            self.cfg.say(_("the lobby grace ({seconds} s) is over: starting with the players "
                           "who are ready").format(seconds=f"{self.cfg.lobby_grace:g}"))
        return changed

    async def seat(self) -> list[tuple[bytes, str, str]]:
        """Who sits at the table that starts; a joiner not ready is told it is left out."""
        cfg, room = self.cfg, self.room
        seated = self.chosen if self.chosen is not None else list(room.seats)
        if cfg.test_seed is not None:  # a repeatable table: joiners by name, not by arrival
            seated = seated[:1] + sorted(seated[1:], key=lambda s: s.name)
        if len(seated) != room.seats_total:
            cfg.say(_("starting now with {n} players").format(n=len(seated)))
        keys = {s.key for s in seated}
        for s in room.seats:
            if s.key not in keys:
                await safe_send(self.links, s.key, LeftOutFrame().wire())
                cfg.say(_("{name} was not ready and is left out").format(name=s.name))
        return [(s.key, s.name, s.address) for s in seated]


#: what joiners may say in the lobby, by frame type; True when the roster changed
_SAID_BY_JOINERS: dict[type, Callable[[_HostLobby, bytes, Any], Awaitable[bool]]] = {
    JoinFrame: _HostLobby.on_join, ReadyFrame: _HostLobby.on_ready, ChatFrame: _HostLobby.on_chat}


async def _collect_signatures(cfg: PeerConfig, links: Links, identity: Identity, charter: Charter,
                              joined: list[tuple[bytes, str, str]]) -> dict[bytes, str]:
    """Send the charter to every joined seat and gather the signatures. A seat whose link drops
    before it signed is waited for `lobby_reconnect` seconds: when it joins again over a new
    link it gets the charter again; past that, the table ends (naming the seat)."""
    sigs: dict[bytes, str] = {identity.public_bytes: sign_charter(charter, identity)}
    seat_of = {k: i for i, (k, _name, _addr) in enumerate(joined)}
    frame = CharterFrame(charter=charter.to_json()).wire()
    away = Away(cfg.lobby_reconnect)
    bound = f"{cfg.lobby_reconnect:g}"

    def lost(key: bytes) -> None:
        if away.lost(key, cfg.clock.monotonic()):
            _announce(cfg, _("{name} lost the connection before signing the charter; waiting "
                             "{seconds} s for {name} to reconnect").format(
                                 name=joined[seat_of[key]][1], seconds=bound))

    for key, _name, _addr in joined[1:]:
        await safe_send(links, key, frame)
        if key not in links.peers():  # dropped before the charter could go out
            lost(key)
    while len(sigs) < len(joined):
        now = cfg.clock.monotonic()
        for key in away.expired(now):
            raise RunError(_("{name} (seat {n}) left before signing the charter: not back "
                             "within {seconds} s").format(name=joined[seat_of[key]][1],
                                                          n=seat_of[key] + 1, seconds=bound))
        try:  # (asyncio.timeout: 3.11's wait_for can drop a cancellation)
            async with asyncio.timeout(away.wait(now)):
                ev = await links.next_event()
        except TimeoutError:
            continue
        if not isinstance(ev, (Received, LinkDown)):
            continue
        seat_no = seat_of.get(ev.peer)
        if seat_no is None or seat_no == 0 or ev.peer in sigs:
            continue
        if isinstance(ev, LinkDown):
            if ev.code in _CLOSED_ON_PURPOSE:  # it quit: nobody to wait for
                raise RunError(_("{name} (seat {n}) left before signing the charter").format(
                    name=joined[seat_no][1], n=seat_no + 1))
            lost(ev.peer)
            continue
        said = control_of(ev)
        if isinstance(said, SignFrame):
            if charter_signature_ok(charter, ev.peer, said.sig):
                sigs[ev.peer] = said.sig
                away.back(ev.peer)
            else:
                cfg.say(_("seat {n} ({name}) sent an invalid charter signature; waiting "
                          "for a valid one").format(n=seat_no, name=joined[seat_no][1]))
        elif isinstance(said, JoinFrame):  # linked again (or never got it): the charter again
            if away.back(ev.peer):
                _announce(cfg, _("{name} is back").format(name=joined[seat_no][1]))
            await safe_send(links, ev.peer, frame)
    return sigs


async def _relink(cfg: PeerConfig, links: Links, host: bytes, url: str, why: str) -> None:
    """The link to the host dropped: dial it again (with the healer's backoff) until it answers,
    for `lobby_reconnect` seconds; RunError when it never does, or refuses this player (the
    table started without it meanwhile)."""
    bound = f"{cfg.lobby_reconnect:g}"
    _announce(cfg, _("the connection to the host dropped ({why}); reconnecting to the host "
                     "(for up to {seconds} s)").format(why=why, seconds=bound))
    deadline = cfg.clock.monotonic() + cfg.lobby_reconnect
    rng = random.Random()
    failures = 0
    while host not in links.peers():
        left = deadline - cfg.clock.monotonic()
        if left <= 0:
            raise RunError(_("the host closed the connection ({why}) and could not be reached "
                             "again within {seconds} s").format(why=why, seconds=bound))
        try:
            async with asyncio.timeout(left):
                await links.connect(url, expected_key=host)
            return
        except TimeoutError:
            continue
        except HandshakeError as exc:
            if "not a member of this table" in str(exc):
                raise RunError(_("the table started without you while you were "
                                 "disconnected")) from None
            failures += 1
        except MeshError:
            failures += 1
        left = max(0.0, deadline - cfg.clock.monotonic())
        await asyncio.sleep(min(retry_delay(failures, rng), left))


async def join_lobby(cfg: PeerConfig, links: Links, identity: Identity, url: str,
                     host_prefix: str | None = None,
                     host_fingerprint: str | None = None) -> SignedCharter:
    """Dial the host, ask for a seat, follow the roster (tell the host when this player is ready,
    send lobby chat), then check and sign the charter it proposes.

    `host_prefix` (the fingerprint the user named) is checked against the key the host proved in
    the handshake: a zeroconf advert is only a hint, anyone can copy another host's fingerprint.
    `host_fingerprint` (the whole fingerprint an invitation code resolved to, signed by the code's
    key) must equal the proven key's exactly.
    """
    host = await _dial_host(links, url, host_prefix, host_fingerprint)
    hub = cfg.hub
    _enter(hub, cfg.name)
    ready = cfg.ready or cfg.bot

    def join() -> bytes:
        return JoinFrame(name=cfg.name, address=links.address, ready=ready, bot=cfg.bot).wire()
    await links.send(host, join())
    cfg.say(_("joined the table at {url}; waiting for the other players").format(url=url))
    host_says = _HostSays(links, identity, host, hub, url)
    relinking = False  # the link to the host dropped: join again on the next one
    while True:
        ev = await _lobby_input(links, hub)
        if ev is None and hub is not None:  # this player said something in the lobby
            ready = await _joiner_commands(hub, links, host, ready) or cfg.bot
            continue
        if isinstance(ev, LinkDown) and ev.peer == host:
            if ev.code in _CLOSED_ON_PURPOSE:  # the host quit: nothing to re-dial
                raise RunError(_("the host closed the connection ({why})").format(
                    why=printable(say(ev.reason), 200)))
            relinking = True
            if host not in links.peers():
                await _relink(cfg, links, host, url, printable(say(ev.reason), 200))
            continue
        if isinstance(ev, LinkUp) and ev.peer == host and (relinking or ev.replaced):
            # a new link to the host (re-dialled, or the host dialled this seat once its game
            # started): join again, with the ready state; the host answers with what we missed
            relinking = False
            _announce(cfg, _("reconnected to the host"))
            await safe_send(links, host, join())
            if not cfg.bot:
                await safe_send(links, host, ReadyFrame(ready=ready).wire())
            continue
        if not isinstance(ev, Received) or ev.peer != host:
            continue
        signed = await host_says.dispatch(control_of(ev))
        if signed is not None:
            return signed


async def _dial_host(links: Links, url: str, host_prefix: str | None,
                     host_fingerprint: str | None) -> bytes:
    """Link to the host at `url`; its key, once it is the host the player named."""
    try:
        host = await links.connect(url)
    except MeshError as exc:
        raise RunError(say(exc)) from exc
    if host_prefix is not None and not fingerprint(host).startswith(host_prefix.upper()) \
            and not matches_table_id_only(host_prefix):
        raise RunError(_("the host at {url} is {found}, not the {named} you named").format(
            url=url, found=fingerprint(host), named=host_prefix))
    if host_fingerprint is not None and fingerprint(host) != host_fingerprint:
        raise RunError(_("the host at {url} is {found}, not the {named} its advert names; not "
                         "joining an impostor").format(url=url, found=fingerprint(host),
                                                       named=host_fingerprint))
    return host


async def _joiner_commands(hub: Hub, links: Links, host: bytes, ready: bool) -> bool:
    """What this joiner's player did in the lobby (Ready, chat lines) goes to the host; its
    ready flag now."""
    for cmd in hub.take_lobby():
        if isinstance(cmd, Ready):
            ready = cmd.ready is True
            await safe_send(links, host, ReadyFrame(ready=cmd.ready).wire())
        elif isinstance(cmd, StartNow):
            hub.publish(Notice(_("only the host can start the table")))
    for text in hub.take_chat():
        await safe_send(links, host, ChatFrame(text=text).wire())
    return ready


class _HostSays:
    """What the host's control frames do at a joiner, one handler per frame type (the others are
    ignored); the handler of the signed charter ends the lobby."""

    def __init__(self, links: Links, identity: Identity, host: bytes, hub: Hub | None,
                 url: str) -> None:
        self.links, self.identity, self.host, self.hub, self.url = links, identity, host, hub, url
        self.roster: RosterSeen | None = None
        self.signed_id: bytes | None = None  # the charter this player signed: it signs no other

    async def dispatch(self, frame: object) -> SignedCharter | None:
        handler = _HOST_FRAMES.get(type(frame))
        return None if handler is None else await handler(self, frame)

    async def lobby(self, frame: LobbyFrame) -> None:
        seen = parse_roster(frame)
        if seen is not None:
            self.roster = seen
            _publish_lobby(self.hub, printable(frame.game, 40), seen.names, seen.ready, seen.bots,
                           seen.seats_total, seen.can_start, seen.you, False, self.url)

    async def chat(self, frame: ChatFrame) -> None:
        said = parse_chat_relay(frame, self.roster)
        if said is not None and self.hub is not None and self.roster is not None \
                and said.seat != self.roster.you:
            self.hub.publish(ChatLine(said.name, said.text))

    async def full(self, frame: FullFrame) -> None:
        raise RunError(_("that table is full"))

    async def left_out(self, frame: LeftOutFrame) -> None:
        raise RunError(_("the host started the table without you (you were not ready)"))

    async def charter(self, frame: CharterFrame) -> None:
        try:
            charter = Charter.model_validate(frame.charter)
            charter.check_version()
        except (ValidationError, ValueError) as exc:
            raise RunError(_("the host proposed an invalid charter: {why}").format(
                why=printable(exc, 300))) from exc
        if charter.seat_of(self.identity.public_bytes) is None:
            raise RunError(_("the host's charter does not seat this player"))
        if charter.seat_key(0) != self.host:
            raise RunError(_("the charter's seat 0 is not the host we dialled"))
        if self.signed_id is not None and charter.table_id != self.signed_id:
            raise RunError(_("the host proposed a second, different charter"))
        self.signed_id = charter.table_id
        await safe_send(self.links, self.host,
                        SignFrame(sig=sign_charter(charter, self.identity)).wire())

    async def signed(self, frame: SignedFrame) -> SignedCharter:
        try:
            signed = SignedCharter.model_validate(frame.signed)
            signed.verify()
        except (ValidationError, ValueError) as exc:
            raise RunError(_("the host sent an invalid signed charter: {why}").format(
                why=printable(exc, 300))) from exc
        self.links.admit_only([signed.charter.seat_key(i) for i in range(len(signed.charter.seats))])
        return signed


_HOST_FRAMES: dict[type, Callable[[_HostSays, Any], Awaitable[SignedCharter | None]]] = {
    LobbyFrame: _HostSays.lobby, ChatFrame: _HostSays.chat, FullFrame: _HostSays.full,
    LeftOutFrame: _HostSays.left_out, CharterFrame: _HostSays.charter,
    SignedFrame: _HostSays.signed}
