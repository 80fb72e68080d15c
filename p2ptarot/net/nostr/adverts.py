"""Open-table adverts on NOSTR relays and invitation codes (pure).

An advert is an addressable event (kind ``ADVERT_KIND``, NIP-01 30000-39999) whose ``d`` tag
is the table's invitation code, tagged ``["t", "p2ptarot"]`` and with a NIP-40 ``expiration``
a few minutes ahead (the host re-publishes it while the table is open; a host that vanished
stops being listed).  Its content is the same fields as the zeroconf TXT record (``net/txt.py``)
as a JSON object, so the LAN and the online advert say the same things.

The invitation code is derived from the host's NOSTR key (10 Crockford base32 characters, 50
bits of SHA-256): a joiner keeps only adverts whose author hashes to the code, so a stranger
cannot answer for a table without grinding 2^50 keys.  The advert's whole fingerprint (signed
with the code's key) is then pinned: the joiner refuses a host whose hello handshake proves
another key.  Someone who did grind a key for a code is caught while the real host advertises:
``online.finder.find_code`` refuses a code that adverts of two authors carry.
"""

from __future__ import annotations

import hashlib
import json
import re

from ..txt import AdvertError, TableInfo, decode_txt, encode_txt
from .event import Event, make_event
from .keys import NostrKey

ADVERT_KIND = 30478
TOPIC = "p2ptarot"
ADVERT_TTL = 300  # seconds an advert stays valid; re-published every ADVERT_TTL / 3
CODE_LENGTH = 10
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U
_CODE = re.compile(rf"[{_ALPHABET}]{{{CODE_LENGTH}}}")
ADDRESS_PREFIX = "nostr:"
#: a whole host fingerprint (``crypto.signing.fingerprint``): the joiner pins the host to it
FULL_FINGERPRINT = re.compile(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}")


def code_of(public_hex: str) -> str:
    """The invitation code of a host's NOSTR public key."""
    bits = int.from_bytes(hashlib.sha256(b"p2ptarot/code/v1\x00" + bytes.fromhex(public_hex))
                          .digest()[:8], "big") >> (64 - 5 * CODE_LENGTH)
    return "".join(_ALPHABET[(bits >> (5 * i)) & 31] for i in reversed(range(CODE_LENGTH)))


def normalize_code(text: str) -> str | None:
    """A typed code in canonical form (case, dashes, spaces, O→0, I/L→1), or None."""
    cleaned = text.strip().upper()
    for prefix in ("P2PTAROT://", "P2PTAROT:"):
        if cleaned.startswith(prefix):
            cleaned = cleaned[len(prefix):].strip("/")
    cleaned = (cleaned.replace("-", "").replace(" ", "")
               .replace("O", "0").replace("I", "1").replace("L", "1"))
    return cleaned if _CODE.fullmatch(cleaned) else None


def show_code(code: str) -> str:
    """The code as people read it: two groups of five."""
    return f"{code[:5]}-{code[5:]}"


def address_of(public_hex: str) -> str:
    """A seat address for the charter: the peer's NOSTR key (its signalling mailbox)."""
    return ADDRESS_PREFIX + public_hex


def parse_address(address: str) -> str | None:
    """The NOSTR key an online seat address names, or None for any other address."""
    if not address.startswith(ADDRESS_PREFIX):
        return None
    key = address[len(ADDRESS_PREFIX):]
    return key if re.fullmatch(r"[0-9a-f]{64}", key) else None


def make_advert(key: NostrKey, table: TableInfo, now: int, ttl: int = ADVERT_TTL) -> Event:
    """The advert event; a short ``ttl`` withdraws the table (it replaces the live advert)."""
    content = json.dumps(encode_txt(table), sort_keys=True, separators=(",", ":"))
    tags = [["d", code_of(key.public_hex)], ["t", TOPIC],
            ["expiration", str(now + ttl)]]
    return make_event(key, ADVERT_KIND, tags, content, now)


def parse_advert(event: Event, now: int) -> tuple[str, TableInfo] | None:
    """(code, table) for a live, well-formed advert whose author matches its code; else None."""
    if event.kind != ADVERT_KIND or event.tag("t") != TOPIC:
        return None
    code = event.tag("d")
    if code is None or code != code_of(event.pubkey):
        return None
    expiry = event.tag("expiration")
    if expiry is None or not expiry.isdigit() or int(expiry) <= now:
        return None
    if event.created_at > now + 60 or len(event.content) > 2048:
        return None
    try:
        fields = json.loads(event.content)
        if not isinstance(fields, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
            return None
        table = decode_txt(fields)
    except (ValueError, RecursionError, AdvertError):
        return None
    if not FULL_FINGERPRINT.fullmatch(table.fingerprint):
        return None  # the joiner checks the host's proven key against it: it must be whole
    return code, table
