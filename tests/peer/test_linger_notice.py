"""A finished seat that waits long for another seat's `done` tells its player why, and that the
game is over and saved (real sockets on 127.0.0.1, in-process peers): Bob's peer stops dead right
after its game is decided, before it can say `done`; Alice's peer, finished too, re-dials him up
to the table's limit and, past twice the heartbeat, names him and says she may leave."""

from __future__ import annotations

import asyncio
from pathlib import Path

from p2ptarot.bots import make as make_bot
from p2ptarot.peer.config import PeerConfig
from p2ptarot.peer.run import bot_chooser, run_host, run_join

WAIT = 60.0


def cfg(tmp: Path, name: str, said: list[str]) -> PeerConfig:
    return PeerConfig(data_dir=tmp / name, name=name, interface="127.0.0.1", timeout=60,
                      move_timeout=120, linger=0.5, heartbeat=1.0, lobby_timeout=60,
                      say=said.append)


async def test_a_finished_seat_waiting_for_a_done_says_whom_it_waits_for(tmp_path: Path) -> None:
    alice_said: list[str] = []
    bob_said: list[str] = []
    listening: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    alice = asyncio.create_task(run_host(cfg(tmp_path, "Alice", alice_said), "paris-divins", None,
                                         2, bot_chooser(make_bot("heuristic", 1)),
                                         on_listening=listening.set_result))
    bob: asyncio.Task[object] | None = None
    try:
        url = await asyncio.wait_for(listening, WAIT)
        bob_cfg = cfg(tmp_path, "Bob", bob_said)

        def bob_says(text: str) -> None:
            bob_said.append(text)
            if text.startswith("game over") and bob is not None:
                bob.cancel()  # Bob's peer dies with the outcome in hand, before its `done`
        bob_cfg.say = bob_says
        bob = asyncio.create_task(run_join(bob_cfg, url, "paris-divins",
                                           bot_chooser(make_bot("heuristic", 2))))
        async with asyncio.timeout(WAIT):
            while not any(t.startswith("the game is over and its transcript is saved")
                          for t in alice_said):
                assert not alice.done(), alice_said
                await asyncio.sleep(0.1)
        notice = next(t for t in alice_said if t.startswith("the game is over"))
        assert "for Bob to confirm they have the end (you may leave now)" in notice
        assert any(t.startswith("game over") for t in alice_said)  # her outcome came first
        assert not alice.done()  # she still waits for Bob, up to the table's limit
    finally:
        for task in (alice, bob):
            if task is not None:
                task.cancel()
        await asyncio.gather(alice, *([bob] if bob else []), return_exceptions=True)
