"""protocol/vectors/online.json (PROTOCOL §12) is current and this implementation reads it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from p2ptarot.crypto.signing import Identity
from p2ptarot.net.nostr import nip44
from p2ptarot.net.nostr.adverts import code_of, parse_advert, show_code
from p2ptarot.net.nostr.event import parse_event
from p2ptarot.net.nostr.signal import open_signal
from p2ptarot.net.online.transport import nostr_key_for

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "protocol" / "vectors" / "online.json").read_text())
NOW = 1_800_000_000


def test_vectors_are_current() -> None:
    done = subprocess.run([sys.executable, "protocol/make_online_vectors.py", "--check"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_keys_codes_events_and_payload() -> None:
    keys = []
    for ident in VECTORS["identities"]:
        identity = Identity.from_seed(bytes.fromhex(ident["ed25519_seed"]))
        key = nostr_key_for(identity)
        assert (key.public_hex, identity.fingerprint) == (ident["nostr_public"],
                                                          ident["fingerprint"])
        assert show_code(code_of(key.public_hex)) == ident["code"]
        keys.append(key)
    advert = parse_event(VECTORS["advert"])
    code, table = parse_advert(advert, NOW)
    assert show_code(code) == VECTORS["identities"][0]["code"] and table.host_name == "Alice"
    sig = VECTORS["signal"]
    event = parse_event(sig["event"])
    assert nip44.conversation_key(keys[0], keys[1].public_hex).hex() == sig["conversation_key"]
    assert nip44.encrypt(sig["plaintext"], bytes.fromhex(sig["conversation_key"]),
                         bytes.fromhex(sig["nonce"])) == event.content
    opened = open_signal(keys[0], event, NOW)
    assert (opened.kind, opened.sender) == ("offer", keys[1].public_hex)
