"""`--lang fr` at the terminal: a human plays sinople against a bot process and reads French —
the table, the time rule, the screen, the moves, the prompt, the round's end — and no English."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


@pytest.mark.network
@pytest.mark.slow
def test_a_terminal_game_with_lang_fr_reads_french(tmp_path: Path) -> None:
    env = dict(os.environ, LANG="en_US.UTF-8", LC_ALL="", LANGUAGE="")  # --lang wins over it
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        CLI + ["host", "--game", "sinople", "--seats", "2", "--bots", "1", "--interface",
               "127.0.0.1", "--name", "Alice", "--lang", "fr", "--data-dir", str(tmp_path / "host"),
               "--timeout", "60"],
        stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    os.close(read_end)
    os.write(write_end, b"1\n" * 400)  # the first move offered, every time
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("== Fin de la manche 1 =="):
                break
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
    finally:
        os.close(write_end)
        if proc.poll() is None:
            proc.kill()
    out = "".join(lines)
    assert "== Fin de la manche 1 ==" in out, (out[-3000:], err[-2000:])
    # the table, its time rule, the screen and the moves, in French
    # the peer layer's notices: the open table, the roster as seats fill
    assert "table ouverte : sinople pour 2 à ws://127.0.0.1:" in out and "(empreinte " in out
    assert "place 2 : bot-1 (" in out
    assert "Alice (place 1, vous), bot-1 (place 2)" in out
    assert "temps : un coup peut prendre jusqu'à 10 min" in out
    assert "== tarot sinople — manche 1/" in out and "Votre main (15) : " in out
    assert "Figure : " in out and "  1. Jouer " in out and "Alice, à vous [1-" in out
    assert "Depuis votre dernier tour :" in out and "  bot-1 : " not in out and "  bot-1: Jouer " in out
    assert "(joué pour vous)" in out  # the forced Pass, worded in French
    # nothing of the English interface
    for english in ("your move [", "Your hand (", "Since your last turn", "Play ", "waiting for ",
                    "seat 1", "seat 2", "Round 1 over", "table open", "fingerprint"):
        assert english not in out, english
