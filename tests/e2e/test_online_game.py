"""A 4-seat game across three homes on the Internet (issue 22), one per path, with the real
components started by the test in namespaces: a `nostr-relay` process and coturn on the
"internet" segment, home routers doing NAT (nftables masquerade; fully-random for symmetric
NAT) and dropping unsolicited inbound traffic.  The host runs `p2ptarot host --online`, the
three others `p2ptarot join CODE` exactly as the README says; every transcript verifies, the
peers agree, the links took the expected path, and the relay's own sqlite store shows no
address, no session description and no table message in clear. The game is Les paris divins
(about 100 steps for 4 seats: a deal, blind wagers, the audit): each path carries a whole game,
not the nine rounds of sinople (700 steps) that cost 25-80 s a path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from netns_rig import Rig
from online_servers import leaks, start_relay, start_turn

from p2ptarot.net.nostr.adverts import code_of, show_code
from p2ptarot.net.online.transport import nostr_key_for
from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.transcript import verify_transcript
from tests.support.peer_output import summary

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
GAME = "paris-divins"


def _game(netns: Rig, tmp_path: Path, nat: str, block_udp: bool, turn: bool
          ) -> tuple[dict[str, dict], list[dict[str, object]], dict[str, str]]:
    inet = netns.internet()
    server = netns.host("srv", inet)
    relay = start_relay(tmp_path / "relay", host=server.address, port=7447,
                        prefix=server.exec_prefix(), popen=server.popen)
    coturn = start_turn(tmp_path / "turn", server.address, server.popen, server.exec_prefix())
    homes = {"a": netns.home("a", inet, nat=nat, hosts=2), "b": netns.home("b", inet, nat=nat),
             "c": netns.home("c", inet, nat=nat)}
    if block_udp:
        for router, _ in homes.values():
            router.block_udp()
    hosts = [h for _, members in homes.values() for h in members]  # a1 a2 b1 c1
    online = ["--relay", relay.url, "--stun", coturn.stun_url]
    if turn:
        online += ["--turn", coturn.turn_url, "--turn-user", coturn.user,
                   "--turn-pass-file", str(coturn.password_file)]
    common = ["--bot", "random", "--quiet", "--timeout", "120", "--lobby-timeout", "300"] + online
    dirs = {h.label: tmp_path / h.label for h in hosts}
    code = show_code(code_of(nostr_key_for(DataDir(dirs["a1"]).identity()).public_hex))
    logs = {h.label: tmp_path / f"{h.label}.log" for h in hosts}
    procs = {"a1": hosts[0].popen(
        CLI + ["host", "--online", "--game", GAME, "--seats", "4",
               "--data-dir", str(dirs["a1"])] + common,
        stdout=open(logs["a1"], "w"), stderr=subprocess.STDOUT)}
    for h in hosts[1:]:
        procs[h.label] = h.popen(CLI + ["join", code, "--data-dir", str(dirs[h.label])] + common,
                                 stdout=open(logs[h.label], "w"), stderr=subprocess.STDOUT)
    results = {}
    for h in hosts:
        assert procs[h.label].wait(timeout=900) == 0, logs[h.label].read_text()[-3000:]
        results[h.label] = summary(logs[h.label].read_text())
    assert len({json.dumps(r["scores"]) for r in results.values()}) == 1, results
    signatures = []
    for label, result in results.items():
        transcript = read_transcript(Path(result["transcript"]))
        verdict = verify_transcript(transcript)
        assert verdict.valid, (label, verdict.reason)
        assert verdict.outcome["scores"] == result["scores"]
        signatures += [line for line in Path(result["transcript"]).read_text().split('"')
                       if len(line) > 60]
    rows = relay.stored()
    relay.stop()
    return results, rows, {"signatures": "\n".join(signatures)}


def _assert_relay_saw_nothing(rows: list[dict[str, object]], secrets: dict[str, str]) -> None:
    """Only adverts and signalling were stored, and none shows an address, a session
    description or any signature of the table's messages (a move in clear would carry one)."""
    assert {int(r["kind"]) for r in rows} <= {21478, 30478}  # type: ignore[arg-type]
    assert rows and leaks(rows, secrets["signatures"].splitlines()) == []


def _paths(results: dict[str, dict]) -> set[str]:
    return {p for r in results.values() for p in r.get("paths", {}).values()}


def test_cone_nats_play_over_direct_links(netns: Rig, tmp_path: Path) -> None:
    results, rows, secrets = _game(netns, tmp_path, "cone", block_udp=False, turn=True)
    assert _paths(results) == {"direct"}
    _assert_relay_saw_nothing(rows, secrets)


def test_symmetric_nats_play_through_turn(netns: Rig, tmp_path: Path) -> None:
    results, rows, secrets = _game(netns, tmp_path, "symmetric", block_udp=False, turn=True)
    assert _paths(results) == {"direct", "turn"}  # the two players of home a: direct
    _assert_relay_saw_nothing(rows, secrets)


def test_blocked_udp_plays_over_the_relay(netns: Rig, tmp_path: Path) -> None:
    results, rows, secrets = _game(netns, tmp_path, "cone", block_udp=True, turn=True)
    assert _paths(results) == {"direct", "relay"}  # the two players of home a: direct
    _assert_relay_saw_nothing(rows, secrets)
