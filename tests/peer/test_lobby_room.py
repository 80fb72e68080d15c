"""The lobby over real sockets on 127.0.0.1: the roster reaches every seat, the table waits for
the last Ready, lobby chat is relayed with the sender's own name, the host can start early with
a valid count (the game then plays to a verified end), and hostile joiners' frames do nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable

import pytest

from p2ptarot.app.events import Chat, ChatLine, LobbyState, Notice, Ready, StartNow, TableOpened
from p2ptarot.app.hub import Hub
from p2ptarot.bots import make as make_bot
from p2ptarot.crypto.signing import Identity
from p2ptarot.net.events import LinkDown, Received
from p2ptarot.peer.config import GameResult, PeerConfig
from p2ptarot.net.finder import FindError, find_table
from p2ptarot.peer.lobby import host_lobby, join_lobby
from p2ptarot.peer.run import bot_chooser, run_host, run_join
from p2ptarot.peer.store import read_transcript
from p2ptarot.net.wsmesh import Mesh, MeshConfig
from p2ptarot.table import canonical
from p2ptarot.transcript import verify_transcript

pytestmark = pytest.mark.network
WAIT = 30.0
#: the game the lobby tests then play to a verified end: one round of arcanoïd (the lobby is the
#: point; whole sinople games are played by the network and browser tests)
GAME, OPTIONS = "arcanoid", {"rounds": 1}


def cfg(tmp: Path, name: str, hub: Hub | None, ready: bool = True) -> PeerConfig:
    return PeerConfig(data_dir=tmp / name, name=name, interface="127.0.0.1", timeout=60,
                      move_timeout=120, linger=1.0, lobby_timeout=120, hub=hub, ready=ready)


def bot(seed: int):
    return bot_chooser(make_bot("heuristic", seed))


async def until(check: Callable[[], object], what: str) -> None:
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(0.02)


def lobbies(hub: Hub) -> list[LobbyState]:
    return [e for e in hub.history if isinstance(e, LobbyState)]


def last_lobby(hub: Hub) -> LobbyState | None:
    found = lobbies(hub)
    return found[-1] if found else None


def chats(hub: Hub) -> list[tuple[str, str]]:
    return [(e.name, e.text) for e in hub.history if isinstance(e, ChatLine)]


def opened(hub: Hub) -> bool:
    return any(isinstance(e, TableOpened) for e in hub.history)


def verified(result: GameResult) -> bool:
    return result.outcome is not None and verify_transcript(read_transcript(result.transcript)).valid


async def test_ready_gating_roster_and_chat_then_a_whole_game(tmp_path: Path) -> None:
    alice, bob, carol = Hub(), Hub(), Hub()
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    tasks = [asyncio.create_task(run_host(cfg(tmp_path, "Alice", alice), GAME, None, 3, bot(1),
                                          OPTIONS, on_listening=listening.set_result))]
    try:
        url = await asyncio.wait_for(listening, WAIT)
        tasks.append(asyncio.create_task(run_join(cfg(tmp_path, "Bob", bob, ready=False), url,
                                                  GAME, bot(2))))
        await until(lambda: (s := last_lobby(bob)) is not None and s.seat == 1, "Bob seated")
        tasks.append(asyncio.create_task(run_join(cfg(tmp_path, "Carol", carol, ready=False), url,
                                                  GAME, bot(3))))
        # the roster reaches everyone: names in seat order, who is ready, our own seat
        for hub, seat in ((alice, 0), (bob, 1), (carol, 2)):
            await until(lambda hub=hub: (s := last_lobby(hub)) is not None and len(s.names) == 3,
                        "three seated")
            state = last_lobby(hub)
            assert state is not None
            assert state.names == ("Alice", "Bob", "Carol") and state.seats_total == 3
            assert state.ready == (True, False, False) and state.seat == seat
            assert state.host == (seat == 0)
        assert last_lobby(carol).lines == ["seat 1: Alice (host, ready)", "seat 2: Bob (not ready)",
                                           "seat 3: Carol (you, not ready)"]
        # lobby chat: Carol's line reaches Bob and Alice with Carol's name, the host's too
        carol.send(Chat("hello from Carol"))
        await until(lambda: ("Carol", "hello from Carol") in chats(bob), "chat at Bob")
        await until(lambda: ("Carol", "hello from Carol") in chats(alice), "chat at Alice")
        alice.send(Chat("welcome"))
        await until(lambda: ("Alice", "welcome") in chats(carol), "host chat at Carol")
        assert chats(carol).count(("Carol", "hello from Carol")) == 1  # no echo of one's own line
        # Bob is ready: the host's roster says so, and the table still waits for Carol
        bob.send(Ready(True))
        await until(lambda: last_lobby(alice).ready == (True, True, False), "Bob ready")
        await until(lambda: last_lobby(carol).ready == (True, True, False), "Bob ready at Carol")
        assert not any(opened(h) for h in (alice, bob, carol))
        assert not any(t.done() for t in tasks)
        # Carol changes her mind twice; the last Ready starts the table
        carol.send(Ready(True))
        results = await asyncio.wait_for(asyncio.gather(*tasks), 180)
        assert all(opened(h) for h in (alice, bob, carol))
        assert all(verified(r) for r in results)
        assert len({r.table_id for r in results}) == 1
        assert results[0].outcome == results[1].outcome == results[2].outcome
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_start_now_with_the_players_present_plays_to_a_verified_end(tmp_path: Path) -> None:
    alice = Hub()
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(run_host(cfg(tmp_path, "Alice", alice), GAME, None, 4, bot(1),
                                        OPTIONS, on_listening=listening.set_result))
    joiner: asyncio.Task[GameResult] | None = None
    try:
        url = await asyncio.wait_for(listening, WAIT)
        await until(lambda: last_lobby(alice) is not None, "the host's roster")
        assert not last_lobby(alice).can_start
        alice.send(StartNow())  # alone: the game needs 2 players
        await until(lambda: any(isinstance(e, Notice) and e.text.startswith("cannot start now")
                                for e in alice.history), "refusal")
        assert not host.done()
        joiner = asyncio.create_task(run_join(cfg(tmp_path, "Bob", None), url, GAME, bot(2)))
        await until(lambda: len(last_lobby(alice).names) == 2, "Bob seated")
        assert last_lobby(alice).can_start and not opened(alice)
        alice.send(StartNow())
        ra, rb = await asyncio.wait_for(asyncio.gather(host, joiner), 180)
        table = next(e for e in alice.history if isinstance(e, TableOpened))
        assert table.names == ("Alice", "Bob")  # the charter seats exactly the players present
        assert verified(ra) and verified(rb) and ra.outcome == rb.outcome
        assert len(read_transcript(ra.transcript).charter.charter.seats) == 2
    finally:
        for t in (host, joiner):
            if t is not None:
                t.cancel()
        await asyncio.gather(*(t for t in (host, joiner) if t is not None), return_exceptions=True)


async def test_start_now_leaves_out_a_joiner_who_is_not_ready(tmp_path: Path) -> None:
    """Nobody holds a table by never saying Ready: the host starts with the ready players, the
    one left out is told so (a clear error, no seat), and the game plays to a verified end."""
    from p2ptarot.peer.config import RunError

    alice = Hub()
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(run_host(cfg(tmp_path, "Alice", alice), GAME, None, 4, bot(1),
                                        OPTIONS, on_listening=listening.set_result))
    joiners: list[asyncio.Task[GameResult]] = []
    try:
        url = await asyncio.wait_for(listening, WAIT)
        joiners.append(asyncio.create_task(run_join(cfg(tmp_path, "Bob", Hub(), ready=False), url,
                                                    GAME, bot(2))))
        await until(lambda: len(last_lobby(alice).names) == 2, "Bob seated")
        assert not last_lobby(alice).can_start  # Bob is not ready: start now would seat one
        joiners.append(asyncio.create_task(run_join(cfg(tmp_path, "Carol", None), url,
                                                    GAME, bot(3))))
        await until(lambda: len(last_lobby(alice).names) == 3, "Carol seated")
        assert last_lobby(alice).can_start and not opened(alice)
        alice.send(StartNow())
        with pytest.raises(RunError, match="without you"):
            await asyncio.wait_for(joiners[0], WAIT)
        ra, rc = await asyncio.wait_for(asyncio.gather(host, joiners[1]), 180)
        table = next(e for e in alice.history if isinstance(e, TableOpened))
        assert table.names == ("Alice", "Carol")
        assert verified(ra) and verified(rc) and ra.outcome == rc.outcome
    finally:
        for t in (host, *joiners):
            t.cancel()
        await asyncio.gather(host, *joiners, return_exceptions=True)


async def _frames(mesh: Mesh, ctl: str, count: int = 1) -> list[dict]:
    out: list[dict] = []
    async with asyncio.timeout(WAIT):
        while len(out) < count:
            ev = await mesh.next_event()
            if isinstance(ev, LinkDown):
                raise AssertionError(f"link down: {ev.reason}")
            if isinstance(ev, Received):
                msg = canonical.decode(ev.data)
                if msg.get("ctl") == ctl:
                    out.append(msg)
    return out


async def test_hostile_lobby_frames_change_nothing(tmp_path: Path) -> None:
    alice = Hub()
    host_cfg = cfg(tmp_path, "Alice", alice, ready=False)  # holds the table open
    host_id = Identity.generate()
    async with Mesh(host_id, MeshConfig()) as host, Mesh(Identity.generate(), MeshConfig()) as mal, \
            Mesh(Identity.generate(), MeshConfig()) as stranger, \
            Mesh(Identity.generate(), MeshConfig()) as late:
        lobby = asyncio.create_task(host_lobby(host_cfg, host, host_id, "sinople", None, 2))
        try:
            await asyncio.sleep(0)
            key = await mal.connect(host.url)
            skey = await stranger.connect(host.url)
            # a stranger (linked, never joined) is neither seated nor relayed
            await stranger.send(skey, canonical.encode({"ctl": "ready", "ready": True}))
            await stranger.send(skey, canonical.encode({"ctl": "chat", "text": "spam"}))
            await mal.send(key, canonical.encode({"ctl": "join", "name": "Mal", "address": "ws://m",
                                                  "ready": False}))
            roster = (await _frames(mal, "lobby"))[0]
            assert roster["names"] == ["Alice", "Mal"] and roster["you"] == 1
            assert roster["ready"] == [False, False]
            # wrong types and a chat line posing as the host: the sender's own seat is what counts
            for bad in ({"ctl": "ready", "ready": "yes"}, {"ctl": "ready"}, {"ctl": "ready", "ready": [1]},
                        {"ctl": "join", "name": "Alice", "ready": True}, {"ctl": "chat", "text": 12},
                        {"ctl": "lobby", "seats": 2, "names": ["x"], "ready": [True]}):
                await mal.send(key, canonical.encode(bad))
            await mal.send(key, canonical.encode({"ctl": "chat", "seat": 0, "name": "Alice",
                                                  "text": "I am the host " + "x" * 5000}))
            await until(lambda: chats(alice), "the relayed line")
            assert chats(alice) == [("Mal", "I am the host " + "x" * 286)]
            state = last_lobby(alice)
            assert state.names == ("Alice", "Mal") and state.ready == (False, False)
            # a flood is dropped, not queued
            for i in range(20):
                await mal.send(key, canonical.encode({"ctl": "chat", "text": f"flood {i}"}))
            # the table is full: a third player is told so at once
            lkey = await late.connect(host.url)
            await late.send(lkey, canonical.encode({"ctl": "join", "name": "Late"}))
            assert (await _frames(late, "full"))[0] == {"ctl": "full"}
            assert sum(1 for _, text in chats(alice) if text.startswith("flood")) <= 2
            assert not lobby.done()
            # the host gets ready, then Mal: the charter comes with the two of them
            alice.send(Ready(True))
            await mal.send(key, canonical.encode({"ctl": "ready", "ready": True}))
            charter = (await _frames(mal, "charter"))[0]["charter"]
            assert [s["name"] for s in charter["seats"]] == ["Alice", "Mal"]
        finally:
            lobby.cancel()
            await asyncio.gather(lobby, return_exceptions=True)


async def test_a_page_that_could_not_sit_goes_back_to_the_list(tmp_path: Path) -> None:
    from p2ptarot.app.events import Sit, TablesSeen
    from p2ptarot.web.lobby import Lobby

    host_hub = Hub()
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(run_host(cfg(tmp_path, "Alice", host_hub, ready=False), "sinople",
                                        None, 2, bot(1), on_listening=listening.set_result))
    first = None
    page = Hub()
    lobby = Lobby(page, cfg(tmp_path, "Gwen", page, ready=False), ["127.0.0.1"])
    try:
        url = await asyncio.wait_for(listening, WAIT)
        first = asyncio.create_task(run_join(cfg(tmp_path, "Bob", None), url, "sinople", bot(2)))
        await until(lambda: len(last_lobby(host_hub).names) == 2, "the table is full")
        await lobby.command(Sit(url, "Gwen"))
        await until(lambda: any(isinstance(e, Notice) and e.text == "could not play: that table is full"
                                for e in page.history), "refused at once")
        await until(lambda: isinstance(page.history[-1], TablesSeen), "the list again")
        assert lobby.game is None  # the page may sit elsewhere
        assert not host.done() and not first.done()
    finally:
        await lobby.close()
        for t in (host, first):
            if t is not None:
                t.cancel()
        await asyncio.gather(*(t for t in (host, first) if t is not None), return_exceptions=True)


async def test_a_joiner_pinned_to_another_fingerprint_refuses_the_host(tmp_path: Path) -> None:
    """An invitation code resolves to the host's whole fingerprint: a host whose handshake proves
    another key is refused before any seat is asked for; the right fingerprint is seated."""
    from p2ptarot.peer.config import RunError
    from p2ptarot.peer.store import DataDir

    host_hub = Hub()
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(run_host(cfg(tmp_path, "Alice", host_hub, ready=False), "sinople",
                                        None, 2, bot(1), on_listening=listening.set_result))
    pinned = None
    try:
        url = await asyncio.wait_for(listening, WAIT)
        await until(lambda: last_lobby(host_hub) is not None, "the host's roster")
        impostor = Identity.generate().fingerprint
        with pytest.raises(RunError, match=f"not the {impostor} its advert names"):
            await asyncio.wait_for(run_join(cfg(tmp_path, "Bob", None), url, "sinople", bot(2),
                                            host_fingerprint=impostor), WAIT)
        assert len(last_lobby(host_hub).names) == 1  # Bob never asked for a seat
        real = DataDir(tmp_path / "Alice").identity().fingerprint
        pinned = asyncio.create_task(run_join(cfg(tmp_path, "Carol", None), url, "sinople", bot(3),
                                              host_fingerprint=real))
        await until(lambda: len(last_lobby(host_hub).names) == 2, "Carol seated")
    finally:
        for t in (host, pinned):
            if t is not None:
                t.cancel()
        await asyncio.gather(*(t for t in (host, pinned) if t is not None), return_exceptions=True)


async def test_the_table_starts_while_its_advert_is_withdrawn(tmp_path: Path) -> None:
    """The host's lobby returns with the charter signed while the advert's zeroconf goodbyes are
    still going out (in the task it hands over); once that task is done, the table is gone."""
    host_id, bob_id = Identity.generate(), Identity.generate()
    closing: set[asyncio.Task[None]] = set()
    async with Mesh(host_id, MeshConfig()) as host, Mesh(bob_id, MeshConfig()) as bob:
        lobby = asyncio.create_task(host_lobby(cfg(tmp_path, "Alice", None), host, host_id,
                                               "sinople", None, 2, closing=closing))
        url = await find_table(["127.0.0.1"], "sinople", host_id.fingerprint, wait=WAIT)
        joined = asyncio.create_task(join_lobby(cfg(tmp_path, "Bob", None), bob, bob_id, url))
        async with asyncio.timeout(WAIT):
            signed = await lobby
            assert len(closing) == 1 and not next(iter(closing)).done()
            assert (await joined).charter.table_id == signed.charter.table_id
            await next(iter(closing))
        with pytest.raises(FindError):
            await find_table(["127.0.0.1"], "sinople", host_id.fingerprint, wait=1.5)
