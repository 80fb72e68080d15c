"""The online rig: an "internet" segment with a NOSTR relay and coturn on one server, and
homes behind NAT routers (tests/support/netns_rig.py), all in namespaces of the test's own."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from netns_rig import Host, Rig, Router
from online_servers import Relay, Turn, start_relay, start_turn

PROBE = str(Path(__file__).parents[2] / "support" / "online_probe.py")
_IPV4 = re.compile(r"(?<![0-9.])(?:\d{1,3}\.){3}\d{1,3}(?![0-9.])")


@dataclass
class Internet:
    rig: Rig
    server: Host
    relay: Relay
    turn: Turn

    def home(self, name: str, nat: str, hosts: int = 1) -> tuple[Router, list[Host]]:
        return self.rig.home(name, self.rig_inet, nat=nat, hosts=hosts)

    @property
    def rig_inet(self):  # the internet segment
        return self.server.segment

    def ice_args(self, turn: bool = True) -> list[str]:
        args = ["--stun", self.turn.stun_url]
        if turn:
            args += ["--turn", f"turn:{self.turn.user}:{self.turn.password}@"
                               f"{self.turn.host}:{self.turn.port}"]
        return args


@pytest.fixture
def internet(netns: Rig, tmp_path: Path) -> Iterator[Internet]:
    inet = netns.internet()
    server = netns.host("srv", inet)
    relay = start_relay(tmp_path / "relay", host=server.address, port=7447,
                        prefix=server.exec_prefix(), popen=server.popen)
    turn = start_turn(tmp_path / "turn", server.address, server.popen, server.exec_prefix())
    yield Internet(netns, server, relay, turn)
    relay.stop()


def leaks(rows: list[dict[str, object]], secrets: list[str]) -> list[str]:
    """What a relay's stored events show that it should never have seen: an IPv4 address, a
    session description, or any of `secrets` (e.g. a table message's signature)."""
    found = []
    for row in rows:
        text = f"{row.get('tags')} {row.get('content')}"
        if isinstance(row.get("content"), bytes):
            text = f"{row.get('tags')} {row['content'].decode('utf-8', 'replace')}"  # type: ignore[union-attr]
        found += [f"address {m}" for m in _IPV4.findall(text)]
        found += [f"sdp {w}" for w in ("candidate", "a=fingerprint", "v=0") if w in text]
        found += [f"secret {s[:12]}" for s in secrets if s and s in text]
    return found


def run_probe(host: Host, relay: Relay, *args: str, timeout: float = 180) -> "subprocess.CompletedProcess[str]":
    return host.run([sys.executable, PROBE, "--relay", relay.url, *args], timeout=timeout,
                    check=False)
