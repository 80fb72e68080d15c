"""Signalling between two peers' NOSTR keys, encrypted with NIP-44 v2 (pure).

One ephemeral event kind (``SIGNAL_KIND``, NIP-01 20000-29999) carries every message from one
peer to another: a ``p`` tag names the recipient's key, an ``expiration`` tag (NIP-40) bounds
its life, and the content is the NIP-44 encryption of a small JSON object:

- ``{"t": "offer", "link": L, "sdp": S, "turn": false?}`` and ``{"t": "answer", "link": L,
  "sdp": S}``: the WebRTC session descriptions (aiortc gathers every ICE candidate before it
  writes one, so they carry the candidates: no separate trickle messages); ``"turn": false``
  asks the answerer to leave its TURN server out (the direct-first attempt);
- ``{"t": "relay", "link": L}``: the dialler gives up on WebRTC for link L; both sides carry it
  over the relays (``data`` messages) instead;
- ``{"t": "data", "link": L, "seq": n, "part": i, "parts": k, "body": B}``: part i of k of the
  n-th packet (a JSON array of table frames, or ``z`` + base85 of its deflate stream when that
  is shorter: ``online.channels.pack``) of link L when it rides on the relays;
- ``{"t": "ping", "link": L, "seq": ms}`` / ``{"t": "pong", ...}``: round-trip time of a link
  riding on the relays (``seq`` echoes the sender's clock in milliseconds);
- ``{"t": "bye", "link": L, "seq": n?}``: the link is closed; ``n`` (optional, default 0) is
  the number of ``data`` packets the sender sent on it, so the receiver still delivers those
  (or gives them up after the usual gap) before it closes its end.

``L`` is 32 lowercase hex characters chosen by the dialler.  A relay sees who writes to whom,
when and how much (padded), never an address, a session description or a table message.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from . import nip44
from .event import Event, make_event
from .keys import NostrKey, is_pubkey_hex

SIGNAL_KIND = 21478
SIGNAL_TTL = 120
MAX_SDP = 16384
MAX_BODY = 24000
MAX_PARTS = 4096  # a 4 MB frame cut for a relay capped at 4 KB
_LINK = re.compile(r"[0-9a-f]{32}")
KINDS = ("offer", "answer", "relay", "data", "ping", "pong", "bye")


class SignalError(ValueError):
    """An event that is not a signalling message for us."""


@dataclass(frozen=True, slots=True)
class Signal:
    sender: str  # NOSTR public key hex
    kind: str
    link: str
    sdp: str = ""
    seq: int = 0
    part: int = 0
    parts: int = 1
    body: str = ""
    turn: bool = True  # offer: the answerer may use its TURN server too

    def payload(self) -> dict[str, object]:
        out: dict[str, object] = {"t": self.kind, "link": self.link}
        if self.kind in ("offer", "answer"):
            out["sdp"] = self.sdp
        if self.kind == "offer" and not self.turn:
            out["turn"] = False
        elif self.kind == "data":
            out.update(seq=self.seq, part=self.part, parts=self.parts, body=self.body)
        elif self.kind in ("ping", "pong") or (self.kind == "bye" and self.seq):
            out["seq"] = self.seq
        return out


def seal(key: NostrKey, recipient: str, message: Signal, now: int) -> Event:
    conv = nip44.conversation_key(key, recipient)
    content = nip44.encrypt(json.dumps(message.payload(), separators=(",", ":")), conv)
    tags = [["p", recipient], ["expiration", str(now + SIGNAL_TTL)]]
    return make_event(key, SIGNAL_KIND, tags, content, now)


def open_signal(key: NostrKey, event: Event, now: int) -> Signal:
    """Decrypt and validate a signalling event addressed to ``key``; ``SignalError`` otherwise."""
    if event.kind != SIGNAL_KIND or event.tag("p") != key.public_hex:
        raise SignalError("not a signal for us")
    if not is_pubkey_hex(event.pubkey) or event.pubkey == key.public_hex:
        raise SignalError("bad sender")
    expiry = event.tag("expiration")
    if expiry is None or not expiry.isdigit() or int(expiry) <= now or event.created_at > now + 60:
        raise SignalError("expired or from the future")
    try:
        obj = json.loads(nip44.decrypt(event.content, nip44.conversation_key(key, event.pubkey)))
    except (nip44.Nip44Error, ValueError, RecursionError) as exc:
        raise SignalError(f"undecryptable: {exc}") from None
    if not isinstance(obj, dict):
        raise SignalError("not an object")
    kind, link = obj.get("t"), obj.get("link")
    if kind not in KINDS or not isinstance(link, str) or not _LINK.fullmatch(link):
        raise SignalError("bad type or link")
    if kind in ("offer", "answer"):
        sdp = obj.get("sdp")
        if not isinstance(sdp, str) or not 0 < len(sdp) <= MAX_SDP:
            raise SignalError("bad sdp")
        turn = obj.get("turn", True)
        if kind == "offer" and type(turn) is not bool:
            raise SignalError("bad turn flag")
        return Signal(event.pubkey, kind, link, sdp=sdp, turn=turn is not False)
    if kind == "data":
        seq, part, parts, body = obj.get("seq"), obj.get("part"), obj.get("parts"), obj.get("body")
        if (type(seq) is not int or type(part) is not int or type(parts) is not int
                or not isinstance(body, str) or not 0 <= seq < 2**53
                or not 1 <= parts <= MAX_PARTS or not 0 <= part < parts or len(body) > MAX_BODY):
            raise SignalError("bad data frame")
        return Signal(event.pubkey, kind, link, seq=seq, part=part, parts=parts, body=body)
    if kind in ("ping", "pong", "bye"):
        seq = obj.get("seq", 0 if kind == "bye" else None)
        if type(seq) is not int or not 0 <= seq < 2**53:
            raise SignalError(f"bad {kind}")
        return Signal(event.pubkey, kind, link, seq=seq)
    return Signal(event.pubkey, kind, link)
