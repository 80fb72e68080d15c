"""A real LAN (issue 21 item 5): four hosts, each in its own network namespace on its own card
of one switch. The host advertises over zeroconf, the others find it by real multicast across
the switch (`list`, then `join FINGERPRINT`), a whole game is played between the four processes
over the cards' addresses, and every transcript verifies."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from netns_rig import Rig, bound_sockets

from p2ptarot.net.discovery import MDNS_GROUP_V4
from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.transcript import verify_transcript

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
#: a short whole game (about 100 steps for 4 seats): the discovery and the cards' addresses are
#: under test, not nine rounds of sinople (the demos play a whole sinople game over the network)
GAME = "paris-divins"


def test_four_hosts_find_the_table_by_multicast_and_play_a_verified_game(
        netns: Rig, tmp_path: Path) -> None:
    _, hosts = netns.lan(4)
    common = ["--bot", "random", "--quiet", "--timeout", "120", "--lobby-timeout", "300"]
    dirs = {h.label: tmp_path / h.label for h in hosts}
    host_fp = DataDir(dirs["h1"]).identity().fingerprint
    logs = {h.label: tmp_path / f"{h.label}.log" for h in hosts}
    procs = {"h1": hosts[0].popen(
        CLI + ["host", "--game", GAME, "--seats", "4", "--interface", hosts[0].card,
               "--data-dir", str(dirs["h1"])] + common,
        stdout=open(logs["h1"], "w"), stderr=subprocess.STDOUT)}
    # another host sees the table by multicast on its own card
    seen: list[dict] = []
    deadline = time.monotonic() + 60
    while not seen and time.monotonic() < deadline:
        out = hosts[1].run(CLI + ["list", "--interface", hosts[1].card, "--timeout", "3",
                                  "--json"]).stdout
        seen = json.loads(out)["tables"]
        assert procs["h1"].poll() is None, logs["h1"].read_text()
    assert [t["host"] for t in seen] == [host_fp], seen
    assert seen[0]["url"].startswith(f"ws://{hosts[0].address}:")
    for h in hosts[1:]:  # --interface: a card's name, or (h2) its address
        procs[h.label] = h.popen(
            CLI + ["join", host_fp, "--game", GAME,
                   "--interface", h.address if h.label == "h2" else h.card,
                   "--data-dir", str(dirs[h.label])] + common,
            stdout=open(logs[h.label], "w"), stderr=subprocess.STDOUT)
    # while they play: each peer's sockets are on its own card (or the mDNS group) only, looked at
    # until each was seen listening for the table's links (not once after a fixed wait)
    listening: set[str] = set()
    deadline = time.monotonic() + 120
    while listening != set(procs) and time.monotonic() < deadline:
        for h in hosts:
            if procs[h.label].poll() is not None:
                continue
            try:
                found = bound_sockets(procs[h.label].pid)
            except FileNotFoundError:  # it exited meanwhile
                continue
            addresses = {s.address for s in found}
            assert addresses <= {h.address, MDNS_GROUP_V4}, (h.label, addresses)
            if any(s.proto == "tcp" for s in found):
                listening.add(h.label)
        time.sleep(0.1)
    assert listening == set(procs), (listening, {k: p.poll() for k, p in procs.items()})
    results = {}
    for h in hosts:
        assert procs[h.label].wait(timeout=900) == 0, logs[h.label].read_text()[-3000:]
        results[h.label] = json.loads(logs[h.label].read_text().strip().splitlines()[-1])
    scores = {json.dumps(r["scores"]) for r in results.values()}
    assert len(scores) == 1, results
    assert len({r["table"] for r in results.values()}) == 1
    for label, result in results.items():
        verdict = verify_transcript(read_transcript(Path(result["transcript"])))
        assert verdict.valid, (label, verdict.reason)
        assert verdict.outcome["scores"] == result["scores"]
    # each of the four processes holds a seat of its own
    charter = read_transcript(Path(results["h1"]["transcript"])).charter.charter
    seated = {charter.seat_of(DataDir(dirs[h.label]).identity().public_bytes) for h in hosts}
    assert seated == {0, 1, 2, 3}
