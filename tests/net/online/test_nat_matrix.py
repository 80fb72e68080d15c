"""The NAT matrix of issue 31 with relays as they are in the wild, one short game per path:
cone homes link directly, symmetric ones through TURN, and with UDP blocked at the routers the
table rides the relays.  Every peer is given three relays: the `nostr-relay` package with its own
4 KB content cap and a rate limit, rust-nostr's `LocalRelay` (a second implementation, rate
limited per connection, no NIP-11) which is killed once the link is up, mid-game, and a
`nostr-relay` refusing ephemeral events, which the doctor names and which each peer, when the
table rides the relays, leaves saying so in one sentence naming it.  Before the game, `p2ptarot doctor` runs in each home with the same relays (and a
second STUN port, to tell the NAT's behaviour): its verdict is the path the game then takes, the
capped relay carries its probe within 4 KB and the refusing one is named with its reason.  The
game finishes, both transcripts verify, the link took the expected path.  Where
no relay can carry a table at all, the peer stops within 60 s with a sentence naming the relay
and the reason (test_relay_auth.py and the last test here)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from online_servers import REFUSES_EPHEMERAL, start_relay, start_sdk_relay, start_turn

from p2ptarot.net.nostr.adverts import code_of, show_code
from p2ptarot.net.online.transport import nostr_key_for
from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.transcript import verify_transcript
from tests.support.peer_output import summary

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]


#: the doctor's verdict for each path a link takes
VERDICT = {"direct": "direct", "turn": "through TURN", "relay": "relay only (slow)"}


@pytest.mark.parametrize(("nat", "block", "path"), [
    ("cone", False, "direct"),
    ("symmetric", False, "turn"),
    ("cone", True, "relay"),
])
def test_a_game_on_each_path_with_relays_that_limit_refuse_and_die(internet, tmp_path: Path,
                                                                   nat, block, path) -> None:
    server = internet.server
    killed = start_sdk_relay(tmp_path / "sdk", host=server.address, port=7450,
                             prefix=server.exec_prefix(), popen=server.popen,
                             notes_per_minute=600)
    refusing = start_relay(tmp_path / "noephemeral", host=server.address, port=7448,
                           prefix=server.exec_prefix(), popen=server.popen,
                           extra_validators=[REFUSES_EPHEMERAL])
    router_a, (alice,) = internet.home("a", nat=nat)
    router_b, (bob,) = internet.home("b", nat=nat)
    if block:
        router_a.block_udp()
        router_b.block_udp()
    relays = ["--relay", internet.relay.url, "--relay", killed.url, "--relay", refusing.url]
    common = ["--bot", "random", "--timeout", "120", "--rtc-deadline", "5", *relays,
              *internet.ice_args(turn=True)]
    # the doctor in each home first, both at once (a second STUN port tells the NAT's kind)
    second_stun = start_turn(tmp_path / "turn2", server.address, server.popen,
                             server.exec_prefix(), port=3479).stun_url
    doctors = [home.popen(CLI + ["doctor", "--json", "--check-timeout", "6", *relays,
                                 *internet.ice_args(turn=True), "--stun", second_stun],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for home in (alice, bob)]
    for doctor in doctors:
        said, err = doctor.communicate(timeout=120)
        assert said, err[-3000:]
        report = json.loads(said)
        assert report["verdict"] == VERDICT[path], report
        by_url = {r["url"]: r for r in report["relays"]}
        assert by_url[internet.relay.url]["carries"], report
        assert 0 < by_url[internet.relay.url]["cap"] <= 4096, report
        assert not by_url[refusing.url]["carries"], report
        assert "ephemeral events" in by_url[refusing.url]["problem"], report
    code = show_code(code_of(nostr_key_for(DataDir(tmp_path / "alice").identity()).public_hex))
    host = alice.popen(CLI + ["host", "--online", "--game", "paris-divins", "--seats", "2",
                              "--name", "Alice", "--data-dir", str(tmp_path / "alice"),
                              "--lobby-timeout", "180", *common],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out: dict[str, list[str]] = {"out": [], "err": []}
    linked = threading.Event()

    def read(stream, into: list[str]) -> None:
        for line in stream:
            into.append(line)
            # the link is up: its path is shown (WebRTC), or the table started (the relay path
            # shows no "link to" line: it is the path a table has before any other)
            if line.startswith(("link to ", "seat 2: Bob")):
                linked.set()
    readers = [threading.Thread(target=read, args=(host.stdout, out["out"]), daemon=True),
               threading.Thread(target=read, args=(host.stderr, out["err"]), daemon=True)]
    for reader in readers:
        reader.start()
    joiner = bob.popen(CLI + ["join", code, "--name", "Bob", "--data-dir", str(tmp_path / "bob"),
                              *common], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert linked.wait(180), "".join(out["out"] + out["err"])[-3000:]
    killed.stop()  # mid-game: the link is up, the deal is under way
    stopped_at = time.monotonic()
    bob_out, bob_err = joiner.communicate(timeout=300)
    assert joiner.returncode == 0, (bob_out + bob_err)[-3000:]
    assert host.wait(timeout=120) == 0, "".join(out["out"] + out["err"])[-3000:]
    for reader in readers:
        reader.join(10)
    assert time.monotonic() - stopped_at > 0  # (the game went on after the kill)
    alice_out, alice_err = "".join(out["out"]), "".join(out["err"])
    # where the table rides the relays, every frame goes to every relay: each peer is refused by
    # the refusing relay and names it, with its reason. Over a short direct or TURN game a peer may
    # finish before that relay answers its few signals (seen for both peers); there the doctor
    # above has named it, with its reason, before the game
    for said in (alice_err, bob_err) if path == "relay" else ():
        assert (f"relay {refusing.url} will not carry this table (blocked: ephemeral events"
                in said), said[-3000:]
    mine, theirs = summary(alice_out), summary(bob_out)
    assert mine["scores"] == theirs["scores"]
    assert list(mine["paths"].values()) == [path], mine
    assert list(theirs["paths"].values()) == [path], theirs
    for result in (mine, theirs):
        verdict = verify_transcript(read_transcript(Path(result["transcript"])))
        assert verdict.valid, verdict.reason
    refusing.stop()


def test_no_relay_will_carry_the_table_the_peer_says_why_within_a_minute(internet,
                                                                         tmp_path: Path) -> None:
    """Only relays that refuse ephemeral events (both implementations; adverts, which are not
    ephemeral, they keep): a joiner finds the table, its first signal is refused by both, and it
    names each relay with its reason and stops (status 3) well within a minute."""
    server = internet.server
    sdk = start_sdk_relay(tmp_path / "sdk", host=server.address, port=7450,
                          prefix=server.exec_prefix(), popen=server.popen, no_ephemeral=True)
    other = start_relay(tmp_path / "relay", host=server.address, port=7448,
                        prefix=server.exec_prefix(), popen=server.popen,
                        extra_validators=[REFUSES_EPHEMERAL])
    _, (alice,) = internet.home("a", nat="cone")
    _, (bob,) = internet.home("b", nat="cone")
    common = ["--relay", sdk.url, "--relay", other.url, "--bot", "random", "--quiet",
              "--stun", internet.turn.stun_url]
    code = show_code(code_of(nostr_key_for(DataDir(tmp_path / "alice").identity()).public_hex))
    alice.popen(CLI + ["host", "--online", "--game", "paris-divins", "--seats", "2",
                       "--data-dir", str(tmp_path / "alice"), "--lobby-timeout", "180", *common],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    done = bob.run(CLI + ["join", code, "--data-dir", str(tmp_path / "bob"), *common],
                   timeout=180, check=False)
    assert done.returncode == 3, done.stderr[-3000:]
    assert time.monotonic() - started < 60
    assert "no relay will carry this table" in done.stderr, done.stderr
    for relay in (sdk, other):
        assert f"{relay.url} dropped: blocked: ephemeral events" in done.stderr, done.stderr
