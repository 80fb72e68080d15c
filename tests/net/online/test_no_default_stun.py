"""`--no-default-stun` sends no STUN packet: two cone homes, each player's default ICE file
(`<data dir>/ice.txt`, which replaces the packaged list) naming the rig's STUN server; the host
says `--no-default-stun`, the joiner says nothing.  An nftables counter in each home host's
namespace counts the STUN packets (UDP carrying STUN's magic cookie) it sends to that server:
none from the host, some from the joiner (so the counter and the file work), and the game
between them finishes with both transcripts valid.  The rig's guard fails the test if either
peer sends anything outside the rig."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from netns_rig import Host

from p2ptarot.net.nostr.adverts import code_of, show_code
from p2ptarot.net.online.transport import nostr_key_for
from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.transcript import verify_transcript
from tests.support.peer_output import summary

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


def _count_stun(host: Host, server: str, port: int) -> None:
    """Count UDP packets to server:port whose payload carries STUN's magic cookie."""
    host.nft("table inet p2t_stun {\n  counter stun { }\n"
             "  chain out { type filter hook output priority 0; policy accept;\n"
             f"    ip daddr {server} udp dport {port} @th,96,32 0x2112a442 counter name stun\n"
             "  }\n}\n")


def _stun_sent(host: Host) -> int:
    listed = json.loads(host.run(["nft", "-j", "list", "counter", "inet", "p2t_stun",
                                  "stun"]).stdout)
    return next(i["counter"]["packets"] for i in listed["nftables"] if "counter" in i)


def test_no_default_stun_sends_no_stun_packet(internet, tmp_path: Path) -> None:
    _, (alice,) = internet.home("a", nat="cone")
    _, (bob,) = internet.home("b", nat="cone")
    dirs = {name: tmp_path / name for name in ("alice", "bob")}
    for data in dirs.values():  # the players' own default list: the rig's STUN server
        data.mkdir()
        (data / "ice.txt").write_text(f"# STUN servers\n{internet.turn.stun_url}\n")
    for host in (alice, bob):
        _count_stun(host, internet.server.address, internet.turn.port)
    code = show_code(code_of(nostr_key_for(DataDir(dirs["alice"]).identity()).public_hex))
    common = ["--online", "--relay", internet.relay.url, "--bot", "random", "--quiet",
              "--timeout", "120", "--rtc-deadline", "6"]
    logs = {name: open(tmp_path / f"{name}.log", "w") for name in dirs}
    host = alice.popen(CLI + ["host", "--game", "paris-divins", "--seats", "2", "--name", "Alice",
                              "--data-dir", str(dirs["alice"]), "--lobby-timeout", "120",
                              "--no-default-stun", *common],
                       stdout=logs["alice"], stderr=subprocess.STDOUT)
    joined = bob.run(CLI + ["join", code, "--name", "Bob", "--data-dir", str(dirs["bob"]),
                            *common], timeout=300, check=False)
    assert joined.returncode == 0, joined.stdout[-3000:] + joined.stderr[-3000:]
    assert host.wait(timeout=120) == 0, (tmp_path / "alice.log").read_text()[-3000:]
    assert _stun_sent(alice) == 0
    assert _stun_sent(bob) > 0
    for out in ((tmp_path / "alice.log").read_text(), joined.stdout):
        verdict = verify_transcript(read_transcript(Path(summary(out)["transcript"])))
        assert verdict.valid, verdict.reason
