"""Write protocol/vectors/online.json: conformance vectors of online play (PROTOCOL §12).

    .venv/bin/python protocol/make_online_vectors.py           # rewrite the file
    .venv/bin/python protocol/make_online_vectors.py --check   # exit 1 if it drifted

From fixed Ed25519 identity seeds: the derived NOSTR keys and invitation codes; an advert and a
signalling event with their ids (BIP-340 signatures take fresh auxiliary randomness, so a
second implementation checks the signature, it does not reproduce it; the file keeps the one
made when it was written and --check compares everything else); a NIP-44 payload made with a
fixed nonce, which must be reproduced byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from p2ptarot.crypto.signing import Identity  # noqa: E402
from p2ptarot.net.nostr import nip44  # noqa: E402
from p2ptarot.net.nostr.adverts import code_of, make_advert, show_code  # noqa: E402
from p2ptarot.net.nostr.event import Event, event_id, make_event  # noqa: E402
from p2ptarot.net.nostr.signal import SIGNAL_KIND  # noqa: E402
from p2ptarot.net.online.transport import nostr_key_for  # noqa: E402
from p2ptarot.net.txt import TableInfo  # noqa: E402

OUT = ROOT / "protocol" / "vectors" / "online.json"
NOW = 1_800_000_000


def build(previous: dict | None) -> dict:
    host, guest = Identity.from_seed(bytes(range(32))), Identity.from_seed(bytes(range(1, 33)))
    hk, gk = nostr_key_for(host), nostr_key_for(guest)
    info = TableInfo(game="sinople", variant="", seats_taken=1, seats_total=4,
                     fingerprint=host.fingerprint, host_name="Alice")
    advert = make_advert(hk, info, NOW)
    plaintext = json.dumps({"t": "offer", "link": "0123456789abcdef" * 2,
                            "sdp": "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\n"}, separators=(",", ":"))
    conv = nip44.conversation_key(gk, hk.public_hex)
    payload = nip44.encrypt(plaintext, conv, bytes(32))
    tags = [["p", hk.public_hex], ["expiration", str(NOW + 120)]]
    signal = make_event(gk, SIGNAL_KIND, tags, payload, NOW)
    out = {
        "identities": [
            {"ed25519_seed": bytes(range(32)).hex(), "fingerprint": host.fingerprint,
             "nostr_public": hk.public_hex, "code": show_code(code_of(hk.public_hex)),
             "address": f"nostr:{hk.public_hex}"},
            {"ed25519_seed": bytes(range(1, 33)).hex(), "fingerprint": guest.fingerprint,
             "nostr_public": gk.public_hex, "code": show_code(code_of(gk.public_hex)),
             "address": f"nostr:{gk.public_hex}"},
        ],
        "advert": advert.to_json(),
        "signal": {"event": signal.to_json(), "conversation_key": conv.hex(),
                   "nonce": bytes(32).hex(), "plaintext": plaintext},
    }
    if previous is not None:  # keep the signatures already published (they are not unique)
        for path in (("advert",), ("signal", "event")):
            old, new = previous, out
            for key in path:
                old, new = old[key], new[key]
            if old.get("id") == new["id"]:
                new["sig"] = old["sig"]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    previous = json.loads(OUT.read_text()) if OUT.exists() else None
    text = json.dumps(build(previous), indent=1, ensure_ascii=False) + "\n"
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print("protocol/vectors/online.json drifted; run protocol/make_online_vectors.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
