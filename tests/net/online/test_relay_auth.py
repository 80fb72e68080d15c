"""NIP-42 against a real relay that demands it (the `nostr-relay` package with its
`nostr_relay.auth` module switched on, on 127.0.0.1): with the user's key for the relay in
`--relay-key-file`, the challenge is answered and the relay carries our events (the doctor's
check, and a hosted table's advert that `list --online` then finds); without a key the relay
refuses our events ("restricted: …"), and a host says so in one sentence naming the relay and
stops (status 3). The key is in a file: `ps` never shows it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from online_servers import start_relay

from p2ptarot.net.nostr.keys import NostrKey

pytestmark = [pytest.mark.network]
CLI = [sys.executable, "-m", "p2ptarot.cli.main"]
QUIET = ["--no-default-stun"]  # no STUN server: nothing but the relay is contacted


@pytest.fixture
def guarded(tmp_path: Path):
    secret = bytes(range(1, 33))
    key = NostrKey(secret)
    relay = start_relay(tmp_path / "relay", auth_writers=[key.public_hex])
    keys = tmp_path / "relay-keys.txt"
    keys.touch(mode=0o600)
    keys.write_text(f"# NIP-42 keys\n{relay.url} {secret.hex()}\n")
    yield relay, keys, secret.hex()
    relay.stop()


def _doctor(relay, *extra: str) -> dict:
    out = subprocess.run(CLI + ["doctor", "--json", "--relay", relay.url, "--interface",
                                "127.0.0.1", "--check-timeout", "6", *QUIET, *extra],
                         capture_output=True, text=True, timeout=120)
    return json.loads(out.stdout)


def test_a_relay_demanding_auth_carries_our_events_with_the_user_s_key(guarded) -> None:
    relay, keys, _ = guarded
    without = _doctor(relay)["relays"][0]
    assert not without["carries"], without
    assert without["problem"].startswith(("restricted", "auth-required")), without
    with_key = _doctor(relay, "--relay-key-file", str(keys))["relays"][0]
    assert with_key["carries"] and with_key["round_trip_ms"] > 0, with_key


def test_a_host_with_the_key_is_listed_and_one_without_stops_with_a_sentence(
        guarded, tmp_path: Path) -> None:
    relay, keys, secret = guarded
    common = ["host", "--online", "--relay", relay.url, "--game", "paris-divins", "--seats", "3",
              "--interface", "127.0.0.1", "--bot", "random", "--quiet", "--lobby-timeout", "120",
              *QUIET]
    started = time.monotonic()
    refused = subprocess.run(CLI + common + ["--data-dir", str(tmp_path / "nokey")],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 3, refused.stderr[-2000:]
    assert time.monotonic() - started < 60
    assert (f"relay {relay.url} asks who we are (restricted: permission denied) and will not "
            "carry this table without a key") in refused.stderr, refused.stderr
    host = subprocess.Popen(CLI + common + ["--data-dir", str(tmp_path / "withkey"),
                                            "--relay-key-file", str(keys)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        found: list[dict] = []
        for _ in range(20):
            listed = subprocess.run(CLI + ["list", "--online", "--json", "--relay", relay.url,
                                           "--timeout", "3"], capture_output=True, text=True,
                                    timeout=60)
            found = json.loads(listed.stdout)["tables"]
            if found or host.poll() is not None:
                break
        assert host.poll() is None, host.communicate()[0][-3000:]
        assert [t["game"] for t in found] == ["paris-divins"], (found, listed.stderr)
        cmdline = Path(f"/proc/{host.pid}/cmdline").read_bytes().decode()
        assert secret not in cmdline and str(keys) in cmdline, cmdline
    finally:
        host.terminate()
        host.wait(10)
