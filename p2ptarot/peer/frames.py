"""Control frames between peers (lobby, catch-up, presence): JSON objects with a "ctl" key.

Everything else on a link is an envelope for the session. Sending tolerates a link that dropped
meanwhile: links heal and catch-up repairs any loss.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.signing import verify_signature
from p2ptarot.net.errors import MeshError
from p2ptarot.net.link import Links
from p2ptarot.table import canonical
from p2ptarot.table.charter import Charter, charter_signing_bytes

logger = logging.getLogger(__name__)


def ctl(obj: dict[str, Any]) -> bytes:
    return canonical.encode(obj)


def parse_ctl(data: bytes) -> dict[str, Any] | None:
    """A control frame, or None when the frame is an envelope (or garbage) for the session."""
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError and huge integers included
        return None
    return obj if isinstance(obj, dict) and isinstance(obj.get("ctl"), str) else None


def finished_seats(msg: dict[str, Any], sender: bytes, seat_keys: list[bytes]) -> set[bytes]:
    """The keys a `done` frame says have finished: its sender, and the seats it names in
    `seats` (indices of the seats it learnt finished, from them or passed on by others). Such
    evidence only lets a lingering peer leave sooner: a lie costs a cut-off seat one source of
    catch-up, never a verdict. A malformed list names nobody but the sender."""
    out = {sender}
    seats = msg.get("seats")
    if isinstance(seats, list) and len(seats) <= len(seat_keys) \
            and all(type(i) is int and 0 <= i < len(seat_keys) for i in seats):
        out.update(seat_keys[i] for i in seats)
    return out


async def safe_send(links: Links, peer: bytes, data: bytes) -> None:
    """Send, tolerating a link that dropped meanwhile (it is re-dialled; catch-up repairs)."""
    try:
        await links.send(peer, data)
    except MeshError as exc:
        logger.info("send to %s failed: %s", peer.hex()[:16], exc)


def charter_signature_ok(charter: Charter, key: bytes, sig: object) -> bool:
    """True when `sig` is `key`'s valid signature of this charter (checked before it is kept)."""
    try:
        verify_signature(key, charter_signing_bytes(charter.table_id), canonical.unb64(sig, "sig", 64))
    except (CryptoError, canonical.CanonicalError):
        return False
    return True
