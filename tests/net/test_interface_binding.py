"""`--interface` binds one card: a card's name resolves to its address, and zeroconf holds no
wildcard socket (issue 21 item 5, SECURITY §6). Sockets are read from /proc, in the process's
own network namespace."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time

import pytest
from netns_rig import Rig, bound_sockets

from p2ptarot.net.discovery import MDNS_GROUP_V4, MDNS_PORT, TableAdvertiser, TableBrowser, open_zeroconf
from p2ptarot.net.interfaces import InterfaceError, resolve_interface
from p2ptarot.net.txt import TableInfo

pytestmark = pytest.mark.network
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
WILDCARDS = ("0.0.0.0", "::")


def test_an_address_is_kept_and_a_card_name_resolves_to_its_ipv4_address() -> None:
    assert resolve_interface("127.0.0.1") == "127.0.0.1"
    assert resolve_interface("::1") == "::1"
    assert resolve_interface("lo") == "127.0.0.1"
    with pytest.raises(InterfaceError, match=r"neither an IP address nor a network card.*lo"):
        resolve_interface("no-such-card0")


def test_a_bad_interface_is_a_usage_error_naming_the_cards() -> None:
    done = subprocess.run(CLI + ["list", "--interface", "no-such-card0"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert "no-such-card0" in done.stderr and "cards:" in done.stderr


async def test_zeroconf_on_loopback_holds_no_wildcard_socket() -> None:
    """Advertising and browsing at once: every UDP socket of this process is on 127.0.0.1 or
    the mDNS group, and the table is still seen (multicast works on the bound sockets)."""
    before = {(s.address, s.port) for s in bound_sockets(os.getpid()) if s.proto == "udp"}
    info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=3,
                     fingerprint="ab12-cd34")
    async with TableBrowser(interfaces=["127.0.0.1"]) as browser, \
            TableAdvertiser(info, 4242, interfaces=["127.0.0.1"]) as advertiser:
        async with asyncio.timeout(15):
            while advertiser.name not in browser.tables:
                await asyncio.sleep(0.05)
        mdns = [(s.address, s.port) for s in bound_sockets(os.getpid())
                if s.proto == "udp" and (s.address, s.port) not in before]
    assert sorted(set(mdns)) == [("127.0.0.1", MDNS_PORT), (MDNS_GROUP_V4, MDNS_PORT)]
    assert len(mdns) == 4  # two zeroconf instances: a group listener and a sender each


def test_an_unknown_address_fails_clearly() -> None:
    with pytest.raises(Exception, match="192.0.2.77"):
        open_zeroconf(["192.0.2.77"])  # TEST-NET-1: on no card here


def _tables(rig_host, interface: str) -> list[dict]:
    done = rig_host.run(CLI + ["list", "--interface", interface, "--timeout", "3", "--json"])
    return json.loads(done.stdout)["tables"]


def test_a_host_on_a_card_binds_only_that_card_and_is_seen_only_there(
        netns: Rig, tmp_path) -> None:
    _, (h1, h2) = netns.lan(2)
    host = h1.popen(CLI + ["host", "--game", "sinople", "--seats", "3", "--bot", "--quiet",
                           "--interface", h1.card, "--data-dir", str(tmp_path / "h1"),
                           "--lobby-timeout", "120"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = []
    deadline = time.monotonic() + 60
    while not seen and time.monotonic() < deadline:
        seen = _tables(h2, h2.card)  # found by real multicast across the switch
        assert host.poll() is None, host.stderr.read()
    assert len(seen) == 1 and seen[0]["url"].startswith(f"ws://{h1.address}:"), seen
    sockets = bound_sockets(host.pid)  # `ip netns exec` execs the command: same pid
    assert sockets and not [s for s in sockets if s.address in WILDCARDS], sockets
    assert {s.address for s in sockets} == {h1.address, MDNS_GROUP_V4}, sockets
    assert {s.port for s in sockets if s.proto == "udp"} == {MDNS_PORT}
    # a browser on h2's loopback hears nothing from the LAN card (and the host hears nothing
    # on its loopback): each zeroconf is confined to its card
    assert _tables(h2, "lo") == []


_PROBE = """
import asyncio, json, os, sys
from netns_rig import bound_sockets
from p2ptarot.net.discovery import TableAdvertiser, TableBrowser
from p2ptarot.net.txt import TableInfo

async def main(role, address):
    info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=3,
                     fingerprint="ab12-cd34")
    mine = lambda: sorted({(s.address, s.port) for s in bound_sockets(os.getpid())})
    if role == "advertise":
        async with TableAdvertiser(info, 4242, interfaces=[address]):
            print(json.dumps(mine()), flush=True)
            await asyncio.sleep(60)
    async with TableBrowser(interfaces=[address]) as browser:
        async with asyncio.timeout(30):
            while not browser.tables:
                await asyncio.sleep(0.05)
        print(json.dumps([mine(), [a.addresses for a in browser.tables.values()]]))

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def test_ipv6_zeroconf_binds_the_group_on_its_card_and_finds_the_table(netns: Rig) -> None:
    _, (h1, h2) = netns.lan(2)
    for i, h in enumerate((h1, h2), start=1):
        h.ip("addr", "add", f"fd7e::{i}/64", "dev", h.card, "nodad")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    adv = h1.popen([sys.executable, "-c", _PROBE, "advertise", "fd7e::1"], env=env,
                   stdout=subprocess.PIPE, text=True)
    assert json.loads(adv.stdout.readline()) == [["fd7e::1", 5353], ["ff02::fb", 5353]]
    out = h2.run([sys.executable, "-c", _PROBE, "browse", "fd7e::2"], env=env).stdout
    sockets, seen = json.loads(out)
    assert sockets == [["fd7e::2", 5353], ["ff02::fb", 5353]]
    assert seen == [["fd7e::1"]]


_LISTEN = """
import asyncio, contextlib, json, sys
from p2ptarot.net.discovery import TableBrowser, open_zeroconf

async def main(address, until):
    zc = open_zeroconf([address])
    seen = set()
    async with TableBrowser(interfaces=[address], zeroconf=zc,
                            on_change=lambda c: c.advert and seen.add(c.advert.host)):
        print("listening", flush=True)
        if until == "table":  # until a table is heard (start-up under load included)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(120):
                    while not seen:
                        await asyncio.sleep(0.05)
        else:  # until told to stop, then 2 s more: a datagram already queued is read too
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            await asyncio.sleep(2)
        print(json.dumps({"tables": sorted(seen), "names": sorted(zc.zeroconf.cache.names())}))
    await zc.async_close()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def test_a_zeroconf_on_one_card_hears_nothing_of_another_card(netns: Rig, tmp_path) -> None:
    """h1 sits on two LANs (cards veth-h1 and lan-b). A table is advertised on LAN b; a zeroconf
    on h1's lan-b card sees it, one on veth-h1, listening the whole time, hears nothing at all
    (no record in its cache), although both receiving sockets are bound to 224.0.0.251:5353
    in one namespace and the other one joined the group on lan-b."""
    _, (h1, h2) = netns.lan(2)
    lan_b = netns.segment("b")
    link_b = h1.attach(lan_b, "lan-b")
    h3 = netns.host("h3", lan_b)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    on_a = h1.popen([sys.executable, "-c", _LISTEN, h1.address, "stop"], env=env,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert on_a.stdout.readline() == "listening\n", on_a.stderr.read()
    host = h3.popen(CLI + ["host", "--game", "sinople", "--seats", "3", "--bot", "--quiet",
                           "--interface", h3.card, "--data-dir", str(tmp_path / "h3"),
                           "--lobby-timeout", "300"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    on_b = h1.run([sys.executable, "-c", _LISTEN, link_b.address, "table"], env=env)
    out_a, err_a = on_a.communicate("stop\n", timeout=60)
    heard_b, heard_a = json.loads(on_b.stdout.splitlines()[-1]), json.loads(out_a)
    assert (heard_b["tables"], heard_a) == ([h3.address], {"tables": [], "names": []}), \
        (heard_b, on_b.stderr[-2000:], err_a[-2000:], host.poll())
    assert host.poll() is None, host.stderr.read()


_GROUP_SOCKETS = """
import json, select, socket, sys
from zeroconf import IPVersion
from p2ptarot.net.discovery import _bound_sockets

pairs = [_bound_sockets([address], IPVersion.V4Only) for address in sys.argv[1:]]
socks = {s: f"group {a}" for a, (s, _) in zip(sys.argv[1:], pairs)}
socks.update({s: f"sender {a}" for a, (_, senders) in zip(sys.argv[1:], pairs) for s in senders})
counts = dict.fromkeys(socks.values(), 0)
print("ready", flush=True)
watch = [*socks, sys.stdin]
while True:
    ready, _, _ = select.select(watch, [], [], 1.0)
    if sys.stdin in ready:
        sys.stdin.readline()
        watch.remove(sys.stdin)
    elif not ready and sys.stdin not in watch:  # told to stop, then a quiet second: all read
        break
    for s in ready:
        if s in socks:
            s.recvfrom(2048)
            counts[socks[s]] += 1
print(json.dumps(counts))
"""

_SEND = """
import socket, sys, time
source, destination, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for port in range(40001, 40001 + count):  # one flow each: SO_REUSEPORT would scatter them
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind((source, port))
        s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(source))
        s.sendto(b"not mdns", (destination, 5353))
    time.sleep(0.002)
"""


def test_each_cards_sockets_take_only_what_arrives_on_that_card(netns: Rig) -> None:
    """The sockets `open_zeroconf` opens for veth-h1 and for lan-b, side by side in h1: 64
    datagrams to the mDNS group from 64 source ports on LAN b all reach lan-b's group socket,
    none veth-h1's, and likewise from LAN a. (With SO_REUSEPORT on the group sockets Linux's
    early demux spread each LAN's flows over both by hash.) Unicast to veth-h1's address sent
    over LAN b reaches no socket (Linux would take it on any card: the sending sockets are
    bound to their card); unicast to lan-b's address reaches lan-b's sending socket."""
    _, (h1, h2) = netns.lan(2)
    lan_b = netns.segment("b")
    link_b = h1.attach(lan_b, "lan-b")
    h3 = netns.host("h3", lan_b)
    h3.ip("route", "add", f"{h1.address}/32", "dev", h3.card)  # a LAN b machine aims at card a
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    probe = h1.popen([sys.executable, "-c", _GROUP_SOCKETS, h1.address, link_b.address],
                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
    assert probe.stdout.readline() == "ready\n", probe.stderr.read()
    for sender, destination, count in ((h3, MDNS_GROUP_V4, 64), (h2, MDNS_GROUP_V4, 32),
                                       (h3, h1.address, 16), (h3, link_b.address, 8)):
        sender.run([sys.executable, "-c", _SEND, sender.address, destination, str(count)])
    out, err = probe.communicate("stop\n", timeout=60)
    assert json.loads(out) == {f"group {h1.address}": 32, f"group {link_b.address}": 64,
                               f"sender {h1.address}": 0, f"sender {link_b.address}": 8}, err
