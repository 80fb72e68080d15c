"""Virtual networks in Linux network namespaces, for tests and benchmarks (root needed).

Everything a `Rig` builds exists only inside namespaces it creates, and is gone after
`close()`: the addresses (10.x LANs, 198.18.0.0/24 as "the internet"), the bridges, the veth
pairs, the nftables rules. Namespace names carry the owner's pid and a random tag
(`p2t<pid>-<tag>-<role>`), so parallel pytest-xdist workers never clash, and `sweep_stale()`
removes what a killed run left behind (only namespaces whose owner pid is gone).

Pieces (tests/support/README.md walks through them):

- `Segment`: an Ethernet switch, i.e. a bridge alone in its own namespace, for one /24.
- `Host`: a namespace with `lo` up and one network card `veth-<name>` plugged into a segment.
  `run`/`popen` execute a command inside it (`ip netns exec`); mDNS multicast works between
  hosts of a segment (veths carry the MULTICAST flag, the bridge floods 224.0.0.251).
- `Router`: a home router between a home segment and the internet segment: forwards, NATs
  (`nat="cone"`: nftables `masquerade`, endpoint-independent mapping, ports kept;
  `nat="symmetric"`: `masquerade fully-random`, a new port per destination) and drops
  unsolicited inbound traffic as real home routers do; `block_udp()` drops every UDP packet
  crossing it (to force TURN over TCP or a relay).
- Faults on a host's link (`Host.link`): `loss(5)` drops 5 % of the packets arriving on it
  (nftables `numgen random`), `cut()`/`restore()` drop everything, `down()`/`up()` take the
  switch port's carrier away. This kernel has no `netem` qdisc: delay needs a proxy (see
  benchmarks/chaos.py).

**Nothing leaves the rig.** Every host and router namespace has an nftables guard on its
output hook (`table inet p2t_guard`): a packet addressed outside the rig's own subnets
(198.18.0.0/24 and each segment's 10.n.0.0/24), loopback, multicast and broadcast (IPv6: outside
::1, link-local and multicast) is counted, and its destination kept. `Rig.outside()` reads them;
`close()` raises `RigError` naming the namespaces and destinations when any packet was sent
outside, so a test whose peer contacted a public server fails even though the namespaces have no
route out.

A `Rig` is a context manager; the pytest fixture `netns` (tests/conftest.py) yields one and
closes it after the test, whatever happened. If namespaces cannot be created the fixture
raises `RigError` with the reason: the test fails, it never skips.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ipaddress
import os
import re
import secrets
import signal
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

NETNS_DIR = Path("/run/netns")
_NAME_OK = re.compile(r"^[a-z][a-z0-9]{0,9}$")  # veth-<name> must fit IFNAMSIZ (15)
_OURS = re.compile(r"^p2t(\d+)-[0-9a-f]{6}-")
_CLONE_NEWNET = 0x40000000
INTERNET = "198.18.0.0/24"  # RFC 2544 benchmarking range: never a real destination


class RigError(RuntimeError):
    """The virtual network could not be built (not root, no iproute2/nftables, ...)."""


def _run(cmd: Sequence[str], input: str | None = None) -> str:
    try:
        done = subprocess.run(list(cmd), input=input, capture_output=True, text=True, timeout=30)
    except FileNotFoundError as exc:
        raise RigError(f"{cmd[0]} is missing: install iproute2 and nftables "
                       f"(apt-get install -y iproute2 nftables)") from exc
    if done.returncode != 0:
        hint = "" if os.geteuid() == 0 else " (network namespaces need root; CI runs as root)"
        raise RigError(f"`{' '.join(cmd)}` failed: {done.stderr.strip()}{hint}")
    return done.stdout


def _guard_rules(subnets: Sequence[str]) -> str:
    """The output guard of a host or router namespace (see the module's docstring)."""
    inside = ", ".join(["127.0.0.0/8", "224.0.0.0/4", "255.255.255.255/32", *subnets])
    return ("table inet p2t_guard {}\ndelete table inet p2t_guard\n"
            "table inet p2t_guard {\n"
            f"  set rig4 {{ type ipv4_addr; flags interval; elements = {{ {inside} }} }}\n"
            "  set seen4 { type ipv4_addr; size 64; flags dynamic; }\n"
            "  set seen6 { type ipv6_addr; size 64; flags dynamic; }\n"
            "  counter outside { }\n"
            "  chain out { type filter hook output priority -100; policy accept;\n"
            "    meta nfproto ipv4 ip daddr != @rig4 add @seen4 { ip daddr } counter name outside\n"
            "    meta nfproto ipv6 ip6 daddr != { ::1, fe80::/10, ff00::/8 } "
            "add @seen6 { ip6 daddr } counter name outside\n"
            "  }\n}\n")


class Namespace:
    """One network namespace of the rig."""

    def __init__(self, rig: Rig, name: str) -> None:
        self.rig, self.name = rig, name

    def ip(self, *args: str) -> str:
        return _run(["ip", "-n", self.name, *args])

    def exec_prefix(self) -> list[str]:
        """Prefix a command with this to run it inside the namespace."""
        return ["ip", "netns", "exec", self.name]

    def run(self, cmd: Sequence[str], check: bool = True, timeout: float = 600,
            **kwargs: object) -> subprocess.CompletedProcess[str]:
        """Run a command inside the namespace to completion (text output captured)."""
        kwargs.setdefault("capture_output", True)
        done = subprocess.run(self.exec_prefix() + list(cmd), text=True, timeout=timeout,
                              **kwargs)  # type: ignore[call-overload]
        if check and done.returncode != 0:
            raise RigError(f"in {self.name}: `{' '.join(cmd)}` exited {done.returncode}: "
                           f"{(done.stderr or '')[-2000:]}")
        return done

    def popen(self, cmd: Sequence[str], **kwargs: object) -> subprocess.Popen:
        """Start a process inside the namespace, in its own process group; the rig ends the
        group at close (children such as `host --bots` bot processes go with it)."""
        proc = subprocess.Popen(self.exec_prefix() + list(cmd), start_new_session=True,
                                **kwargs)  # type: ignore[call-overload]
        self.rig._processes.append(proc)
        return proc

    def run_async(self, fn: Callable[[], Awaitable[object]]) -> object:
        """`asyncio.run(fn())` on a thread that entered this namespace's network (setns): the
        sockets it opens and the processes it starts (a browser driven over this namespace's
        loopback, an in-process peer) live here. Returns the result, or raises its error."""
        out: dict[str, object] = {}

        def body() -> None:
            try:
                fd = os.open(NETNS_DIR / self.name, os.O_RDONLY)
                try:
                    libc = ctypes.CDLL(None, use_errno=True)
                    if libc.setns(fd, _CLONE_NEWNET) != 0:
                        err = ctypes.get_errno()
                        raise OSError(err, f"setns into {self.name}: {os.strerror(err)}")
                finally:
                    os.close(fd)
                out["result"] = asyncio.run(fn())  # type: ignore[arg-type]
            except BaseException as exc:  # handed to the caller's thread
                out["error"] = exc
        thread = threading.Thread(target=body, name=f"in-{self.name}")
        thread.start()
        thread.join()
        if "error" in out:
            raise out["error"]  # type: ignore[misc]
        return out.get("result")

    def nft(self, ruleset: str) -> None:
        """Load an nftables ruleset (`nft -f -`) in this namespace."""
        _run(self.exec_prefix() + ["nft", "-f", "-"], input=ruleset)

    def sysctl(self, key: str, value: str) -> None:
        _run(self.exec_prefix() + ["sysctl", "-q", "-w", f"{key}={value}"])


class Segment(Namespace):
    """An Ethernet switch for one /24: a bridge `br0` in its own namespace."""

    def __init__(self, rig: Rig, name: str, subnet: str) -> None:
        super().__init__(rig, rig._ns_name(f"sw-{name}"))
        self.label = name
        self.subnet = ipaddress.ip_network(subnet)
        if self.subnet.prefixlen != 24:
            raise ValueError("a segment is a /24")
        self._next = 10

    def allocate(self) -> str:
        if self._next > 250:
            raise RigError(f"segment {self.label} is full")
        address = str(self.subnet.network_address + self._next)
        self._next += 1
        return address

    def _build(self) -> None:
        self.ip("link", "set", "lo", "up")
        self.ip("link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        self.ip("link", "set", "br0", "up")


class Link:
    """A host's card and its switch port; faults are nftables rules in the host's namespace
    (inbound on the card: a packet between two hosts crosses exactly one such filter)."""

    def __init__(self, host: Namespace, card: str, switch: Segment, port: str) -> None:
        self.host, self.card, self.switch, self.port = host, card, switch, port
        self.address = ""  # set by its host
        self._loss = 0
        self._cut = False

    def loss(self, percent: int) -> None:
        """Drop `percent` % of the packets arriving on this card (0 clears)."""
        if not 0 <= percent <= 100:
            raise ValueError("percent in 0..100")
        self._loss = percent
        self._apply()

    def cut(self) -> None:
        """Drop every packet in and out of this card (the cable is pulled, carrier kept)."""
        self._cut = True
        self._apply()

    def restore(self) -> None:
        self._cut = False
        self._apply()

    def down(self) -> None:
        """The switch port goes down: the card loses carrier."""
        self.switch.ip("link", "set", self.port, "down")

    def up(self) -> None:
        self.switch.ip("link", "set", self.port, "up")

    def _apply(self) -> None:
        rules_in, rules_out = [], []
        if self._cut:
            rules_in.append(f'iifname "{self.card}" drop')
            rules_out.append(f'oifname "{self.card}" drop')
        elif self._loss:
            rules_in.append(f'iifname "{self.card}" numgen random mod 100 < {self._loss} drop')
        self.host.nft(
            "table inet p2t_faults {}\ndelete table inet p2t_faults\n"
            "table inet p2t_faults {\n"
            "  chain in { type filter hook input priority -50; policy accept;\n"
            + "".join(f"    {r}\n" for r in rules_in) + "  }\n"
            "  chain out { type filter hook output priority -50; policy accept;\n"
            + "".join(f"    {r}\n" for r in rules_out) + "  }\n}\n")


class Host(Namespace):
    """A computer: a namespace with one card `veth-<name>` on a segment."""

    def __init__(self, rig: Rig, name: str, segment: Segment, address: str) -> None:
        super().__init__(rig, rig._ns_name(name))
        self.label, self.segment, self.address = name, segment, address
        self.card = f"veth-{name}"
        self.link = Link(self, self.card, segment, f"p-{name}")
        self.link.address = address

    def _build(self, gateway: str | None, default_on_link: bool) -> None:
        self.ip("link", "set", "lo", "up")
        self.rig._guard(self)
        _run(["ip", "link", "add", self.card, "netns", self.name, "type", "veth",
              "peer", "name", self.link.port, "netns", self.segment.name])
        self.segment.ip("link", "set", self.link.port, "master", "br0", "up")
        self.ip("addr", "add", f"{self.address}/24", "dev", self.card)
        self.ip("link", "set", self.card, "up")
        if gateway:
            self.ip("route", "add", "default", "via", gateway)
        elif default_on_link:
            # an internet server answers any address; one that is not on the segment is
            # simply never reached (not "Network is unreachable", which makes coturn give up)
            self.ip("route", "add", "default", "dev", self.card)

    def attach(self, segment: Segment, card: str, address: str | None = None) -> Link:
        """A second card (named `card`, at most 15 characters) on another segment: a
        multi-homed computer. Returns its link; its address is `link.address`."""
        if len(card) > 15 or card in (self.card, "lo"):
            raise ValueError("a card name has at most 15 characters and is new on the host")
        link = Link(self, card, segment, f"p-{self.label}-{segment.label}"[:15])
        link.address = address or segment.allocate()
        _run(["ip", "link", "add", card, "netns", self.name, "type", "veth",
              "peer", "name", link.port, "netns", segment.name])
        segment.ip("link", "set", link.port, "master", "br0", "up")
        self.ip("addr", "add", f"{link.address}/24", "dev", card)
        self.ip("link", "set", card, "up")
        return link

    def block_udp(self) -> None:
        """Drop every UDP packet in and out of this host's card."""
        self.nft("table inet p2t_noudp {}\ndelete table inet p2t_noudp\n"
                 "table inet p2t_noudp {\n"
                 f'  chain in {{ type filter hook input priority -40; iifname "{self.card}" '
                 "meta l4proto udp drop; }\n"
                 f'  chain out {{ type filter hook output priority -40; oifname "{self.card}" '
                 "meta l4proto udp drop; }\n}\n")

    def allow_udp(self) -> None:
        self.nft("table inet p2t_noudp {}\ndelete table inet p2t_noudp\n")


class Router(Namespace):
    """A home router: `lan0` on the home segment (its .1), `wan0` on the internet segment."""

    def __init__(self, rig: Rig, name: str, home: Segment, internet: Segment, nat: str | None,
                 drop_unsolicited: bool) -> None:
        super().__init__(rig, rig._ns_name(name))
        if nat not in (None, "cone", "symmetric"):
            raise ValueError("nat is None, 'cone' or 'symmetric'")
        self.label, self.home, self.internet = name, home, internet
        self.nat, self.drop_unsolicited = nat, drop_unsolicited
        self.lan_address = str(home.subnet.network_address + 1)
        self.wan_address = internet.allocate()
        self.lan = Link(self, "lan0", home, f"r-{name}")
        self.wan = Link(self, "wan0", internet, f"w-{name}")

    def _build(self) -> None:
        self.ip("link", "set", "lo", "up")
        self.rig._guard(self)
        for link, address in ((self.lan, self.lan_address), (self.wan, self.wan_address)):
            _run(["ip", "link", "add", link.card, "netns", self.name, "type", "veth",
                  "peer", "name", link.port, "netns", link.switch.name])
            link.switch.ip("link", "set", link.port, "master", "br0", "up")
            self.ip("addr", "add", f"{address}/24", "dev", link.card)
            self.ip("link", "set", link.card, "up")
        self.ip("route", "add", "default", "dev", "wan0")
        self.sysctl("net.ipv4.ip_forward", "1")
        rules = []
        if self.drop_unsolicited:
            rules.append("table inet p2t_home {\n"
                         "  chain forward { type filter hook forward priority filter; policy drop;\n"
                         "    ct state established,related accept\n"
                         '    iifname "lan0" oifname "wan0" accept\n  }\n'
                         "  chain input { type filter hook input priority filter; policy drop;\n"
                         '    ct state established,related accept\n    iifname "lo" accept\n'
                         '    iifname "lan0" accept\n  }\n}\n')
        if self.nat:
            how = "masquerade fully-random" if self.nat == "symmetric" else "masquerade"
            rules.append("table ip p2t_nat {\n"
                         "  chain post { type nat hook postrouting priority srcnat;\n"
                         f'    oifname "wan0" {how}\n  }}\n}}\n')
        if rules:
            self.nft("".join(rules))

    def block_udp(self) -> None:
        """Drop every UDP packet crossing the router (either way) or addressed to it."""
        self.nft("table inet p2t_noudp {}\ndelete table inet p2t_noudp\n"
                 "table inet p2t_noudp {\n"
                 "  chain forward { type filter hook forward priority -40; meta l4proto udp drop; }\n"
                 "}\n")

    def allow_udp(self) -> None:
        self.nft("table inet p2t_noudp {}\ndelete table inet p2t_noudp\n")


@dataclass
class Rig:
    """Owns every namespace and process it made; `close()` (or the `with` block) removes all."""

    tag: str = field(default_factory=lambda: secrets.token_hex(3))
    _namespaces: list[Namespace] = field(default_factory=list)
    _processes: list[subprocess.Popen] = field(default_factory=list)
    _subnets: int = 0

    def _ns_name(self, role: str) -> str:
        return f"p2t{os.getpid()}-{self.tag}-{role}"

    def _guarded(self) -> list[Namespace]:
        return [ns for ns in self._namespaces if isinstance(ns, (Host, Router))]

    def _subnets_made(self) -> list[str]:
        return [str(ns.subnet) for ns in self._namespaces if isinstance(ns, Segment)]

    def _guard(self, ns: Namespace) -> None:
        """Install the output guard in a new host or router namespace."""
        ns.nft(_guard_rules(self._subnets_made()))

    def _widen_guards(self, subnet: str) -> None:
        """A new segment: its addresses are the rig's in every guard already installed."""
        for ns in self._guarded():
            ns.nft(f"add element inet p2t_guard rig4 {{ {subnet} }}\n")

    def outside(self) -> dict[str, tuple[int, list[str]]]:
        """Per namespace that sent any: (packets sent outside the rig, their destinations)."""
        import json
        found = {}
        for ns in self._guarded():
            try:
                counter = json.loads(_run(ns.exec_prefix() + [
                    "nft", "-j", "list", "counter", "inet", "p2t_guard", "outside"]))
                packets = next(item["counter"]["packets"] for item in counter["nftables"]
                               if "counter" in item)
            except (RigError, ValueError, KeyError, StopIteration):
                continue  # a namespace already gone
            if packets:
                where = []
                for name in ("seen4", "seen6"):
                    with contextlib.suppress(RigError, ValueError, KeyError, StopIteration):
                        listed = json.loads(_run(ns.exec_prefix() + [
                            "nft", "-j", "list", "set", "inet", "p2t_guard", name]))
                        elems = next(item["set"] for item in listed["nftables"] if "set" in item)
                        where += [str(e) for e in elems.get("elem", [])]
                found[ns.name] = (packets, where)
        return found

    def _add(self, ns: Namespace) -> None:
        if any(n.name == ns.name for n in self._namespaces):
            raise ValueError(f"{ns.name} already exists in this rig")
        _run(["ip", "netns", "add", ns.name])
        self._namespaces.append(ns)

    def segment(self, name: str, subnet: str | None = None) -> Segment:
        """A new switch; `subnet` defaults to the next free 10.<n>.0.0/24."""
        if subnet is None:
            self._subnets += 1
            subnet = f"10.{self._subnets}.0.0/24"
        seg = Segment(self, name, subnet)
        self._add(seg)
        seg._build()
        self._widen_guards(str(seg.subnet))
        return seg

    def internet(self) -> Segment:
        """The "internet": a segment on 198.18.0.0/24 for servers and routers' WAN ports."""
        return self.segment("inet", INTERNET)

    def host(self, name: str, segment: Segment, address: str | None = None) -> Host:
        """A computer on `segment`. Behind a router's home segment its default route goes to
        the router; on the internet segment it gets an on-link default route."""
        if not _NAME_OK.match(name):
            raise ValueError("host names are 1-10 lowercase letters/digits, starting with a letter")
        host = Host(self, name, segment, address or segment.allocate())
        self._add(host)
        gateway = next((r.lan_address for r in self._namespaces
                        if isinstance(r, Router) and r.home is segment), None)
        host._build(gateway, default_on_link=str(segment.subnet) == INTERNET)
        return host

    def lan(self, count: int, prefix: str = "h") -> tuple[Segment, list[Host]]:
        """A switch and `count` hosts named h1..hN on it."""
        seg = self.segment("lan")
        return seg, [self.host(f"{prefix}{i}", seg) for i in range(1, count + 1)]

    def router(self, name: str, home: Segment, internet: Segment, nat: str | None = "cone",
               drop_unsolicited: bool = True) -> Router:
        """A home router; create it before the home's hosts (they take it as gateway)."""
        if not _NAME_OK.match(name):
            raise ValueError("router names are 1-10 lowercase letters/digits")
        router = Router(self, name, home, internet, nat, drop_unsolicited)
        self._add(router)
        router._build()
        return router

    def home(self, name: str, internet: Segment, nat: str = "cone",
             hosts: int = 1) -> tuple[Router, list[Host]]:
        """A home: a segment, its NAT router on `internet`, and hosts <name>1..N behind it."""
        seg = self.segment(name)
        router = self.router(f"{name}r", seg, internet, nat=nat)
        return router, [self.host(f"{name}{i}", seg) for i in range(1, hosts + 1)]

    def close(self) -> None:
        """End the processes started in the rig, then delete its namespaces (idempotent)."""
        for proc in self._processes:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 5
        for proc in self._processes:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
        self._processes.clear()
        leaked = self.outside()
        errors = []
        for ns in reversed(self._namespaces):
            done = subprocess.run(["ip", "netns", "del", ns.name], capture_output=True, text=True)
            if done.returncode != 0 and (NETNS_DIR / ns.name).exists():
                errors.append(f"{ns.name}: {done.stderr.strip()}")
        self._namespaces.clear()
        if errors:
            raise RigError("could not delete namespaces: " + "; ".join(errors))
        if leaked:
            raise RigError("packets were sent outside the rig: " + "; ".join(
                f"{name}: {count} to {', '.join(where) or '?'}"
                for name, (count, where) in leaked.items()))

    def __enter__(self) -> Rig:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def sweep_stale() -> list[str]:
    """Delete namespaces of rigs whose owner process is gone (a killed test run)."""
    removed = []
    if not NETNS_DIR.is_dir():
        return removed
    for entry in NETNS_DIR.iterdir():
        match = _OURS.match(entry.name)
        if match and not Path(f"/proc/{match.group(1)}").exists():
            subprocess.run(["ip", "netns", "del", entry.name], capture_output=True)
            removed.append(entry.name)
    return removed


def open_rig() -> Rig:
    """A rig after checking namespaces can be built here (a clear `RigError` otherwise)."""
    sweep_stale()
    rig = Rig()
    probe = rig._ns_name("probe")
    _run(["ip", "netns", "add", probe])
    _run(["ip", "netns", "del", probe])
    _run(["nft", "--version"])
    return rig


# ---- sockets a process holds (for "nothing listens on 0.0.0.0" checks) -------------------------
@dataclass(frozen=True)
class BoundSocket:
    proto: str  # "udp" or "tcp" (tcp: listening sockets only)
    address: str
    port: int


def _decode(hex_addr: str) -> tuple[str, int]:
    host, port = hex_addr.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        address = str(ipaddress.IPv4Address(raw[::-1]))
    else:
        words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
        address = str(ipaddress.IPv6Address(words))
    return address, int(port, 16)


def bound_sockets(pid: int) -> list[BoundSocket]:
    """UDP sockets and listening TCP sockets held by process `pid`, read from /proc (its own
    network namespace's tables, filtered by the socket inodes among its descriptors)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for proto, files in (("udp", ("udp", "udp6")), ("tcp", ("tcp", "tcp6"))):
        for name in files:
            path = Path(f"/proc/{pid}/net/{name}")
            if not path.exists():
                continue
            for line in path.read_text().splitlines()[1:]:
                cols = line.split()
                if cols[9] not in inodes or (proto == "tcp" and cols[3] != "0A"):  # 0A: LISTEN
                    continue
                address, port = _decode(cols[1])
                found.append(BoundSocket(proto, address, port))
    return found
