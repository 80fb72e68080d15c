"""A bare `p2ptarot` is a player's way in (issue 33, item 12): it runs the browser lobby and
opens it in the default browser, printing its address (the browser is the one $BROWSER names,
as Python's webbrowser module reads it: here a script that writes down the address it got)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from p2ptarot.cli import main as cli_main
from p2ptarot.cli import web_cmd
from interrupts import as_from_a_terminal  # tests/support


def test_bare_p2ptarot_runs_the_lobby_opened_in_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    monkeypatch.setattr(web_cmd, "run", lambda args: seen.append(args) or 0)
    assert cli_main.main([]) == 0
    assert len(seen) == 1 and seen[0].open and seen[0].replay is None  # the lobby, opened


@pytest.mark.network
def test_web_open_shows_the_printed_address_in_the_default_browser(tmp_path: Path) -> None:
    got = tmp_path / "browser-got"
    browser = tmp_path / "browser.sh"
    browser.write_text(f"#!/bin/sh\necho \"$1\" > {got}\n")
    browser.chmod(0o755)
    env = dict(os.environ, BROWSER=str(browser))
    proc = subprocess.Popen([sys.executable, "-m", "p2ptarot.cli.main", "web", "--open",
                             "--interface", "127.0.0.1", "--data-dir", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            preexec_fn=as_from_a_terminal)
    try:
        assert proc.stdout is not None
        url = None
        for line in proc.stdout:
            found = re.search(r"open this page in your browser: (http://127\.0\.0\.1:\d+/\S*)", line)
            if found:
                url = found.group(1)
                break
        assert url is not None
        for _ in range(600):  # a bound on a hang (60 s), not a timed assertion
            if got.exists() and got.read_text().strip():
                break
            time.sleep(0.1)
        assert got.read_text().strip() == url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
