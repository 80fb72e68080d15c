"""The namespace rig does what it says: a LAN with multicast, faults, NAT kinds, home firewalls,
blocked UDP, and nothing left behind. Real namespaces, real packets (root, as in CI)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from netns_rig import Host, Rig, RigError, bound_sockets, open_rig

PY = sys.executable

# A UDP echo: answers every datagram with the source address and port it saw, as JSON.
ECHO = """
import json, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], int(sys.argv[2])))
print("ready", flush=True)
while True:
    data, peer = s.recvfrom(2048)
    s.sendto(json.dumps([peer[0], peer[1], data.decode()]).encode(), peer)
"""

# Sends numbered datagrams from one socket to each target; prints the answers it got.
ASK = """
import json, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", int(sys.argv[1])))
s.settimeout(float(sys.argv[2]))
targets = [(t.split(":")[0], int(t.split(":")[1])) for t in sys.argv[4:]]
count = int(sys.argv[3])
answers = []
for target in targets:
    for i in range(count):
        s.sendto(str(i).encode(), target)
        try:
            answers.append(json.loads(s.recv(2048)))
        except TimeoutError:
            pass
print(json.dumps(answers))
"""


def _echo(host: Host, port: int = 9999, address: str | None = None) -> subprocess.Popen:
    proc = host.popen([PY, "-c", ECHO, address or host.address, str(port)],
                      stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def _ask(host: Host, targets: list[str], count: int = 1, port: int = 40000,
         timeout: float = 1.0) -> list[list]:
    out = host.run([PY, "-c", ASK, str(port), str(timeout), str(count), *targets]).stdout
    return json.loads(out)


def test_lan_hosts_reach_each_other_and_multicast_crosses_the_switch(netns: Rig) -> None:
    _, (h1, h2, h3) = netns.lan(3)
    assert h1.card == "veth-h1" and h1.address != h2.address
    _echo(h2)
    assert _ask(h1, [f"{h2.address}:9999"])[0][:2] == [h1.address, 40000]
    listen = ("import socket,sys\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n"
              "s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\n"
              "s.bind(('224.0.0.251',5353))\n"
              "s.setsockopt(socket.IPPROTO_IP,socket.IP_ADD_MEMBERSHIP,"
              "socket.inet_aton('224.0.0.251')+socket.inet_aton(sys.argv[1]))\n"
              "print('ready',flush=True)\ns.settimeout(10)\nprint(s.recvfrom(99)[1][0])\n")
    listeners = [h.popen([PY, "-c", listen, h.address], stdout=subprocess.PIPE, text=True)
                 for h in (h2, h3)]
    for proc in listeners:
        assert proc.stdout.readline().strip() == "ready"
    send = ("import socket,sys\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n"
            "s.setsockopt(socket.IPPROTO_IP,socket.IP_MULTICAST_IF,socket.inet_aton(sys.argv[1]))\n"
            "s.sendto(b'hi',('224.0.0.251',5353))\n")
    h1.run([PY, "-c", send, h1.address])
    for proc in listeners:
        assert proc.stdout.readline().strip() == h1.address


def test_loss_cut_restore_and_carrier(netns: Rig) -> None:
    _, (h1, h2) = netns.lan(2)
    _echo(h2)
    target = [f"{h2.address}:9999"]
    h2.link.loss(50)
    got = len(_ask(h1, target, count=100, timeout=0.05))
    # a request crosses h2's inbound filter, the answer h1's (0 %): about 50 of 100 answered
    assert 20 < got < 80, got
    h2.link.loss(0)
    assert len(_ask(h1, target, count=20, timeout=0.5)) == 20
    h2.link.cut()
    assert _ask(h1, target, count=3, timeout=0.3) == []
    h2.link.restore()
    assert len(_ask(h1, target, count=3)) == 3
    h2.block_udp()
    assert _ask(h1, target, count=2, timeout=0.3) == []
    h2.allow_udp()
    assert len(_ask(h1, target, count=3)) == 3
    h1.link.down()
    assert "NO-CARRIER" in h1.ip("link", "show", h1.card)
    assert _ask(h1, target, count=2, timeout=0.3) == []
    h1.link.up()
    for _ in range(50):  # carrier comes back within a few ms; the neighbour entry too
        if _ask(h1, target, timeout=0.2):
            break
    else:
        raise AssertionError("link never came back up")


@pytest.mark.parametrize("nat", ["cone", "symmetric"])
def test_nat_mapping_kinds_and_home_firewall(netns: Rig, nat: str) -> None:
    inet = netns.internet()
    s1, s2 = netns.host("stun1", inet), netns.host("stun2", inet)
    router, (alice,) = netns.home("a", inet, nat=nat)
    for server in (s1, s2):
        _echo(server)
    answers = _ask(alice, [f"{s1.address}:9999", f"{s2.address}:9999"])
    assert [a[0] for a in answers] == [router.wan_address] * 2  # the home's private address hidden
    ports = {a[1] for a in answers}
    if nat == "cone":
        assert ports == {40000}  # endpoint-independent: one mapping, port kept
    else:
        assert len(ports) == 2  # symmetric: a new random port per destination
    # unsolicited inbound: s1 sends from another port to the mapping; the home drops it
    mapped = answers[0][1]
    recv = ("import socket\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n"
            "s.bind(('0.0.0.0',40000))\ns.settimeout(1.5)\nprint('ready',flush=True)\n"
            "try:\n    print(s.recvfrom(99)[0].decode())\nexcept TimeoutError:\n    print('nothing')\n")
    listener = alice.popen([PY, "-c", recv], stdout=subprocess.PIPE, text=True)
    assert listener.stdout.readline().strip() == "ready"
    poke = ("import socket,sys\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n"
            "s.bind(('0.0.0.0',5555))\ns.sendto(b'unsolicited',(sys.argv[1],int(sys.argv[2])))\n")
    s1.run([PY, "-c", poke, router.wan_address, str(mapped)])
    assert listener.stdout.readline().strip() == "nothing"


def test_blocked_udp_and_tcp_still_crosses(netns: Rig) -> None:
    inet = netns.internet()
    server = netns.host("relay", inet)
    router, (alice,) = netns.home("a", inet)
    _echo(server)
    tcp = server.popen([PY, "-c", "import socket\ns=socket.create_server(('0.0.0.0',8443))\n"
                        "print('ready',flush=True)\nc,a=s.accept()\nc.sendall(b'hello')\n"],
                       stdout=subprocess.PIPE, text=True)
    assert tcp.stdout.readline().strip() == "ready"
    assert len(_ask(alice, [f"{server.address}:9999"])) == 1
    router.block_udp()
    assert _ask(alice, [f"{server.address}:9999"], timeout=0.5) == []
    dial = ("import socket,sys\nc=socket.create_connection((sys.argv[1],8443),timeout=5)\n"
            "print(c.recv(9).decode())\n")
    assert alice.run([PY, "-c", dial, server.address]).stdout.strip() == "hello"
    router.allow_udp()
    assert len(_ask(alice, [f"{server.address}:9999"])) == 1


def test_bound_sockets_reads_the_process_own_namespace(netns: Rig) -> None:
    _, (h1,) = netns.lan(1)
    echo = _echo(h1, address="0.0.0.0")
    # `ip netns exec` execs the command: the Popen pid is the echo's, in h1's namespace
    assert [(s.proto, s.address, s.port) for s in bound_sockets(echo.pid)] == [
        ("udp", "0.0.0.0", 9999)]


def test_close_removes_namespaces_and_processes() -> None:
    rig = open_rig()
    _, (h1,) = rig.lan(1)
    sleeper = h1.popen(["sleep", "600"])
    names = [ns.name for ns in rig._namespaces]
    assert all((Path("/run/netns") / n).exists() for n in names)
    rig.close()
    assert sleeper.poll() is not None
    assert not any((Path("/run/netns") / n).exists() for n in names)
    rig.close()  # idempotent


def test_a_bad_command_raises_with_its_error(netns: Rig) -> None:
    _, (h1,) = netns.lan(1)
    with pytest.raises(RigError, match="exited 3"):
        h1.run([PY, "-c", "raise SystemExit(3)"])
    with pytest.raises(ValueError):
        netns.host("Bad_Name", netns.segment("x"))



def test_a_packet_to_an_address_the_rig_did_not_make_fails_the_rig() -> None:
    """The guard counts what a host sends outside the rig (here to TEST-NET-3, which has no
    route out of the namespaces anyway) and `close()` fails naming it; traffic inside the rig,
    on loopback and to multicast counts nothing."""
    rig = open_rig()
    names: list[str] = []
    try:
        inet = rig.internet()
        server = rig.host("srv", inet)
        _, (a1,) = rig.home("a", inet, nat="cone")
        names = [ns.name for ns in rig._namespaces]
        _echo(server)
        assert _ask(a1, [f"{server.address}:9999"])  # inside: answered, not counted
        send = "import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
        a1.run([PY, "-c", send + "s.sendto(b'x', ('127.0.0.1', 9)); "
                                 "s.sendto(b'x', ('224.0.0.251', 5353))"])
        assert rig.outside() == {}
        a1.run([PY, "-c", send + "s.sendto(b'x', ('203.0.113.7', 3478))"])
        assert rig.outside() == {a1.name: (1, ["203.0.113.7"])}
    except BaseException:
        with contextlib.suppress(RigError):
            rig.close()
        raise
    with pytest.raises(RigError, match=r"sent outside the rig: \S+-a1: 1 to 203\.0\.113\.7"):
        rig.close()
    assert names and not any((Path("/run/netns") / n).exists() for n in names)
