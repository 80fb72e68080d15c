"""`--lang fr` at the terminal: a human plays sinople against a bot process on a real terminal
(a pty) and reads French — the table, the time rule, the screen, the moves, the prompt, the
round's end — and no English; the round's end holds the next deal until the player presses
Enter."""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _read(fd: int, out: bytearray, wait: float = 0.5) -> bool:
    """Whatever the terminal printed within `wait` seconds; False once it closed."""
    ready, _, _ = select.select([fd], [], [], wait)
    if ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        out += data
    return True


@pytest.mark.network
@pytest.mark.slow
def test_a_terminal_game_with_lang_fr_reads_french(tmp_path: Path) -> None:
    """...and the round's end holds the next deal at the terminal until Enter (issue 23)."""
    import pty

    env = dict(os.environ, LANG="en_US.UTF-8", LC_ALL="", LANGUAGE="")  # --lang wins over it
    pid, fd = pty.fork()
    if pid == 0:  # the child: a host at a real terminal, one local bot
        os.execve(sys.executable, CLI + [
            "host", "--game", "sinople", "--seats", "2", "--bots", "1", "--interface",
            "127.0.0.1", "--name", "Alice", "--lang", "fr", "--data-dir", str(tmp_path / "host"),
            "--timeout", "60"], env)
    raw = bytearray()
    answered = 0
    held = b"appuyez sur Entr\xc3\xa9e quand vous l'avez lu : la donne suivante vous attend"
    try:
        end = time.monotonic() + 240  # a bound on a hang, not a timed assertion
        while b"== Fin de la manche 1 ==" not in raw or held not in raw:
            assert time.monotonic() < end and _read(fd, raw), bytes(raw)[-3000:]
            # a fresh prompt, not the countdown redrawing it in place (ESC 7, ESC [1A, CR)
            prompts = raw.count("à vous [".encode()) - raw.count("\x1b[1A\rAlice, à vous [".encode())
            if prompts > answered and b"== Fin de la manche 1 ==" not in raw:
                answered = prompts
                os.write(fd, b"1\n")  # the first move offered, every time
        # the round's result is up and the next deal waits for this player: nothing of round 2
        shown_before_enter = bytes(raw)
        assert b"manche 2/" not in shown_before_enter
        os.write(fd, b"\n")  # Enter: read, the next deal may start
        while b"manche 2/" not in raw:
            assert time.monotonic() < end and _read(fd, raw), bytes(raw)[-3000:]
        os.kill(pid, signal.SIGINT)
        while _read(fd, raw, 2.0) and time.monotonic() < end:
            pass
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    lines = [line + "\n" for line in bytes(raw).decode(errors="replace").replace("\r", "").split("\n")]
    lines = lines[:next(i for i, line in enumerate(lines) if "== Fin de la manche 1 ==" in line) + 1]
    out = "".join(lines)
    assert "== Fin de la manche 1 ==" in out, out[-3000:]
    # the table, its time rule, the screen and the moves, in French
    # the peer layer's notices: the open table, the roster as seats fill
    assert "table ouverte : sinople pour 2 à ws://127.0.0.1:" in out and "(empreinte " in out
    assert "place 2 : bot-1 (" in out
    assert "Alice (place 1, vous), bot-1 (place 2)" in out
    assert "temps : un coup peut prendre jusqu'à 10 min" in out
    assert "== tarot sinople — manche 1/" in out and "Votre main (15) : " in out
    assert "Figure : " in out and "  1. Jouer " in out and "Alice, à vous [1-" in out
    # a move read in French: a space before the colon, in the log and in "since your last turn"
    assert "Depuis votre dernier tour :" in out and "  bot-1 : Jouer " in out
    assert "  bot-1: " not in out and "(vous): " not in out
    assert "(joué pour vous)" in out  # the forced Pass, worded in French
    # nothing of the English interface
    for english in ("your move [", "Your hand (", "Since your last turn", "Play ", "waiting for ",
                    "seat 1", "seat 2", "Round 1 over", "table open", "fingerprint"):
        assert english not in out, english
