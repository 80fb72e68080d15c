"""How big an event may be, from a relay's limits, and how to cut text to fit (pure).

Relays cap what they accept: NIP-11's ``limitation.max_message_length`` (the whole websocket
frame) and ``max_content_length`` (the event's ``content``), or, when they publish nothing, a
cap they only reveal by refusing (``nostr-relay``: 4096 characters of content).  A relay-path
data signal is ``content = base64(NIP-44(JSON payload))``: this module turns a content cap into
the largest *body* (the slice of a packet a data signal carries) that always fits, whatever its
characters (quotes and backslashes cost two bytes once escaped, non-ASCII six or twelve).
"""

from __future__ import annotations

import json

from .nip44 import MAX_PLAINTEXT, padded_length

#: the ``["EVENT", {...}]`` frame without its content: id, pubkey, sig, kind, created_at and
#: the signal's tags (``p`` and ``expiration``), with room to spare
EVENT_OVERHEAD = 600
#: a data signal's JSON payload without its body (type, link id, seq, part, parts), generous
PAYLOAD_OVERHEAD = 160
#: the smallest content cap this client works with (under it, a relay is useless to a table)
MIN_CONTENT = 1024
#: content cap assumed of a relay that publishes no limit (strfry's default frame is 64 KB;
#: 16 KB keeps a first refusal rare and the shrink after it quick)
DEFAULT_CONTENT = 16384
#: no event needs more (NIP-44 carries at most 65535 bytes of plaintext)
MAX_CAP = 87472


def content_length(plaintext_bytes: int) -> int:
    """Characters of the NIP-44 payload of ``plaintext_bytes`` bytes of UTF-8."""
    raw = 1 + 32 + 2 + padded_length(plaintext_bytes) + 32
    return 4 * ((raw + 2) // 3)


def max_plaintext(content_cap: int) -> int:
    """The most plaintext bytes whose NIP-44 payload is at most ``content_cap`` characters."""
    lo, hi = 0, MAX_PLAINTEXT
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if content_length(mid) <= content_cap:
            lo = mid
        else:
            hi = mid - 1
    return lo


def content_cap(limitation: object) -> int:
    """The content cap a NIP-11 ``limitation`` object implies: the smaller of
    ``max_content_length`` and ``max_message_length`` less the frame's overhead; a relay that
    says nothing gets ``DEFAULT_CONTENT`` (and a refusal teaches the rest)."""
    caps: list[int] = []
    if isinstance(limitation, dict):
        message = limitation.get("max_message_length")
        content = limitation.get("max_content_length")
        if type(message) is int and message > 0:
            caps.append(message - EVENT_OVERHEAD)
        if type(content) is int and content > 0:
            caps.append(content)
    return min(max(min(caps), 0), MAX_CAP) if caps else DEFAULT_CONTENT


def body_budget(cap: int) -> int:
    """Escaped UTF-8 bytes of body a data signal may carry under content cap ``cap``."""
    return max(max_plaintext(cap) - PAYLOAD_OVERHEAD, 64)


def escaped_size(text: str) -> int:
    """Bytes ``text`` takes inside a JSON string as ``signal.seal`` writes it (ASCII-only
    JSON: quotes and backslashes cost two bytes, any non-ASCII character six or twelve)."""
    return len(json.dumps(text)) - 2


def split_to_fit(text: str, budget: int) -> list[str]:
    """``text`` cut into consecutive pieces of at most ``budget`` escaped bytes each."""
    if budget < 8:
        raise ValueError("budget too small")
    parts: list[str] = []
    i = 0
    while i < len(text):
        n = min(budget, len(text) - i)
        while True:
            cost = escaped_size(text[i:i + n])
            if cost <= budget:
                break
            n = max(1, min(n - 1, n * budget // cost))
        parts.append(text[i:i + n])
        i += n
    return parts or [""]
