"""Faults on real sockets on 127.0.0.1, with real processes (issue 21, items 1 and 2): a peer
suspended (SIGSTOP, then SIGCONT) during its own move, during another seat's move, during the card
set-up and during the final audit, and a peer whose links are cut and restored. Links heal (both
sides re-dial; the heartbeat, shortened to 2 s here, drops the dead links first), the peers catch
up, every game finishes, every transcript verifies with `p2ptarot verify`, all peers agree, and
nobody is blamed.

Each table is Les paris divins for 3 seats (about 70 steps: a deal, blind wagers, an audit), a
bot host, a bot joiner and the victim; a fault needs one point of the game to strike, not nine
rounds of sinople after it (which cost 25-55 s a test). The suspension lasts `STOP` seconds —
far longer than the heartbeat, far shorter than the table's limit (300 s).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from p2ptarot.peer.fault_point import ENV
from p2ptarot.peer.store import read_transcript
from p2ptarot.table.session import MOVE_STEP_KINDS, Session
from tests.support.peer_process import PeerProcess

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
HEARTBEAT = 2.0
#: seconds a peer stays suspended or cut off: several heartbeats, so its links really drop
#: (P2PTAROT_FAULT_STOP=45 replays the issue's 45 s freezes)
STOP = float(os.environ.get("P2PTAROT_FAULT_STOP", "10"))
COMMON = ["--interface", "127.0.0.1", "--heartbeat", f"{HEARTBEAT:g}", "--timeout", "60"]
WAIT = 600.0  # safety net against a hang, never asserted on
GAME = "paris-divins"


class Table:
    """A bot host, a bot joiner, and the victim: a bot, or a person at the terminal (stdin held
    open) who hands its seat to its own stand-in bot by typing `bot`."""

    def __init__(self, tmp: Path, human: bool, victim_env: dict[str, str] | None = None) -> None:
        self.tmp = tmp
        self.host = PeerProcess(["host", "--game", GAME, "--seats", "3", "--bot", "random",
                                 "--seed", "1", "--name", "Hostbot", "--stand-in-after", "3",
                                 "--data-dir", str(tmp / "host")] + COMMON, wait=WAIT)
        url = self.host.wait_for(r"table open: .* at (ws://127\.0\.0\.1:\d+\S*)").group(1)
        self.joiner = PeerProcess(["join", url, "--bot", "random", "--seed", "2", "--name", "Joy",
                                   "--data-dir", str(tmp / "joy")] + COMMON, wait=WAIT)
        self.joiner_in = None
        if human:
            read_end, self.joiner_in = os.pipe()
            self.victim = PeerProcess(["join", url, "--name", "Vic", "--json", "--seed", "3",
                                       "--data-dir", str(tmp / "vic")] + COMMON,
                                      stdin=read_end, wait=WAIT)
            os.close(read_end)
        else:
            self.victim = PeerProcess(["join", url, "--bot", "random", "--seed", "3", "--name",
                                       "Vic", "--data-dir", str(tmp / "vic")] + COMMON, wait=WAIT,
                                      env=victim_env)
        self.peers = (self.host, self.joiner, self.victim)

    def host_transcript(self) -> Path | None:
        found = list((self.tmp / "host").glob("tables/*/transcript.jsonl"))
        return found[0] if found else None

    def watch_host_log(self, until: Callable[[Session], bool]) -> None:
        """Replay the host's transcript as it grows (an observer session) until `until`."""
        session: Session | None = None
        fed = 1
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            path = self.host_transcript()
            lines = path.read_bytes().splitlines() if path is not None else []
            if session is None and lines:
                session = Session(read_transcript(path).charter, seat=None)
                session.start()
            complete = lines[:-1] if lines and not path.read_bytes().endswith(b"\n") else lines
            for line in complete[fed:]:  # checked line by line: the awaited point may pass
                session.receive(line)      # within one batch (the final audit is short)
                if until(session):
                    return
            fed = max(fed, len(complete))
            if session is not None and until(session):
                return
            assert self.host.proc.poll() is None, "".join(self.host.out)[-3000:]
            time.sleep(0.05)
        raise AssertionError("the table never reached the awaited point")

    def wait_for_lines(self, count: int) -> None:
        """Until the host's transcript holds `count` lines."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            path = self.host_transcript()
            if path is not None and path.read_bytes().count(b"\n") >= count:
                return
            assert self.host.proc.poll() is None, "".join(self.host.out)[-3000:]
            time.sleep(0.02)
        raise AssertionError(f"the host's transcript never reached {count} lines")

    def finish(self) -> list[dict]:
        try:
            results = [p.result() for p in self.peers]
        finally:
            if self.joiner_in is not None:
                os.close(self.joiner_in)
            for p in self.peers:
                if p.proc.poll() is None:
                    p.proc.kill()
                    p.proc.wait()
        return results


def wait_stopped(peer: PeerProcess) -> None:
    """Until `peer` has stopped itself (state T in /proc)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert peer.proc.poll() is None, "".join(peer.out)[-3000:]
        stat = Path(f"/proc/{peer.proc.pid}/stat").read_text()
        if stat[stat.rindex(")") + 2] == "T":
            return
        time.sleep(0.05)
    raise AssertionError("the peer never reached its fault point")


def suspend(peer: PeerProcess, seconds: float = STOP) -> None:
    os.kill(peer.proc.pid, signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        os.kill(peer.proc.pid, signal.SIGCONT)


def _sockets_of(pid: int) -> list[tuple[str, str]]:
    """(local, remote) of every established TCP socket of process `pid`."""
    out = subprocess.run(["ss", "-tnpH", "state", "established"], capture_output=True,
                         text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        if f"pid={pid}," in line:
            cols = line.split()
            found.append((cols[2], cols[3]))
    return found


def cut(peer: PeerProcess, seconds: float = STOP) -> int:
    """Cut every link of `peer` (its TCP sockets destroyed: both ends see the link die) and
    keep cutting the links it or the others re-dial, for `seconds`; returns the cuts made."""
    cuts = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for local, remote in _sockets_of(peer.proc.pid):
            subprocess.run(["ss", "-K", "-tn", "src", local, "dst", remote], capture_output=True,
                           check=True)
            cuts += 1
        time.sleep(0.1)
    return cuts


def assert_healed(table: Table, results: list[dict]) -> None:
    """Every peer finished with the same outcome, nobody blamed, every transcript verified by
    the CLI verifier, and the victim's links went down and came back."""
    for peer, result in zip(table.peers, results, strict=True):
        assert result["result"] == "finished", "".join(peer.out)[-3000:]
    assert len({json.dumps(r["outcome"], sort_keys=True) for r in results}) == 1
    assert len({r["table"] for r in results}) == 1
    for result in results:
        verdict = subprocess.run(CLI + ["verify", result["transcript"], "--json"],
                                 capture_output=True, text=True, timeout=WAIT)
        assert verdict.returncode == 0, verdict.stdout[-2000:]
        report = json.loads(verdict.stdout)
        assert report["valid"] is True and not report["aborted_by_players"]
        assert report["outcome"] == results[0]["outcome"]


def _its_move(seat: int) -> Callable[[Session], bool]:
    return lambda s: s.spec is not None and s.spec.kind in MOVE_STEP_KINDS and seat in s.spec.seats


def hand_to_bot(table: Table) -> None:
    """Vic, at its terminal, types `bot`: its own stand-in plays its seat from now on (a
    connected player thinking is never replaced by the clock, issue 23)."""
    assert table.joiner_in is not None
    os.write(table.joiner_in, b"bot\n")


def test_a_peer_suspended_during_its_own_move(tmp_path: Path) -> None:
    table = Table(tmp_path, human=True)
    table.victim.wait_for(r"Vic, your move \[")  # the table waits on Vic, who did not answer
    suspend(table.victim)
    hand_to_bot(table)  # woken up, Vic lets its bot play: the move must reach the others
    assert_healed(table, table.finish())
    out = "".join(table.victim.out)
    # woken up, Vic found its links dropped and saw them come back; its move was played (by its
    # stand-in, once handed the seat) and reached the table
    assert "Hostbot is disconnected — reconnecting" in out and "Hostbot is back" in out
    assert "Vic (you) [bot]: " in out


def test_a_peer_suspended_during_another_seats_move(tmp_path: Path) -> None:
    table = Table(tmp_path, human=True)
    table.victim.wait_for(r"Vic, your move \[")  # Vic's move is due: suspend Joy meanwhile
    suspend(table.joiner)
    hand_to_bot(table)
    results = table.finish()
    assert_healed(table, results)
    # Vic (a person) saw Joy go and come back, worded as a reconnection, not a verdict
    out = "".join(table.victim.out)
    assert "Joy is disconnected — reconnecting" in out and "Joy is back" in out


def test_a_peer_suspended_during_the_card_set_up(tmp_path: Path) -> None:
    table = Table(tmp_path, human=False)
    # the keys are out and the deck is being shuffled: Vic (seat 2) shuffles last
    table.watch_host_log(lambda s: s.step >= 1 and s.spec is not None
                         and s.spec.kind.startswith("mental.") and s.log[0].kind == "mental.key")
    suspend(table.victim)
    assert_healed(table, table.finish())


def test_a_peer_suspended_during_the_final_audit(tmp_path: Path) -> None:
    # the game is decided and the result is being signed: with bots that lasts milliseconds, so
    # Vic stops itself just before its signed result leaves (a watcher replaying the host's
    # transcript lagged behind the game on a busy machine and struck after it)
    table = Table(tmp_path, human=False, victim_env={ENV: "result"})
    wait_stopped(table.victim)
    time.sleep(1.0)
    path = table.host_transcript()
    assert path is not None and table.host.proc.poll() is None  # the table waits for Vic
    host_saw = [json.loads(line) for line in path.read_bytes().splitlines()[1:]]
    assert not any(m["kind"] == "result" for m in host_saw)  # a step is stored once complete
    time.sleep(STOP)
    os.kill(table.victim.proc.pid, signal.SIGCONT)
    assert_healed(table, table.finish())


def test_a_peer_whose_links_are_cut_and_restored(tmp_path: Path) -> None:
    table = Table(tmp_path, human=False)
    table.wait_for_lines(12)  # the deal is under way (counted, not replayed: the game is quick)
    assert cut(table.victim) > 0  # its links were up, and were cut (and re-cut when re-dialled)
    assert_healed(table, table.finish())
