"""`p2ptarot doctor` in the namespace homes, against the rig's relay and two coturn ports (two
STUN addresses: a symmetric NAT maps each to a new port): a cone home is told "direct", a
symmetric one "through TURN", a home whose router drops UDP "relay only (slow)", a relay that
refuses our kinds "nothing: because …" naming it; and the verdict matches the path a link from
that home then takes.  Beside a relay capped at 4 KB, a relay that is down and one that refuses
ephemeral events are each named with their reason and left out of the verdict; with only those
two, nothing will work, and the doctor says so, in French too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from online_servers import (PROBE, REFUSES_EPHEMERAL, RELAY_EVENT_LIMIT, run_probe,
                            start_relay, start_turn)

from p2ptarot.i18n import translations

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


@pytest.mark.parametrize(("nat", "block", "expected", "path", "deadline"), [
    ("cone", False, "direct", "direct", 10),
    ("symmetric", False, "through TURN", "turn", 10),
    # over blocked UDP the link waits out its WebRTC deadline before it takes the relays: any
    # deadline ends on the relay path, a short one sooner
    ("cone", True, "relay only (slow)", "relay", 4),
])
def test_the_verdict_in_each_home_matches_the_path_taken(internet, second_stun, nat, block,
                                                         expected, path, deadline) -> None:
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
                            "--deadline", f"{deadline}", "listen"], stdout=subprocess.PIPE,
                           text=True)
    address = json.loads(listener.stdout.readline())["address"]
    done = run_probe(bob, internet.relay, *ice, "--deadline", f"{deadline}", "dial", address)
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


def test_a_relay_down_and_one_refusing_ephemeral_events_beside_a_capped_one(internet, second_stun,
                                                                           tmp_path) -> None:
    assert RELAY_EVENT_LIMIT == 4096  # the rig's relay: nostr-relay's own 4 KB content cap
    refusing = start_relay(tmp_path / "ephemeral", host=internet.server.address, port=7448,
                           prefix=internet.server.exec_prefix(), popen=internet.server.popen,
                           extra_validators=[REFUSES_EPHEMERAL])
    down = f"ws://{internet.server.address}:7449"  # nothing listens there
    try:
        _, (alice,) = internet.rig.home("a", internet.rig_inet, nat="cone")
        report = _doctor(internet, alice, second_stun, "--relay", refusing.url, "--relay", down,
                         "--check-timeout", "6")
        assert report["verdict"] == "direct", report
        by_url = {r["url"]: r for r in report["relays"]}
        capped = by_url[internet.relay.url]
        assert capped["carries"] and 0 < capped["cap"] <= 4096, capped
        assert not by_url[down]["reachable"] and not by_url[down]["carries"]
        assert by_url[down]["problem"].startswith("down"), by_url[down]
        assert by_url[refusing.url]["reachable"] and not by_url[refusing.url]["carries"]
        assert "ephemeral events" in by_url[refusing.url]["problem"], by_url[refusing.url]
        assert any(a.startswith(f"relay {down} will not be used: down") for a in report["advice"])
        assert any(a.startswith(f"relay {refusing.url} will not be used: ")
                   and "ephemeral" in a for a in report["advice"]), report["advice"]
        # only the two unusable relays: nothing will work, each named with its reason, in French
        out = alice.run(CLI + ["doctor", "--lang", "fr", "--relay", refusing.url, "--relay", down,
                               "--stun", internet.turn.stun_url, "--check-timeout", "6"],
                        timeout=120, check=False)
        assert out.returncode == 1, out.stderr[-2000:]
        fr = translations("fr").gettext
        verdict = fr("verdict: nothing: because {why}").format(
            why=fr("no relay carries our events ({why})").split("(")[0])
        assert verdict in out.stdout, out.stdout
        assert refusing.url in out.stdout and down in out.stdout
        assert fr("name a relay that accepts ephemeral events with --relay URL (or in "
                  "<data dir>/relays.txt); LAN play needs no relay") in out.stdout, out.stdout
        assert fr("relay {url} will not be used: {problem}").split("{")[0] in out.stdout
    finally:
        refusing.stop()
