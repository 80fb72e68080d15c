"""`p2ptarot list` names who hosts each table (the host's --name, carried in its advert)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from p2ptarot.net.txt import TableInfo, decode_txt, encode_txt

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def test_the_host_name_survives_the_txt_record() -> None:
    info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=3, fingerprint="ABCD",
                     host_name="Hostess")
    assert decode_txt(encode_txt(info)).host_name == "Hostess"
    bare = {k: v for k, v in encode_txt(info).items() if k != "name"}  # an older host
    assert decode_txt(bare).host_name == ""


def test_list_shows_the_host_players_name(tmp_path: Path) -> None:
    host = subprocess.Popen(CLI + ["host", "--game", "sinople", "--seats", "2", "--bot", "--quiet",
                                   "--name", "Hostess", "--interface", "127.0.0.1",
                                   "--data-dir", str(tmp_path / "h"), "--lobby-timeout", "60"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        out = ""
        for _ in range(5):
            out = subprocess.run(CLI + ["list", "--interface", "127.0.0.1", "--timeout", "3"],
                                 capture_output=True, text=True, timeout=60).stdout
            if "Hostess" in out:
                break
        assert "HOSTED BY" in out.splitlines()[0]
        assert any("Hostess" in ln and "sinople" in ln and "1/2" in ln for ln in out.splitlines())
    finally:
        host.kill()
        host.wait()


def test_list_spins_on_a_terminal_and_stays_quiet_in_a_pipe() -> None:
    """On a terminal, `list` shows a spinner with the seconds and tables seen so far, then erases
    it; piped, it prints one line saying what it waits for and no spinner frames."""
    import os
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: `list` with a terminal as stdout and stderr
        os.execv(sys.executable, CLI + ["list", "--interface", "127.0.0.1", "--timeout", "1.5"])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    text = out.decode(errors="replace")
    assert "\r| looking for tables on 127.0.0.1" in text and "tables so far" in text
    assert "\x1b[K" in text  # the spinner line is erased before the results
    piped = subprocess.run(CLI + ["list", "--interface", "127.0.0.1", "--timeout", "1"],
                           capture_output=True, text=True, timeout=60)
    assert "looking for tables on 127.0.0.1 for 1 s" in piped.stderr
    assert "\r" not in piped.stderr and "so far" not in piped.stderr
