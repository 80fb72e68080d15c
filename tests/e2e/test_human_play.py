"""A human at the terminal, end to end: `p2ptarot host` without --bot over 127.0.0.1, a bot
process in the other seat, stdin answering "1" to every prompt. What the human reads: names and
seats counted from 1, whose turn it is, what happened since the last turn, results as tables."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from interrupts import as_from_a_terminal  # tests/support

CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
HOST = CLI + ["host", "--seats", "2", "--bots", "1", "--interface", "127.0.0.1", "--name", "Alice"]


@pytest.mark.network
def test_human_plays_sinople_through_the_rendered_screen(tmp_path: Path) -> None:
    proc = subprocess.run(
        HOST + ["--game", "sinople", "--data-dir", str(tmp_path / "host"), "--timeout", "60"],
        input="1\n" * 3000, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert out.count("== sinople tarot — round") >= 9 * 8  # a screen per choice (forced ones play themselves)
    assert "Your hand (15): " in out and "Figure: " in out and "  1. Play " in out
    assert '"hand_sizes"' not in out and "play card=" not in out  # not the raw JSON dump
    # names, seats from 1, whose turn, what happened, tables; never an internal seat number
    assert "Alice (seat 1, you), bot-1 (seat 2)" in out and "a move may take up to 10 min" in out
    assert "waiting for bot-1" in out and "Since your last turn:" in out and "  bot-1: Play " in out
    assert "(played for you)" in out  # a forced Pass played itself
    assert "== Round 9 over ==" in out and "== Final standings ==" in out
    # each round's result held the next deal until a line was typed (the last round: the game ends)
    assert out.count("press Enter when you have read it: the next deal waits for you") == 8
    assert "seat 0" not in out and "you are seat" not in out
    assert "game finished; transcript saved in" in out.strip().splitlines()[-1]
    assert not out.strip().splitlines()[-1].startswith("{")  # no JSON dump for a person


def _at_first_prompt(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, int]:
    """A human host whose stdin stays open (nobody types), once it shows its first prompt."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        HOST + ["--game", "sinople", "--data-dir", str(tmp_path / "host"), "--timeout", "60", *extra],
        stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=as_from_a_terminal)
    os.close(read_end)
    assert proc.stdout is not None
    for line in proc.stdout:
        if "your move [" in line:
            break
    return proc, write_end


@pytest.mark.network
def test_ctrl_d_at_the_prompt_leaves_at_once_and_says_how_to_come_back(tmp_path: Path) -> None:
    proc, stdin = _at_first_prompt(tmp_path)
    os.close(stdin)  # Ctrl-D
    out, err = proc.communicate(timeout=120)  # a bound on a hang, not a timed assertion
    assert proc.returncode == 1
    assert "standard input closed" in err and "Traceback" not in err
    assert f"p2ptarot join --resume --data-dir {tmp_path / 'host'}" in err


@pytest.mark.network
def test_ctrl_c_at_the_prompt_leaves_cleanly(tmp_path: Path) -> None:
    proc, stdin = _at_first_prompt(tmp_path)
    try:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)  # stdin open; a bound on a hang
    finally:
        os.close(stdin)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "you left the table" in err and "join --resume" in err


@pytest.mark.network
def test_an_aborted_game_exits_without_waiting_for_a_key(tmp_path: Path) -> None:
    """The human never answers; the table's move timeout (2 s, agreed in the charter) makes
    the bot blame the seat. The human's process exits at once although stdin stays open."""
    proc, stdin = _at_first_prompt(tmp_path, "--move-timeout", "2")
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        os.close(stdin)
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, err
    assert "game aborted: nobody is blamed: bot-1 stopped the game" in out
    assert "Traceback" not in err
