"""One link between two homes on each path, with real relay and coturn processes in
namespaces: cone NATs give a direct path (STUN hole punching), symmetric NATs need TURN, and
with UDP blocked at the routers (TURN configured over UDP only) the frames ride on the relay.  Every
path carries a fragmented 200 KB frame and measures an RTT; the relay's store never holds an
address or a session description."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from online_servers import PROBE, leaks, run_probe
from tests.support.peer_output import summary

pytestmark = [pytest.mark.network, pytest.mark.slow]


def _link(internet, nat: str, block_udp: bool, turn: bool,
          deadline: float = 10, head_start: float = 4) -> dict[str, object]:
    router_a, (alice,) = internet.rig.home("a", internet.rig_inet, nat=nat)
    router_b, (bob,) = internet.rig.home("b", internet.rig_inet, nat=nat)
    if block_udp:
        router_a.block_udp()
        router_b.block_udp()
    ice = internet.ice_args(turn=turn) + ["--head-start", f"{head_start:g}"]
    listener = alice.popen([sys.executable, PROBE, "--relay", internet.relay.url, *ice,
                            "--deadline", f"{deadline:g}", "listen"], stdout=subprocess.PIPE, text=True)
    address = json.loads(listener.stdout.readline())["address"]
    done = run_probe(bob, internet.relay, *ice, "--deadline", f"{deadline:g}", "dial", address)
    assert done.returncode == 0, done.stderr[-3000:]
    result = summary(done.stdout)
    assert result["echo_ok"] is True
    assert isinstance(result["rtt"], float) and result["rtt"] > 0
    assert leaks(internet.relay.stored(), []) == []
    return result


def test_cone_nats_link_directly(internet) -> None:
    # with a TURN server configured too: the direct-first attempt leaves it out, so the hole
    # punch is not raced by a relayed pair (aioice nominates the first pair that answers)
    result = _link(internet, "cone", block_udp=False, turn=True)
    assert result["path"] == "direct"
    assert result["udp_silent"] is False  # the STUN probe at start was answered


def test_symmetric_nats_link_through_turn(internet) -> None:
    assert _link(internet, "symmetric", block_udp=False, turn=True)["path"] == "turn"


def test_blocked_udp_falls_back_to_the_relay(internet) -> None:
    # no UDP gets through: WebRTC cannot succeed, so its deadline is short (10 s was waited out)
    assert _link(internet, "cone", block_udp=True, turn=True, deadline=4)["path"] == "relay"


def test_silent_stun_opens_the_relay_path_without_the_head_start(internet) -> None:
    # the STUN probe at start hears nothing over the blocked UDP: the dial takes the relay path
    # at once; with a 600 s head start and deadline, nothing else could end this dial before
    # run_probe's timeout
    result = _link(internet, "cone", block_udp=True, turn=False, deadline=600, head_start=600)
    assert result["path"] == "relay"
    assert result["udp_silent"] is True
