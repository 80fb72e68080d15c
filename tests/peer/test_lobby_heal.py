"""A lobby survives a dropped link (PROTOCOL §10.1), on real sockets on 127.0.0.1: a joiner whose
link to the host is cut re-dials and joins again, its seat kept meanwhile; a host whose links
are cut while the charter is being signed sends the charter again and the table starts; a
joiner away when the host starts is left out; a host that is gone ends its joiner with a clear
error once the reconnection bound is over; a seat away past the bound is freed.

The links are cut by a TCP proxy between joiner and host (`CutProxy`): both sockets of each
connection are reset, and new connections are refused until the test restores it; one test
freezes a joiner's process (SIGSTOP) until the host's 2 s heartbeat drops its link. Every game
is Les paris divins (short); nothing is timed: the tests wait for what the peers announce.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit, urlunsplit

import pytest

from p2ptarot.app.events import (Continue, LobbyState, Notice, Ready, RoundHeld, StartNow,
                                 TableOpened)
from p2ptarot.app.hub import Hub
from p2ptarot.bots import make as make_bot
from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import Received
from p2ptarot.net.wsmesh import Mesh, MeshConfig
from p2ptarot.peer.config import GameResult, PeerConfig, RunError
from p2ptarot.peer.lobby import host_lobby
from p2ptarot.peer.run import bot_chooser, run_host, run_join
from p2ptarot.peer.store import read_transcript
from p2ptarot.table import canonical
from p2ptarot.transcript import verify_transcript
from tests.support.peer_process import PeerProcess

pytestmark = pytest.mark.network
WAIT = 60.0  # safety net against a hang, never asserted on
PROCESS_WAIT = 300.0  # the same, for a table of processes on a loaded machine
GAME = "paris-divins"


class CutProxy:
    """A TCP proxy on 127.0.0.1 in front of `upstream` (host, port). `cut()` resets every
    connection through it (both ends see their link die) and refuses new ones until
    `restore()`; `cut_on(marker)` cuts the moment `marker` comes from upstream, before it is
    passed on."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.refusing = False
        self.marker: bytes | None = None
        self.cuts = 0
        self._pairs: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def url(self, url: str) -> str:
        """`url` (the host's) through this proxy."""
        parts = urlsplit(url)
        return urlunsplit(parts._replace(netloc=f"127.0.0.1:{self.port}"))

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        self.refusing, self.marker = True, None
        self.cuts += 1
        for pair in list(self._pairs):
            for writer in pair:
                writer.transport.abort()
        self._pairs.clear()

    def cut_on(self, marker: bytes) -> None:
        self.marker = marker

    def restore(self) -> None:
        self.refusing = False

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        pair = (writer, up_writer)
        self._pairs.add(pair)
        await asyncio.gather(self._pipe(reader, up_writer, pair, watch=False),
                             self._pipe(up_reader, writer, pair, watch=True))

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter,
                    pair: tuple[asyncio.StreamWriter, asyncio.StreamWriter], watch: bool) -> None:
        tail = b""
        try:
            while data := await src.read(65536):
                if watch and self.marker is not None:
                    if self.marker in tail + data:
                        self.cut()
                        return
                    tail = data[-len(self.marker):]
                if pair not in self._pairs:
                    return
                dst.write(data)
                await dst.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            for writer in pair:
                writer.transport.abort()
            self._pairs.discard(pair)


def cfg(tmp: Path, name: str, hub: Hub | None, ready: bool = True,
        reconnect: float = 120.0) -> PeerConfig:
    """A peer's settings; `reconnect`: the lobby's bound, far longer than any cut here unless
    the test is about the bound (a loaded machine must not turn a cut into a leave)."""
    return PeerConfig(data_dir=tmp / name, name=name, interface="127.0.0.1", timeout=60,
                      move_timeout=120, linger=1.0, lobby_timeout=300, hub=hub, ready=ready,
                      lobby_reconnect=reconnect)


def player() -> Hub:
    """A player's hub whose reader continues at once after every round (a round's result is
    otherwise held on the screen: the game, not the lobby, would set the test's pace)."""
    hub = Hub()
    hub.listen(lambda ev: hub.send(Continue()) if isinstance(ev, RoundHeld) and ev.held else None)
    return hub


def bot(seed: int):
    return bot_chooser(make_bot("random", seed))


async def until(check: Callable[[], object]) -> None:
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(0.02)


def last_lobby(hub: Hub) -> LobbyState | None:
    found = [e for e in hub.history if isinstance(e, LobbyState)]
    return found[-1] if found else None


def noticed(hub: Hub, text: str) -> bool:
    return any(isinstance(e, Notice) and text in e.text for e in hub.history)


def verified(result: GameResult) -> bool:
    return result.outcome is not None and verify_transcript(read_transcript(result.transcript)).valid


async def _host(tmp: Path, hub: Hub, seats: int, ready: bool = True, reconnect: float = 120.0
                ) -> tuple[asyncio.Task[GameResult], str]:
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(run_host(cfg(tmp, "Alice", hub, ready=ready, reconnect=reconnect),
                                        GAME, None, seats, bot(1),
                                        on_listening=listening.set_result))
    return task, await asyncio.wait_for(listening, WAIT)


async def _proxy(url: str) -> CutProxy:
    parts = urlsplit(url)
    proxy = CutProxy((parts.hostname or "127.0.0.1", parts.port or 0))
    await proxy.start()
    return proxy


async def _stop(tasks: list[asyncio.Task], proxies: list[CutProxy]) -> None:
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for p in proxies:
        await p.close()


async def test_a_joiner_cut_off_in_the_lobby_keeps_its_seat_and_plays(tmp_path: Path) -> None:
    alice, bob = player(), player()
    host, url = await _host(tmp_path, alice, 2)
    proxy = await _proxy(url)
    tasks = [host]
    try:
        tasks.append(asyncio.create_task(run_join(cfg(tmp_path, "Bob", bob, ready=False),
                                                  proxy.url(url), GAME, bot(2))))
        await until(lambda: (s := last_lobby(alice)) is not None and len(s.names) == 2)
        proxy.cut()  # Bob's Wi-Fi blinks while he waits in the lobby
        await until(lambda: noticed(alice, "Bob lost the connection; waiting 120 s for Bob"))
        await until(lambda: noticed(bob, "reconnecting to the host"))
        state = last_lobby(alice)
        assert state.names == ("Alice", "Bob") and state.ready == (True, False)  # seat kept
        assert not host.done() and not tasks[1].done()
        proxy.restore()
        await until(lambda: noticed(alice, "Bob is back"))
        await until(lambda: noticed(bob, "reconnected to the host"))
        bob.send(Ready(True))  # seen again by the host: his Ready starts the table
        results = await asyncio.wait_for(asyncio.gather(host, tasks[1]), WAIT * 3)
        assert all(verified(r) for r in results)
        assert results[0].outcome == results[1].outcome
        assert proxy.cuts == 1
        charter = read_transcript(results[0].transcript).charter.charter
        assert [s.name for s in charter.seats] == ["Alice", "Bob"]
    finally:
        await _stop(tasks, [proxy])


async def test_a_host_cut_off_while_the_charter_is_signed_still_starts(tmp_path: Path) -> None:
    alice, bob, carol = player(), player(), player()
    host, url = await _host(tmp_path, alice, 3, ready=False)  # Alice's Ready proposes it
    proxy = await _proxy(url)  # every joiner's link to the host goes through it
    tasks = [host]
    try:
        for name, hub, seed in (("Bob", bob, 2), ("Carol", carol, 3)):
            tasks.append(asyncio.create_task(run_join(cfg(tmp_path, name, hub), proxy.url(url),
                                                      GAME, bot(seed))))
        await until(lambda: (s := last_lobby(alice)) is not None and len(s.names) == 3)
        proxy.cut_on(b'"ctl":"charter"')  # the host's links die as the charter goes out
        alice.send(Ready(True))
        await until(lambda: proxy.cuts == 1)
        await until(lambda: noticed(alice, "lost the connection before signing the charter"))
        assert not any(t.done() for t in tasks)
        proxy.restore()
        results = await asyncio.wait_for(asyncio.gather(*tasks), WAIT * 3)
        assert all(verified(r) for r in results)
        assert len({r.table_id for r in results}) == 1
        assert results[0].outcome == results[1].outcome == results[2].outcome
        assert noticed(alice, "is back") and noticed(bob, "reconnected to the host") \
            and noticed(carol, "reconnected to the host")
    finally:
        await _stop(tasks, [proxy])


async def test_a_joiner_cut_off_as_the_signed_charter_goes_out_still_plays(tmp_path: Path) -> None:
    """Bob signed, but his link died with the host's `signed` frame in it: the host plays on,
    and Bob's `join` on his next link to the host (he re-dials it, or the host's healer dials
    him) is answered with the signed charter: Bob plays the game through."""
    alice, bob = player(), player()
    host, url = await _host(tmp_path, alice, 2, ready=False)
    proxy = await _proxy(url)
    tasks = [host]
    try:
        tasks.append(asyncio.create_task(run_join(cfg(tmp_path, "Bob", bob), proxy.url(url),
                                                  GAME, bot(2))))
        await until(lambda: (s := last_lobby(alice)) is not None and len(s.names) == 2)
        proxy.cut_on(b'"ctl":"signed"')
        alice.send(Ready(True))
        await until(lambda: any(isinstance(e, TableOpened) for e in alice.history))
        await until(lambda: proxy.cuts == 1)
        assert not any(isinstance(e, TableOpened) for e in bob.history)
        proxy.restore()
        results = await asyncio.wait_for(asyncio.gather(*tasks), WAIT * 3)
        assert all(verified(r) for r in results) and results[0].outcome == results[1].outcome
        assert noticed(bob, "reconnected to the host")
    finally:
        await _stop(tasks, [proxy])


async def test_a_joiner_away_when_the_host_starts_is_left_out(tmp_path: Path) -> None:
    """An away seat is not ready: "start now" seats the others; the away joiner, re-dialling,
    is refused by the started table and told so."""
    alice, bob = player(), player()
    host, url = await _host(tmp_path, alice, 3, ready=False)  # full and ready would start it
    proxy = await _proxy(url)
    tasks = [host]
    try:
        tasks.append(asyncio.create_task(run_join(cfg(tmp_path, "Bob", bob), proxy.url(url),
                                                  GAME, bot(2))))
        await until(lambda: (s := last_lobby(alice)) is not None and len(s.names) == 2)
        tasks.append(asyncio.create_task(run_join(cfg(tmp_path, "Carol", None), url, GAME,
                                                  bot(3))))
        await until(lambda: (s := last_lobby(alice)) is not None and len(s.names) == 3)
        proxy.cut()
        await until(lambda: noticed(alice, "Bob lost the connection"))
        assert last_lobby(alice).ready == (False, False, True) and last_lobby(alice).can_start
        alice.send(StartNow())
        await until(lambda: any(isinstance(e, TableOpened) for e in alice.history))
        proxy.restore()
        with pytest.raises(RunError, match="started without you while you were disconnected"):
            await asyncio.wait_for(tasks[1], WAIT)
        ra, rc = await asyncio.wait_for(asyncio.gather(host, tasks[2]), WAIT * 3)
        assert verified(ra) and verified(rc) and ra.outcome == rc.outcome
        charter = read_transcript(ra.transcript).charter.charter
        assert [s.name for s in charter.seats] == ["Alice", "Carol"]
    finally:
        await _stop(tasks, [proxy])


async def test_a_host_that_is_gone_ends_its_joiner_after_the_bound(tmp_path: Path) -> None:
    """Unreachable for the whole bound (its links cut, every dial refused): the joiner gives up
    with a clear error; a host that quits (its link closed on purpose) ends it at once."""
    alice, bob, carol = player(), player(), player()
    host, url = await _host(tmp_path, alice, 3, ready=False)
    proxy = await _proxy(url)
    tasks = [host]
    try:
        tasks.append(asyncio.create_task(run_join(cfg(tmp_path, "Bob", bob, reconnect=2.0),
                                                  proxy.url(url), GAME, bot(2))))
        await until(lambda: (s := last_lobby(bob)) is not None and s.seat == 1)
        proxy.cut()  # never restored: the host is gone for Bob
        with pytest.raises(RunError, match=r"the host closed the connection \(.*\) and could "
                                           r"not be reached again within 2 s"):
            await asyncio.wait_for(tasks[1], WAIT)
        assert noticed(bob, "reconnecting to the host (for up to 2 s)")
        tasks.append(asyncio.create_task(run_join(cfg(tmp_path, "Carol", carol), url, GAME,
                                                  bot(3))))
        await until(lambda: (s := last_lobby(carol)) is not None and s.seat is not None)
        host.cancel()  # the host quits: its links are closed on purpose
        await asyncio.gather(host, return_exceptions=True)
        with pytest.raises(RunError, match=r"^the host closed the connection \(shutdown\)$"):
            await asyncio.wait_for(tasks[2], WAIT)
        assert not noticed(carol, "reconnecting")
    finally:
        await _stop(tasks, [proxy])


async def test_a_seat_away_past_the_bound_is_freed(tmp_path: Path) -> None:
    """A joiner whose link died and never comes back: its seat is kept the bound, then freed;
    a joiner that quits (closes its link) frees its seat at once."""
    said: list[str] = []
    alice = player()
    host_cfg = cfg(tmp_path, "Alice", alice, ready=False, reconnect=1.0)
    host_cfg.say = said.append
    host_id = Identity.generate()
    async with Mesh(host_id, MeshConfig()) as host:
        lobby = asyncio.create_task(host_lobby(host_cfg, host, host_id, GAME, None, 3))
        proxy = await _proxy(host.url)
        try:
            async with Mesh(Identity.generate(), MeshConfig()) as quits, \
                    Mesh(Identity.generate(), MeshConfig()) as dies:
                for mesh, url, name in ((quits, host.url, "Quit"),
                                        (dies, proxy.url(host.url), "Dies")):
                    key = await mesh.connect(url)
                    await mesh.send(key, canonical.encode({"ctl": "join", "name": name}))
                    async with asyncio.timeout(WAIT):  # seated: its roster came
                        while not isinstance(await mesh.next_event(), Received):
                            pass
                await until(lambda: last_lobby(alice).names == ("Alice", "Quit", "Dies"))
                await quits.close()
                await until(lambda: last_lobby(alice).names == ("Alice", "Dies"))
                assert "Quit left the lobby" in said and not any("Quit lost" in t for t in said)
                proxy.cut()
                await until(lambda: any("Dies lost the connection" in line for line in said))
                assert last_lobby(alice).names == ("Alice", "Dies")  # kept while away
                await until(lambda: "Dies did not reconnect within 1 s and left the lobby" in said)
                await until(lambda: last_lobby(alice).names == ("Alice",))
                assert noticed(alice, "Dies did not reconnect") and not lobby.done()
        finally:
            lobby.cancel()
            await asyncio.gather(lobby, return_exceptions=True)
            await proxy.close()


@pytest.mark.slow
def test_a_joiner_frozen_in_the_lobby_past_the_heartbeat_comes_back(tmp_path: Path) -> None:
    """Real processes with a 2 s heartbeat (the blink first seen in the field): Bob's process is
    stopped (SIGSTOP) while he waits in the lobby, until the host's heartbeat drops his link;
    woken up (SIGCONT), he re-dials and takes his seat back, and the table, once Carol sits,
    plays to the end with the same outcome everywhere."""
    common = ["--interface", "127.0.0.1", "--heartbeat", "2", "--timeout", "60", "--bot",
              "random"]
    host = PeerProcess(["host", "--game", GAME, "--seats", "3", "--seed", "1", "--name", "Hostbot",
                        "--data-dir", str(tmp_path / "host")] + common, wait=PROCESS_WAIT)
    peers = [host]
    try:
        url = host.wait_for(r"table open: .* at (ws://127\.0\.0\.1:\d+\S*)").group(1)
        bob = PeerProcess(["join", url, "--seed", "2", "--name", "Bob",
                           "--data-dir", str(tmp_path / "bob")] + common, wait=PROCESS_WAIT)
        peers.append(bob)
        host.wait_for(r"seat 2: Bob")
        os.kill(bob.proc.pid, signal.SIGSTOP)
        try:
            host.wait_for(r"Bob lost the connection; waiting 30 s for Bob to reconnect")
        finally:
            os.kill(bob.proc.pid, signal.SIGCONT)
        bob.wait_for(r"reconnecting to the host")
        bob.wait_for(r"reconnected to the host")
        host.wait_for(r"Bob is back")
        carol = PeerProcess(["join", url, "--seed", "3", "--name", "Carol",
                             "--data-dir", str(tmp_path / "carol")] + common, wait=PROCESS_WAIT)
        peers.append(carol)
        results = [p.result() for p in peers]
        assert all(r["result"] == "finished" for r in results), [r["result"] for r in results]
        assert len({json.dumps(r["outcome"], sort_keys=True) for r in results}) == 1
        assert len({r["table"] for r in results}) == 1
    finally:
        for p in peers:
            if p.proc.poll() is None:
                p.proc.kill()
                p.proc.wait()

