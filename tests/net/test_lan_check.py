"""The doctor's LAN check (`net/lan_check.py`, `p2ptarot doctor --lan-only`): two doctors run at
once on one LAN hear each other's probe and answer "LAN"; a host alone on its switch, and a host
whose card drops mDNS multicast, hear nobody and say so (in French too).  On 127.0.0.1 and in
namespaces this test creates; no server is contacted."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from netns_rig import Rig

from p2ptarot.i18n import translations

pytestmark = [pytest.mark.network]
CLI = [sys.executable, "-m", "p2ptarot.cli.main", "doctor", "--lan-only"]


def _reports(procs: list[subprocess.Popen]) -> list[dict]:
    outs = [p.communicate(timeout=120)[0] for p in procs]
    return [json.loads(o) for o in outs]


def test_two_doctors_on_loopback_hear_each_other() -> None:
    procs = [subprocess.Popen(CLI + ["--interface", "127.0.0.1", "--json", "--lan-wait", "6"],
                              stdout=subprocess.PIPE, text=True) for _ in range(2)]
    a, b = _reports(procs)
    assert a["lan"]["cards"] == [["lo", "127.0.0.1"]], a
    assert a["lan"]["own"] in b["lan"]["heard"] and b["lan"]["own"] in a["lan"]["heard"], (a, b)
    assert a["verdict"] == b["verdict"] == "LAN"


def test_a_lan_hears_itself_a_lone_host_and_a_muted_one_do_not(netns: Rig) -> None:
    _, (h1, h2, h3) = netns.lan(3)
    alone = netns.host("alone", netns.segment("solo"))
    h3.nft("table inet p2t_nomdns {\n"
           f'  chain in {{ type filter hook input priority -40; iifname "{h3.card}" '
           "ip daddr 224.0.0.251 drop; }\n"
           f'  chain out {{ type filter hook output priority -40; oifname "{h3.card}" '
           "ip daddr 224.0.0.251 drop; }\n}\n")
    args = ["--json", "--lan-wait", "6"]
    procs = [h.popen(CLI + ["--interface", h.card, *args], stdout=subprocess.PIPE, text=True)
             for h in (h1, h2, h3, alone)]
    fr = alone.popen(CLI + ["--interface", alone.card, "--lang", "fr", "--lan-wait", "6"],
                     stdout=subprocess.PIPE, text=True)
    r1, r2, r3, r_alone = _reports(procs)
    said, _ = fr.communicate(timeout=120)
    assert r1["lan"]["cards"] == [[h1.card, h1.address]], r1
    assert r2["lan"]["own"] in r1["lan"]["heard"] and r1["lan"]["own"] in r2["lan"]["heard"]
    assert r3["lan"]["own"] not in r1["lan"]["heard"] + r2["lan"]["heard"], (r1, r2, r3)
    assert r1["verdict"] == r2["verdict"] == "LAN", (r1, r2)
    for lonely in (r3, r_alone):
        assert lonely["lan"]["heard"] == [] and lonely["verdict"] == "nothing", lonely
        assert lonely["because"].startswith("no other computer answered mDNS on "), lonely
    assert fr.returncode == 1
    t = translations("fr").gettext
    assert t("LAN: multicast not heard (no other computer answered within {seconds} s)").format(
        seconds="6") in said, said
    assert t("verdict: nothing: because {why}").split("{")[0] in said, said
    assert t("zeroconf uses: {where}").format(where=f"{alone.card} {alone.address}") in said
