"""`p2ptarot doctor` in the namespace homes, against the rig's relay and two coturn ports (two
STUN addresses: a symmetric NAT maps each to a new port): a cone home is told "direct", a
symmetric one "through TURN", a home whose router drops UDP "relay only (slow)", a relay that
refuses our kinds "nothing: because …" naming it; and the verdict matches the path a link from
that home then takes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from online_servers import PROBE, run_probe, start_relay, start_turn

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _doctor(internet, host, second_stun: str, *extra: str) -> dict:
    out = host.run(CLI + ["doctor", "--json", "--relay", internet.relay.url, "--stun",
                          internet.turn.stun_url, "--stun", second_stun, "--turn",
                          internet.turn.turn_url, "--turn-user", internet.turn.user,
                          "--turn-pass-file", str(internet.turn.password_file), *extra],
                   timeout=120, check=False)
    return json.loads(out.stdout)


@pytest.fixture
def second_stun(internet, tmp_path: Path) -> str:
    turn = start_turn(tmp_path / "turn2", internet.server.address, internet.server.popen,
                      internet.server.exec_prefix(), port=3479)
    return turn.stun_url


@pytest.mark.parametrize(("nat", "block", "expected", "path"), [
    ("cone", False, "direct", "direct"),
    ("symmetric", False, "through TURN", "turn"),
    ("cone", True, "relay only (slow)", "relay"),
])
def test_the_verdict_in_each_home_matches_the_path_taken(internet, second_stun, nat, block,
                                                         expected, path) -> None:
    router_a, (alice,) = internet.rig.home("a", internet.rig_inet, nat=nat)
    router_b, (bob,) = internet.rig.home("b", internet.rig_inet, nat=nat)
    if block:
        router_a.block_udp()
        router_b.block_udp()
    report = _doctor(internet, alice, second_stun)
    assert report["verdict"] == expected, report
    relay = report["relays"][0]
    assert relay["carries"] and relay["round_trip_ms"] > 0 and relay["cap"] <= 4096
    assert report["stun"]["udp_blocked"] is block
    if not block:
        assert report["stun"]["nat"] == ("endpoint-independent" if nat == "cone" else
                                         "symmetric")
        assert report["turn"][0]["allocated"] is True
    ice = internet.ice_args(turn=True)
    listener = alice.popen([sys.executable, PROBE, "--relay", internet.relay.url, *ice,
                            "--deadline", "10", "listen"], stdout=subprocess.PIPE, text=True)
    address = json.loads(listener.stdout.readline())["address"]
    done = run_probe(bob, internet.relay, *ice, "--deadline", "10", "dial", address)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1])["path"] == path


def test_a_relay_refusing_our_kinds_leaves_nothing_and_says_why(internet, tmp_path) -> None:
    refusing = start_relay(tmp_path / "refusing", host=internet.server.address, port=7448,
                           prefix=internet.server.exec_prefix(), popen=internet.server.popen,
                           extra_validators=["nostr_relay.validators.is_certain_kind"],
                           extra_config="valid_kinds: [1]\n")
    try:
        _, (alice,) = internet.rig.home("a", internet.rig_inet, nat="cone")
        out = alice.run(CLI + ["doctor", "--relay", refusing.url, "--stun",
                               internet.turn.stun_url, "--check-timeout", "8"],
                        timeout=120, check=False)
        assert out.returncode == 1
        assert "verdict: nothing: because no relay carries our events" in out.stdout
        assert refusing.url in out.stdout and "not allowed" in out.stdout
    finally:
        refusing.stop()
