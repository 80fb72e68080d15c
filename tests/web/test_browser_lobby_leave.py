""""Leave the table" in the `p2ptarot web` lobby (issue 33, item 6): it quit the whole program
("Disconnected from your peer"). Now, in real Chromium against the real command (a subprocess on
127.0.0.1, its bot a real `join --bot` process): a player hosts a table with a bot, the game
starts, they leave mid-game, and the page is back in the lobby with the program still running;
they host again from the same page and the bot sits down at the new table."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.cdp import Browser
from interrupts import as_from_a_terminal  # tests/support

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
SEATS = ("document.querySelector('#lobby table.seats') ? "
         "document.querySelector('#lobby table.seats').textContent : ''")
#: the lobby's list and host form are shown (not the table)
IN_LOBBY = ("document.getElementById('hostgame') !== null && !document.getElementById('lobby').hidden"
            " && document.getElementById('hostgame').offsetParent !== null")


def _ours(tmp: Path) -> list[int]:
    """The processes this test started (the command and its bots: their data under `tmp`)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if str(tmp) in cmdline and "p2ptarot.cli.main" in cmdline:
            pids.append(int(entry.name))
    return pids


def _host(form_seats: int, bots: int) -> str:
    return ("const g = document.getElementById('hostgame'); g.value = 'paris-divins';"
            "g.dispatchEvent(new Event('change'));"
            "document.getElementById('myname').value = 'Hana';"
            f"document.getElementById('hostseats').value = '{form_seats}';"
            f"document.getElementById('hostbots').value = '{bots}';"
            "document.getElementById('hostbtn').click()")


async def test_leaving_a_table_brings_the_page_back_to_the_lobby(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        CLI + ["web", "--interface", "127.0.0.1", "--name", "Hana", "--data-dir",
               str(tmp_path / "data"), "--timeout", "30", "--lang", "en"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True, preexec_fn=as_from_a_terminal)
    assert proc.stdout is not None
    browser = await Browser(tmp_path / "profile").start()
    try:
        url = ""
        for line in proc.stdout:
            m = re.search(r"(http://127\.0\.0\.1:\S+)", line)
            if m:
                url = m.group(1)
                break
        assert url, "no page address printed"
        page = await browser.page(url)
        await page.wait_for(IN_LOBBY, timeout=60)
        await page.js(_host(2, 1))
        await page.wait_for(f"({SEATS}).includes('ready ✓')", timeout=90)
        await page.js("(document.getElementById('startnow') || document.getElementById('ready')).click()")
        # the game is on: the table shows its players, the Leave button with it
        await page.wait_for("document.getElementById('players').textContent.includes('bot-1')"
                            " && !document.getElementById('leave').hidden", timeout=90)
        await page.js("window.confirm = () => true; window.beforeLeave = true;"
                      "document.getElementById('leave').click()")
        # the page reloads into the lobby: the list of tables and the host form, no table
        await page.wait_for("!window.beforeLeave && " + IN_LOBBY, timeout=60)
        assert proc.poll() is None, "the program quit"
        status = await page.js("document.getElementById('status').textContent")
        assert "Disconnected" not in status, status
        log = await page.js("document.getElementById('log').textContent")
        assert "you left the table" in log, log
        # the same program hosts again from the same page: its new bot sits down
        await page.js(_host(3, 1))
        await page.wait_for(f"({SEATS}).includes('bot-1') && ({SEATS}).includes('free seat')",
                            timeout=90)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)  # Ctrl-C is what ends the program
        assert proc.wait(timeout=60) in (0, 130)
    finally:
        await browser.close()
        for pid in _ours(tmp_path):  # a left game's bot waits for a --resume: ended here
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=60)
        proc.stdout.close()
