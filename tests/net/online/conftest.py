"""The online rig: an "internet" segment with a NOSTR relay and coturn on one server, and
homes behind NAT routers (tests/support/netns_rig.py), all in namespaces of the test's own."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from netns_rig import Host, Rig, Router
from online_servers import Relay, Turn, start_relay, start_turn



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
        """The rig's STUN (and TURN) for a peer's command line; the TURN password is in a
        file (a password in argv is readable by every local user)."""
        args = ["--stun", self.turn.stun_url]
        if turn:
            args += ["--turn", self.turn.turn_url, "--turn-user", self.turn.user,
                     "--turn-pass-file", str(self.turn.password_file)]
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
