"""`p2ptarot web --online` (issue 22) in a real Chromium, on the namespace rig with a real
`nostr-relay` and coturn: the lobby of a player in home a lists a LAN table of home a beside an
online table hosted in home b; the player joins the online one by pasting its invitation link,
plays it to the end in the page, and the table page shows the link's path (direct, across two
cone NATs) and its round-trip time. The page, the browser and the lobby run inside home a's
namespace (a thread that entered it), so nothing leaves the rig."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from netns_rig import Host, Rig
from online_servers import start_relay, start_turn

from p2ptarot.app.events import LinkPaths, Notice
from p2ptarot.app.hub import Hub
from p2ptarot.net.nostr.adverts import code_of, show_code
from p2ptarot.net.online.config import IceServer, OnlineConfig
from p2ptarot.net.online.transport import OnlineTransport, nostr_key_for
from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.transcript import verify_transcript
from p2ptarot.web.lobby import Lobby, OnlineSide
from p2ptarot.web.server import WebServer
from tests.web.cdp import Browser
from tests.web.tables import CLICK, OVER, config, keep_shot
from tests.support.peer_output import summary

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
ROWS = "[...document.querySelectorAll('#lobby table.lobbytable tr')].slice(1).map(r => r.className + ': ' + r.textContent)"
PATHS = "[...document.querySelectorAll('#paths li')].map(l => l.dataset.path + ' ' + l.textContent)"


def test_the_online_lobby_lists_joins_by_link_and_shows_the_path(netns: Rig,
                                                                tmp_path: Path) -> None:
    inet = netns.internet()
    server = netns.host("srv", inet)
    relay = start_relay(tmp_path / "relay", host=server.address, port=7447,
                        prefix=server.exec_prefix(), popen=server.popen)
    turn = start_turn(tmp_path / "turn", server.address, server.popen, server.exec_prefix())
    _, (a1, a2) = netns.home("a", inet, nat="cone", hosts=2)
    _, (b1,) = netns.home("b", inet, nat="cone")
    online = ["--relay", relay.url, "--stun", turn.stun_url]
    common = ["--bot", "random", "--quiet", "--timeout", "120", "--lobby-timeout", "300"]
    bea = tmp_path / "bea"
    code = show_code(code_of(nostr_key_for(DataDir(bea).identity()).public_hex))
    logs = {name: open(tmp_path / f"{name}.log", "w") for name in ("bea", "lan")}
    # a short whole game (the whole sinople game in a page is test_browser_play's)
    hosted = b1.popen(CLI + ["host", "--online", "--game", "paris-divins", "--seats", "2", "--name",
                             "Bea", "--data-dir", str(bea)] + common + online,
                      stdout=logs["bea"], stderr=subprocess.STDOUT)
    a2.popen(CLI + ["host", "--game", "arcanoid", "--seats", "3", "--name", "Lan", "--interface",
                    a2.address, "--data-dir", str(tmp_path / "lan")] + common,
             stdout=logs["lan"], stderr=subprocess.STDOUT)
    side = OnlineSide((relay.url,), lambda: OnlineTransport(OnlineConfig(
        relays=(relay.url,), ice=(IceServer(turn.stun_url),))))

    seen = a1.run_async(lambda: _play_in_the_page(tmp_path, a1, side, code))
    assert isinstance(seen, dict)
    rows = seen["rows"]
    assert any(r.startswith("lan: ") and "Lan" in r and "this network" in r for r in rows), rows
    assert any(r.startswith("online: ") and "Bea" in r and f"online, code {code}" in r
               for r in rows), rows
    assert seen["paths"] and seen["paths"][0].startswith("direct Bea: direct, "), seen
    assert seen["paths"][0].endswith(" ms round trip"), seen
    assert [e["path"] for e in seen["events"]] == ["direct"]  # the hub's own record of it
    assert hosted.wait(timeout=120) == 0, (tmp_path / "bea.log").read_text()[-3000:]
    theirs = summary((tmp_path / "bea.log").read_text())
    assert theirs["scores"] == seen["scores"]
    for transcript in (Path(theirs["transcript"]), Path(seen["transcript"])):
        verdict = verify_transcript(read_transcript(transcript))
        assert verdict.valid, verdict.reason


async def _play_in_the_page(tmp_path: Path, me: Host, side: OnlineSide,
                            code: str) -> dict[str, object]:
    """Inside home a: the lobby, its page and Chromium; join by the link, play, look."""
    browser = await Browser(tmp_path / "profile").start()
    hub = Hub()
    cfg = config(tmp_path, "Ann", hub, timeout=120)
    cfg.interface, cfg.ready = me.address, False  # as `p2ptarot web` sets it
    lobby = Lobby(hub, cfg, [me.address], side)
    server = WebServer(hub, on_command=lobby.command)
    url = await server.start()
    watching = asyncio.create_task(lobby.watch(every=0.3))
    try:
        page = await browser.page(url)
        await page.wait_for(f"({ROWS}).some(r => r.startsWith('online: '))"
                            f" && ({ROWS}).some(r => r.startsWith('lan: '))", timeout=90)
        rows = await page.js(ROWS)
        assert await page.js("document.getElementById('hostonline') !== null")
        link = "p2ptarot:" + code.lower()  # a link as pasted from a message, typed loosely
        await page.js(f"document.getElementById('myname').value = 'Ann';"
                      f"document.getElementById('joincode').value = {json.dumps(link)};"
                      "document.getElementById('joincodebtn').click()")
        await page.wait_for("document.getElementById('ready') !== null", timeout=90)
        await page.js("document.getElementById('ready').click()")
        paths: list[str] = []
        while not await page.js(OVER):
            if await page.js("(S.turn && !S.answered)"):
                await page.js(CLICK)
            if not paths:
                shown = await page.js(PATHS)
                if shown and "round trip" in shown[0]:
                    paths = shown
                    keep_shot(await page.screenshot(tmp_path / "online-paths.png"))
            await asyncio.sleep(0.05)
        if not paths:  # a short game may end before the first round trip was drawn
            paths = await page.js(PATHS)
        result = await asyncio.wait_for(lobby.game, 120)  # type: ignore[arg-type]
        assert result.outcome is not None
        events = [row for e in hub.history if isinstance(e, LinkPaths) for row in e.links]
        return {"rows": rows, "paths": paths, "scores": list(result.outcome.scores),
                "events": list({e["path"]: e for e in events}.values()),
                "transcript": str(result.transcript)}
    finally:
        watching.cancel()
        await lobby.close()
        await server.close()
        await browser.close()


def test_hosting_online_from_the_page_with_a_bot(netns: Rig, tmp_path: Path) -> None:
    """The page hosts an online table (the "online" box ticked) with one bot: the page tells
    the invitation code, the bot process joins through the relays (it is given the lobby's
    relay and STUN options), the game starts and the page shows the link's path and round
    trip (the game itself is the first test's: here the player leaves once it runs)."""
    inet = netns.internet()
    server = netns.host("srv", inet)
    relay = start_relay(tmp_path / "relay", host=server.address, port=7447,
                        prefix=server.exec_prefix(), popen=server.popen)
    turn = start_turn(tmp_path / "turn", server.address, server.popen, server.exec_prefix())
    _, (a1,) = netns.home("a", inet, nat="cone")
    side = OnlineSide((relay.url,), lambda: OnlineTransport(OnlineConfig(
        relays=(relay.url,), ice=(IceServer(turn.stun_url),))),
        ("--relay", relay.url, "--stun", turn.stun_url))
    seen = a1.run_async(lambda: _host_in_the_page(tmp_path, a1, side))
    assert isinstance(seen, dict)
    code = show_code(code_of(nostr_key_for(DataDir(tmp_path / "Ann").identity()).public_hex))
    assert any(f"invitation code {code}" in text for text in seen["notices"]), seen["notices"]
    assert seen["paths"][0].startswith("direct bot-1: direct, "), seen
    assert seen["paths"][0].endswith(" ms round trip"), seen


async def _host_in_the_page(tmp_path: Path, me: Host, side: OnlineSide) -> dict[str, object]:
    browser = await Browser(tmp_path / "profile").start()
    hub = Hub()
    cfg = config(tmp_path, "Ann", hub, timeout=120)
    cfg.interface, cfg.ready = me.address, False
    lobby = Lobby(hub, cfg, [me.address], side)
    server = WebServer(hub, on_command=lobby.command)
    url = await server.start()
    watching = asyncio.create_task(lobby.watch(every=0.3))
    try:
        page = await browser.page(url)
        await page.wait_for("document.getElementById('hostonline') !== null", timeout=60)
        await page.js("const g = document.getElementById('hostgame'); g.value = 'sinople';"
                      "g.dispatchEvent(new Event('change'));"
                      "document.getElementById('myname').value = 'Ann';"
                      "document.getElementById('hostseats').value = '2';"
                      "document.getElementById('hostbots').value = '1';"
                      "document.getElementById('hostonline').checked = true;"
                      "document.getElementById('hostbtn').click()")
        await page.wait_for("document.querySelector('#lobby table.seats') !== null && "
                            "document.querySelector('#lobby table.seats').textContent"
                            ".includes('bot-1')", timeout=120)
        await page.js("document.getElementById('ready').click()")
        paths: list[str] = []
        async with asyncio.timeout(180):  # a path never shown fails the test, never hangs it
            while not paths or "round trip" not in paths[0]:
                if await page.js("(S.turn && !S.answered)"):
                    await page.js(CLICK)
                await page.js(OVER)  # (clicks a round's Continue, were one to come first)
                paths = await page.js(PATHS)
                await asyncio.sleep(0.1)
        keep_shot(await page.screenshot(tmp_path / "online-hosted.png"))
        notices = [e.text for e in hub.history if isinstance(e, Notice)]
        return {"notices": notices, "paths": paths}
    finally:
        watching.cancel()
        await lobby.close()  # the player leaves: the game task ends, its bot process too
        await server.close()
        await browser.close()
