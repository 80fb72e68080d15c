"""The stand-in bot end to end, over real sockets on 127.0.0.1 with real processes: Alice hosts
at the terminal with a 2 s stand-in policy in the charter and types `bot` (a connected player is
never replaced for thinking: the bot comes when she leaves or asks); her own peer's bot takes her
seat, Bob's peer (a watched bot) announces it from the log, Alice types `back` and
plays again, the game finishes, and `verify` / `replay` mark the stand-in's moves."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
#: one deal of the three roses, 3 seats (a dozen turns a seat, one round): the stand-in's turns,
#: Alice's own after, the marks (nine sinople rounds, each held 2 s on a stand-in's screen, cost
#: 27-46 s a test)
GAME, VARIANT = "trois-roses", "single-deal"


def _reader(stream, out: "queue.Queue[str]", keep: list[str]) -> None:
    for line in stream:
        keep.append(line)
        out.put(line)
    out.put("")


def _wait_for(lines: "queue.Queue[str]", pattern: str, limit: float = 120) -> re.Match[str]:
    while True:
        line = lines.get(timeout=limit)
        assert line, f"output ended before {pattern!r}"
        found = re.search(pattern, line)
        if found:
            return found


@pytest.mark.network
def test_the_stand_in_takes_an_absent_seat_is_announced_and_recorded(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    host = subprocess.Popen(
        CLI + ["host", "--game", GAME, "--variant", VARIANT, "--seats", "3", "--bots", "1",
               "--interface", "127.0.0.1",
               "--name", "Alice", "--data-dir", str(tmp_path / "alice"), "--timeout", "60",
               "--move-timeout", "90", "--stand-in-after", "2"],
        stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(read_end)
    bob = None
    host_lines: queue.Queue[str] = queue.Queue()
    host_out: list[str] = []
    try:
        assert host.stdout is not None
        threading.Thread(target=_reader, args=(host.stdout, host_lines, host_out),
                         daemon=True).start()
        url = _wait_for(host_lines, r"table open: .* at (ws://127\.0\.0\.1:\d+\S*)").group(1)
        bob = subprocess.Popen(
            CLI + ["join", url, "--bot", "--watch", "--name", "Bob", "--seed", "3",
                   "--interface", "127.0.0.1", "--data-dir", str(tmp_path / "bob"),
                   "--timeout", "60"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # Alice lets a bot play: the stand-in plays, and keeps the seat turn after turn
        os.write(write_end, b"bot\n")
        _wait_for(host_lines, r"a bot plays your seat \(you asked for it\)")
        _wait_for(host_lines, r"Alice \(you\) \[bot\]: ")
        _wait_for(host_lines, r"Alice \(you\) \[bot\]: ")
        os.write(write_end, b"back\n" + b"1\n" * 3000)  # Alice is back, and plays option 1
        _wait_for(host_lines, r"you have your seat back")
        host.wait(timeout=300)
        bob_out, bob_err = bob.communicate(timeout=60)
    finally:
        os.close(write_end)
        for proc in (host, bob):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    out = "".join(host_out)
    assert host.returncode == 0, (host.stderr.read() if host.stderr else "") + out[-2000:]
    assert bob.returncode == 0, bob_err[-2000:]
    assert "a bot plays for you after 2 s until you come back" in out  # the charter's policy
    # Bob's peer reads the takeover and the return from the log (the signed `by` marker)
    assert "Alice's seat is played by a bot until Alice comes back" in bob_out
    assert "Alice is back" in bob_out
    assert bob_out.index("played by a bot") < bob_out.index("Alice is back")
    assert "Alice [bot]: " in bob_out and re.search(r"^  Alice: ", bob_out, re.M)
    assert "Alice's seat is played by a bot" in out and "Alice is back" in out
    transcript = re.search(r"game finished; transcript saved in (\S+)", out)
    assert transcript, out[-2000:]
    verify = subprocess.run(CLI + ["verify", transcript.group(1)], capture_output=True, text=True,
                            timeout=120)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.startswith("valid: ")
    assert re.search(r"stand-in: \d+ moves? of seat 1 \(Alice\) were played by its bot",
                     verify.stdout)
    replay = subprocess.run(CLI + ["replay", transcript.group(1)], capture_output=True, text=True,
                            timeout=120)
    assert replay.returncode == 0, replay.stderr
    marked = [ln for ln in replay.stdout.splitlines() if "Alice [bot]" in ln]
    plain = [ln for ln in replay.stdout.splitlines() if re.search(r"step +\d+  Alice ", ln)]
    assert marked and plain  # the stand-in's moves, then Alice's own after she came back
    assert not any("Bob [bot]" in ln for ln in replay.stdout.splitlines())  # a --bot seat is no stand-in


@pytest.mark.network
def test_typing_bot_hands_the_seat_over_and_the_peer_plays_to_the_end(tmp_path: Path) -> None:
    """`bot` at the first prompt: the stand-in plays every later turn at once (no grace: the
    charter's policy is 0 here) and the process stays to the end of the game (one deal of the
    three roses: a dozen turns a seat, in one round)."""
    read_end, write_end = os.pipe()
    host = subprocess.Popen(
        CLI + ["host", "--game", GAME, "--variant", VARIANT, "--seats", "3",
               "--bots", "2", "--interface",
               "127.0.0.1", "--name", "Alice", "--data-dir", str(tmp_path / "alice"),
               "--timeout", "60", "--stand-in-after", "0"],
        stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(read_end)
    lines: queue.Queue[str] = queue.Queue()
    kept: list[str] = []
    try:
        assert host.stdout is not None
        threading.Thread(target=_reader, args=(host.stdout, lines, kept), daemon=True).start()
        _wait_for(lines, r"your move \[")
        os.write(write_end, b"bot\n")
        host.wait(timeout=300)
    finally:
        os.close(write_end)  # only now: closing the input would leave the table
        if host.poll() is None:
            host.kill()
            host.wait()
    out = "".join(kept)
    assert host.returncode == 0, (host.stderr.read() if host.stderr else "") + out[-2000:]
    assert "a bot plays your seat (you asked for it)" in out
    assert "without an answer a bot plays" not in out  # --stand-in-after 0: never by itself
    assert out.count("Alice (you) [bot]: ") > 10
    assert "== Final standings ==" in out and "game finished; transcript saved in" in out
