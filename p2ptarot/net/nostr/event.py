"""NIP-01 events: the id (sha256 of the canonical array), BIP-340 signatures, strict parsing.

Every event read from a relay goes through ``parse_event``: wrong types, sizes, ids or
signatures are refused (a relay is untrusted and may forge, alter or replay anything).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .keys import NostrKey, is_pubkey_hex, verify_schnorr
from p2ptarot.i18n.message import tr

MAX_CONTENT = 65536
MAX_TAGS = 32
MAX_TAG_ITEMS = 8
MAX_TAG_TEXT = 256
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")


class EventError(ValueError):
    """Not a valid, correctly signed NOSTR event."""


Tags = tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    pubkey: str
    created_at: int
    kind: int
    tags: Tags
    content: str
    sig: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "pubkey": self.pubkey, "created_at": self.created_at,
                "kind": self.kind, "tags": [list(t) for t in self.tags],
                "content": self.content, "sig": self.sig}

    def tag(self, name: str) -> str | None:
        """The first value of the first tag called ``name``."""
        for t in self.tags:
            if len(t) >= 2 and t[0] == name:
                return t[1]
        return None


def event_id(pubkey: str, created_at: int, kind: int, tags: Tags, content: str) -> str:
    serial = json.dumps([0, pubkey, created_at, kind, [list(t) for t in tags], content],
                        separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(serial.encode("utf-8")).hexdigest()


def make_event(key: NostrKey, kind: int, tags: Sequence[Sequence[str]], content: str,
               created_at: int) -> Event:
    frozen: Tags = tuple(tuple(t) for t in tags)
    ident = event_id(key.public_hex, created_at, kind, frozen, content)
    sig = key.sign(bytes.fromhex(ident)).hex()
    return Event(ident, key.public_hex, created_at, kind, frozen, content, sig)


def parse_event(obj: object) -> Event:
    """A verified ``Event`` from decoded JSON, or ``EventError``."""
    if not isinstance(obj, dict):
        raise EventError("event is not an object")
    try:
        ident, pubkey, created_at = obj["id"], obj["pubkey"], obj["created_at"]
        kind, raw_tags, content, sig = obj["kind"], obj["tags"], obj["content"], obj["sig"]
    except KeyError as exc:
        raise EventError(f"event lacks {exc.args[0]!r}") from None
    if not (isinstance(ident, str) and _HEX64.fullmatch(ident)):
        raise EventError("bad id")
    if not is_pubkey_hex(pubkey):
        raise EventError("bad pubkey")
    if not (isinstance(sig, str) and _HEX128.fullmatch(sig)):
        raise EventError("bad sig")
    for name, value, top in (("created_at", created_at, 2**40), ("kind", kind, 65536)):
        if type(value) is not int or not 0 <= value < top:
            raise EventError(f"bad {name}")
    if not isinstance(content, str) or len(content) > MAX_CONTENT:
        raise EventError("bad content")
    tags = _tags(raw_tags)
    if event_id(pubkey, created_at, kind, tags, content) != ident:
        raise EventError("id does not match the event")
    if not verify_schnorr(pubkey, bytes.fromhex(ident), bytes.fromhex(sig)):
        raise EventError(tr("bad signature"))
    return Event(ident, pubkey, created_at, kind, tags, content, sig)


def _tags(raw: object) -> Tags:
    if not isinstance(raw, list) or len(raw) > MAX_TAGS:
        raise EventError("bad tags")
    out = []
    for tag in raw:
        if (not isinstance(tag, list) or not 1 <= len(tag) <= MAX_TAG_ITEMS
                or not all(isinstance(x, str) and len(x) <= MAX_TAG_TEXT for x in tag)):
            raise EventError("bad tag")
        out.append(tuple(tag))
    return tuple(out)
