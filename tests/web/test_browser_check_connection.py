"""The lobby's "Check my connection" (issue 31) in a real Chromium, on the namespace rig with a
real `nostr-relay` and coturn (two STUN ports): a player in a cone home clicks the button, the
page's server runs the doctor's checks and the panel shows each check and the verdict "direct";
with the page's "no public STUN server" ticked (the page's `--no-default-stun`) the lobby's
STUN servers are left out, so the verdict is "through TURN" and the panel says why. The same
panel in French on a phone (390 px): French words, no horizontal scroll; the home is alone on
its LAN, so the LAN check hears nobody.  A lobby not started online runs the LAN check only.  The page, the browser and the lobby run in
home a's namespace (a thread that entered it), so nothing leaves the rig."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from netns_rig import Host, Rig
from online_servers import start_relay, start_turn

from p2ptarot.app.events import CheckConnection, ConnectionChecked
from p2ptarot.app.hub import Hub
from p2ptarot.i18n import set_language, translations
from p2ptarot.net.online.config import IceServer, OnlineConfig, parse_turn
from p2ptarot.net.online.transport import OnlineTransport
from p2ptarot.web.lobby import Lobby, OnlineSide
from p2ptarot.web.server import WebServer
from tests.web.cdp import Browser
from tests.web.tables import config, keep_shot

pytestmark = [pytest.mark.network, pytest.mark.slow]
CHECKS = "[...document.querySelectorAll('#doctorresult li')].map(l => l.dataset.check + ' ' + l.className + ' ' + l.textContent)"
DONE = "document.getElementById('verdict') !== null"


def _side(relay: str, stuns: list[str], turn) -> OnlineSide:
    """The lobby's settings: the rig's two STUN ports "as default servers", and its TURN."""
    turn_server = parse_turn(turn.turn_url, turn.user, turn.password)

    def transport(stun: bool) -> OnlineTransport:
        ice = tuple(IceServer(u) for u in stuns) if stun else ()
        return OnlineTransport(OnlineConfig(relays=(relay,), ice=ice + (turn_server,)))
    quiet = OnlineSide((relay,), lambda: transport(False))
    return OnlineSide((relay,), lambda: transport(True), (), quiet)


def test_check_my_connection_in_the_page(netns: Rig, tmp_path: Path) -> None:
    inet = netns.internet()
    server = netns.host("srv", inet)
    relay = start_relay(tmp_path / "relay", host=server.address, port=7447,
                        prefix=server.exec_prefix(), popen=server.popen)
    turn = start_turn(tmp_path / "turn", server.address, server.popen, server.exec_prefix())
    second = start_turn(tmp_path / "turn2", server.address, server.popen, server.exec_prefix(),
                        port=3479)
    _, (a1,) = netns.home("a", inet, nat="cone")
    side = _side(relay.url, [turn.stun_url, second.stun_url], turn)
    seen = a1.run_async(lambda: _check_in_the_page(tmp_path, a1, side))
    assert isinstance(seen, dict)
    direct, quiet, french = seen["direct"], seen["quiet"], seen["french"]
    assert direct["verdict"] == "direct", direct
    assert any(c.startswith("relay ok ✓ relay ws://") and "carries our events" in c
               for c in direct["checks"]), direct
    assert any(c.startswith("nat ok ") and "endpoint-independent" in c
               for c in direct["checks"]), direct
    assert any(c.startswith("turn ok ") for c in direct["checks"]), direct
    # alone in its home: no other computer's multicast is heard, so no "(and LAN play)"
    assert "verdict: direct, because STUN maps this computer to one address" \
        in direct["said"], direct
    assert any(c.startswith("lan ") and "multicast not heard" in c
               for c in direct["checks"]), direct
    # the page's "no public STUN server": the lobby's STUN servers are not asked
    assert quiet["verdict"] == "through TURN", quiet
    assert not any(c.startswith("stun ok") for c in quiet["checks"]), quiet
    assert any("no public STUN server is contacted (your setting)" in a
               for a in quiet["advice"]), quiet
    # French, at 390 px: the panel's own words and the server's sentences
    fr = translations("fr").gettext
    assert french["verdict"] == "direct", french
    assert french["title"] == fr("Check my connection") != "Check my connection"
    assert fr("verdict: {verdict}, because {why}").format(verdict=fr("direct"), why="") \
        in french["said"], french
    assert fr("STUN maps this computer to one address ({nat})").split("(")[0] \
        in french["said"], french
    assert french["scroll"] <= 390, french


def _answers(hub: Hub) -> int:
    """How many checks the lobby has finished (the page replays the history's older ones)."""
    return sum(1 for e in hub.history if isinstance(e, ConnectionChecked) and not e.running)


async def _answered(hub: Hub, before: int) -> None:
    async with asyncio.timeout(120):  # a check never answered fails the test, never hangs it
        while _answers(hub) == before:
            await asyncio.sleep(0.1)


async def _check_in_the_page(tmp_path: Path, me: Host, side: OnlineSide) -> dict[str, object]:
    browser = await Browser(tmp_path / "profile").start()
    hub = Hub()
    cfg = config(tmp_path, "Ann", hub, timeout=120)
    cfg.interface, cfg.ready = me.address, False
    lobby = Lobby(hub, cfg, [me.address], side)
    server = WebServer(hub, on_command=lobby.command)
    url = await server.start()
    watching = asyncio.create_task(lobby.watch(every=0.3))
    out: dict[str, object] = {}
    try:
        page = await browser.page(url)
        await page.wait_for("document.getElementById('doctorbtn') !== null", timeout=60)
        assert await page.js("document.getElementById('nodefaultstun').checked") is False
        for name, quiet in (("direct", False), ("quiet", True)):
            before = _answers(hub)
            await page.js(f"document.getElementById('nodefaultstun').checked = {str(quiet).lower()};"
                          "document.getElementById('nodefaultstun').dispatchEvent(new Event('change'));"
                          "document.getElementById('doctorbtn').click()")
            await _answered(hub, before)
            await page.wait_for(DONE, timeout=30)
            out[name] = {"verdict": await page.js("document.getElementById('verdict').dataset.verdict"),
                         "said": await page.js("document.getElementById('verdict').textContent"),
                         "checks": await page.js(CHECKS),
                         "advice": await page.js("[...document.querySelectorAll('#doctorresult .advice li')].map(l => l.textContent)")}
            # the lobby's list redraws keep the result and the setting
            assert await page.js("document.getElementById('nodefaultstun').checked") is quiet
        set_language("fr")  # what `p2ptarot web --lang fr` does for the process
        try:
            french = await browser.page(url + "&lang=fr")
            await french.size(390, 844, mobile=True)
            await french.wait_for("document.getElementById('doctorbtn') !== null", timeout=60)
            before = _answers(hub)
            await french.js("document.getElementById('doctorbtn').click()")
            await _answered(hub, before)
            await french.wait_for(DONE, timeout=30)
            keep_shot(await french.screenshot(tmp_path / "check-connection-fr-390.png"))
            out["french"] = {
                "verdict": await french.js("document.getElementById('verdict').dataset.verdict"),
                "said": await french.js("document.getElementById('verdict').textContent"),
                "title": await french.js("document.querySelector('#doctor h2').textContent"),
                "scroll": await french.js("document.documentElement.scrollWidth")}
        finally:
            set_language("en")
        return out
    finally:
        watching.cancel()
        await lobby.close()
        await server.close()
        await browser.close()


async def test_a_lobby_not_online_checks_the_lan_only(tmp_path: Path) -> None:
    """Without --online the check contacts no relay or STUN server: it runs the LAN check only.
    Two lobbies on 127.0.0.1 checking at once hear each other's probe: the verdict is "LAN"."""
    lobbies, queues = [], []
    for name in ("Ann", "Bob"):
        hub = Hub()
        lobbies.append(Lobby(hub, config(tmp_path, name, hub), ["127.0.0.1"], None))
        queues.append(hub.subscribe())
    await asyncio.gather(*(lobby.command(CheckConnection()) for lobby in lobbies))
    for queue in queues:
        seen = [await asyncio.wait_for(queue.get(), 30) for _ in range(2)]
        assert [type(e) for e in seen] == [ConnectionChecked, ConnectionChecked]
        assert seen[0].running and not seen[1].running
        assert seen[1].verdict == "LAN", seen[1]
        assert "verdict: LAN, because multicast is heard on lo 127.0.0.1" in seen[1].said
        assert any("online play is off in this lobby" in a for a in seen[1].advice), seen[1]
        checks = {c["check"]: c for c in seen[1].checks}
        assert list(checks) == ["interfaces", "zeroconf", "lan"], seen[1].checks
        assert checks["zeroconf"]["text"] == "zeroconf uses: lo 127.0.0.1"
        assert checks["lan"]["ok"] and "multicast heard" in checks["lan"]["text"]
    for lobby in lobbies:
        await lobby.close()
