"""`host --online`, `list --online` and `join CODE` as the README says (a local bot process joins by address too), on 127.0.0.1 with a
real `nostr-relay` process and `--relay-only` (WebRTC runs only inside test namespaces: see
tests/e2e/test_online_game.py for the three paths across NAT homes)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from online_servers import start_relay

from p2ptarot.net.nostr.adverts import code_of, show_code
from p2ptarot.net.online.transport import nostr_key_for
from p2ptarot.peer.store import DataDir, read_transcript
from p2ptarot.transcript import verify_transcript
from tests.support.peer_output import summary

pytestmark = [pytest.mark.network, pytest.mark.slow]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
#: a whole short game on the relays (the listing and the code are the point here)
GAME = "paris-divins"


def test_host_online_list_and_join_by_code(tmp_path: Path) -> None:
    relay = start_relay(tmp_path / "relay")
    try:
        online = ["--relay", relay.url, "--relay-only"]
        common = ["--bot", "random", "--quiet", "--timeout", "120", "--lobby-timeout", "300"]
        code = show_code(code_of(nostr_key_for(DataDir(tmp_path / "a").identity()).public_hex))
        host = subprocess.Popen(CLI + ["host", "--online", "--game", GAME, "--seats", "3",
                                       "--bots", "1", "--data-dir", str(tmp_path / "a"),
                                       "--name", "Alice"]
                                + common + online, stdout=subprocess.PIPE, text=True)
        listed: list[dict] = []
        deadline = time.monotonic() + 60
        while (not listed or listed[0]["seats"] != "2/3") and time.monotonic() < deadline:
            out = subprocess.run(CLI + ["list", "--online", "--relay", relay.url, "--timeout",
                                        "2", "--json"], capture_output=True, text=True, timeout=60)
            listed = json.loads(out.stdout)["tables"]
        assert [(t["code"], t["game"], t["seats"], t["name"]) for t in listed] == \
            [(code, GAME, "2/3", "Alice")]  # the host and its bot process
        missing = subprocess.run(CLI + ["join", "00000-00000", "--find-timeout", "2",
                                        "--data-dir", str(tmp_path / "x")] + common + online,
                                 capture_output=True, text=True, timeout=60)
        assert missing.returncode == 1 and "no open table with code 00000-00000" in missing.stderr
        joiner = subprocess.run(CLI + ["join", code.lower(), "--data-dir", str(tmp_path / "b")]
                                + common + online, capture_output=True, text=True, timeout=600)
        assert joiner.returncode == 0, joiner.stderr[-3000:]
        assert host.wait(timeout=120) == 0
        results = [summary(joiner.stdout),
                   summary(host.stdout.read())]
        assert results[0]["scores"] == results[1]["scores"]
        for result in results:
            assert set(result["paths"].values()) == {"relay"} and len(result["paths"]) == 2
            verdict = verify_transcript(read_transcript(Path(result["transcript"])))
            assert verdict.valid, verdict.reason
    finally:
        relay.stop()
