"""`p2ptarot host --web`: the command prints the page's address (127.0.0.1, with its token) and
the spectators' one; without the token the page is refused; Ctrl-D still leaves."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from interrupts import as_from_a_terminal  # tests/support

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _stop(proc: subprocess.Popen[str]) -> None:
    """Whatever happened, end the host and its bot processes (its own session: one signal for
    all). Without it a failed test hung: its host killed alone left the bot, which holds the
    host's stderr, and reading that pipe to its end waited for the bot's own lobby timeout."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the group outlives its leader while a bot lives
    except ProcessLookupError:
        pass
    proc.wait(timeout=60)
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()


def test_host_with_web_serves_a_token_protected_local_page(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        CLI + ["host", "--game", "sinople", "--seats", "2", "--bots", "1", "--interface", "127.0.0.1",
               "--name", "Alice", "--data-dir", str(tmp_path / "host"), "--web"],
        stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=as_from_a_terminal)
    os.close(read_end)
    assert proc.stdout is not None
    urls: dict[str, str] = {}
    try:
        for line in proc.stdout:
            m = re.search(r"(http://\S+)", line)
            if m and "your table" in line:
                urls["seat"] = m.group(1)
            elif m and "spectators" in line:
                urls["public"] = m.group(1)
            if "your move [" in line:
                break
        assert set(urls) == {"seat", "public"}
        for url in urls.values():
            assert url.startswith("http://127.0.0.1:") and "?token=" in url
            assert _status(url) == 200
            assert _status(url.split("?")[0]) == 403
            assert _status(url.split("?")[0] + "?token=wrong") == 403
        assert urls["seat"].split("token=")[1] != urls["public"].split("token=")[1]
        # input that is no terminal ends: the page still plays, so the seat stays at the table
        os.close(write_end)
        write_end = -1
        for line in proc.stdout:
            if "terminal input closed: play in the browser page" in line:
                break
        assert proc.poll() is None
        assert _status(urls["seat"]) == 200
        proc.send_signal(signal.SIGINT)  # Ctrl-C leaves
        out, err = proc.communicate(timeout=120)  # a bound on a hang
    finally:
        if write_end >= 0:
            os.close(write_end)
        _stop(proc)
    assert proc.returncode == 130 and "join --resume" in err and "Traceback" not in err


def test_host_with_web_keeps_the_final_standings_page_until_the_player_leaves(tmp_path: Path) -> None:
    """A seat nobody plays (no page, input closed) is played by its stand-in; once the game is
    over the page still serves, a reload gets the standings, and the page's Leave ends it."""
    import asyncio
    import json

    import aiohttp

    proc = subprocess.Popen(
        CLI + ["host", "--game", "paris-divins", "--seats", "2", "--bots", "1",
               "--interface", "127.0.0.1", "--name", "Alice", "--data-dir", str(tmp_path / "host"),
               "--web", "--stand-in-after", "1", "--move-timeout", "30"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=as_from_a_terminal)
    assert proc.stdout is not None
    url = ""
    try:
        for line in proc.stdout:
            m = re.search(r"(http://\S+)", line)
            if m and "your table" in line:
                url = m.group(1)
            if "the game is over: your page keeps showing the final standings" in line:
                break
        else:
            pytest.fail("the game did not end with the page kept")
        assert proc.poll() is None and _status(url) == 200  # a reload after the game is served

        async def reload_and_leave() -> list[str]:
            ws_url = url.replace("http://", "ws://").replace("/?token=", "/ws?token=")
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(ws_url) as ws:
                    types = []
                    while "finished" not in types:
                        msg = await asyncio.wait_for(ws.receive(), 30)
                        types.append(json.loads(msg.data)["type"])
                    await ws.send_str(json.dumps({"cmd": "leave"}))
                    return types
        types = asyncio.run(reload_and_leave())
        assert "table" in types and "round" in types and types[-1] == "finished"
        out, err = proc.communicate(timeout=60)
    finally:
        _stop(proc)
    assert proc.returncode == 0 and "Traceback" not in err
    assert "game finished; transcript saved in" in out
