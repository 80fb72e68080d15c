"""Online links that change under a running game (issue 22), on the namespace rig with real
`nostr-relay` and coturn processes, two homes behind cone NATs, `p2ptarot host --online` and
`p2ptarot join CODE` as the README says:

- a WebRTC link cut mid-game (the joiner's cable pulled for longer than the link's silence
  limit) heals: both ends re-signal over the relays, a new data channel opens, catch-up fills
  the gap, the game ends and both transcripts verify;
- a link that fell back to the relays (UDP blocked at both routers) tries WebRTC again and moves
  onto a direct data channel once UDP is allowed, without the table noticing; the game ends on
  the direct path and both transcripts verify."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from netns_rig import Host, Rig
from online_servers import start_relay, start_turn

from p2ptarot.net.nostr.adverts import code_of, show_code
from p2ptarot.net.online.transport import nostr_key_for
from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.transcript import verify_transcript

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _two_homes(netns: Rig, tmp_path: Path, block_udp: bool, extra: list[str]
               ) -> tuple[dict[str, tuple[Host, subprocess.Popen, Path]], list]:
    """Alice hosts a 2-seat table in home a, Bob joins it by code from home b (bots, verbose:
    every new link is printed with its path)."""
    inet = netns.internet()
    server = netns.host("srv", inet)
    relay = start_relay(tmp_path / "relay", host=server.address, port=7447,
                        prefix=server.exec_prefix(), popen=server.popen)
    turn = start_turn(tmp_path / "turn", server.address, server.popen, server.exec_prefix())
    router_a, (alice,) = netns.home("a", inet, nat="cone")
    router_b, (bob,) = netns.home("b", inet, nat="cone")
    routers = [router_a, router_b]
    if block_udp:
        for router in routers:
            router.block_udp()
    common = ["--bot", "random", "--timeout", "120", "--lobby-timeout", "300",
              "--relay", relay.url, "--stun", turn.stun_url] + extra
    code = show_code(code_of(nostr_key_for(DataDir(tmp_path / "alice").identity()).public_hex))
    peers = {}
    for name, host, argv in (
            ("alice", alice, ["host", "--online", "--game", "sinople", "--seats", "2"]),
            ("bob", bob, ["join", code])):
        log = tmp_path / f"{name}.log"
        proc = host.popen(CLI + argv + ["--name", name, "--data-dir", str(tmp_path / name)]
                          + common, stdout=open(log, "w"), stderr=subprocess.STDOUT)
        peers[name] = (host, proc, log)
    return peers, routers


def _wait_for(what: str, check, limit: float = 300.0) -> None:
    end = time.monotonic() + limit
    while not check():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.2)


def _finish(peers: dict[str, tuple[Host, subprocess.Popen, Path]]) -> dict[str, dict]:
    results = {}
    for name, (_, proc, log) in peers.items():
        assert proc.wait(timeout=600) == 0, log.read_text()[-3000:]
        results[name] = json.loads(log.read_text().strip().splitlines()[-1])
        verdict = verify_transcript(read_transcript(Path(results[name]["transcript"])))
        assert verdict.valid, (name, verdict.reason)
    assert results["alice"]["scores"] == results["bob"]["scores"]
    return results


def _links(log: Path) -> list[str]:
    """The paths of the links this peer reported, in order ('link to FP: path, round trip')."""
    return [line.split(": ", 1)[1].split(",")[0] for line in log.read_text().splitlines()
            if line.startswith("link to ")]


def _transcript_lines(data: Path) -> int:
    return sum(len(p.read_text().splitlines()) for p in data.glob("tables/*/transcript.jsonl"))


def test_a_cut_webrtc_link_heals_by_re_signalling(netns: Rig, tmp_path: Path) -> None:
    # a 3 s heartbeat: a data channel pings every 1 s and is gone after 6 s of silence (the
    # default's 30 s made this test wait 40 s)
    # --rtc-retry 3: a link that rode the relays during the cut tries WebRTC again soon after
    peers, _ = _two_homes(netns, tmp_path, block_udp=False,
                          extra=["--heartbeat", "3", "--rtc-retry", "3"])
    bob, _, bob_log = peers["bob"]
    _wait_for("the deal under way", lambda: _transcript_lines(tmp_path / "bob") >= 8)
    assert _links(bob_log) == ["direct"]
    bob.link.cut()  # longer than 6 silent pings (6 s): both ends close the data channel
    time.sleep(10)
    bob.link.restore()
    results = _finish(peers)
    # while UDP is cut, a re-dial may carry the table over the relays after its WebRTC head
    # start (PROTOCOL §12); once restored, the link is direct again
    links = _links(bob_log)
    assert len(links) >= 2 and links[-1] == "direct", bob_log.read_text()[-2000:]
    assert set(links) <= {"direct", "relay"}, links
    assert set(results["bob"]["paths"].values()) == {"direct"}


def test_a_relay_link_moves_to_webrtc_when_udp_comes_back(netns: Rig, tmp_path: Path) -> None:
    peers, routers = _two_homes(netns, tmp_path, block_udp=True, extra=["--rtc-retry", "5"])
    _, _, bob_log = peers["bob"]
    _wait_for("the link on the relays", lambda: _links(bob_log)[:1] == ["relay"])
    for router in routers:
        router.allow_udp()
    results = _finish(peers)
    assert _links(bob_log)[:2] == ["relay", "direct"], bob_log.read_text()[-2000:]
    for name in ("alice", "bob"):
        assert set(results[name]["paths"].values()) == {"direct"}, results[name]
