"""Control frames at the peer's edge: typed once (`table.control`), then dispatched by type.

Everything else on a link is an envelope for the session. Sending tolerates a link that dropped
meanwhile: links heal and catch-up repairs any loss.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final

from p2ptarot.crypto.errors import CryptoError
from p2ptarot.crypto.signing import verify_signature
from p2ptarot.net.errors import MeshError
from p2ptarot.net.events import Received
from p2ptarot.net.link import Links
from p2ptarot.table import canonical
from p2ptarot.table.charter import Charter, charter_signing_bytes
from p2ptarot.table.control import ControlFrame, DoneFrame, is_control, parse_control

logger = logging.getLogger(__name__)


class _Malformed:
    """A control frame its model refused: ignored (it is untrusted input, never an error)."""

    def __repr__(self) -> str:
        return "MALFORMED"


MALFORMED: Final = _Malformed()


def ctl(obj: dict[str, Any]) -> bytes:
    """A digest frame the session built (to `DigestFrame`'s schema) as the link's bytes."""
    return canonical.encode(obj)


def control_of(ev: Received) -> ControlFrame | _Malformed | None:
    """The typed control frame ``ev`` carries, ``MALFORMED`` when its model refuses it, None
    for an envelope (the session's). The object is the one the link core parsed already."""
    value = ev.value
    if value is None:  # an event made without the link core (tests, tools)
        try:
            value = json.loads(ev.data)
        except (ValueError, RecursionError):
            return None
    if not is_control(value):
        return None
    frame = parse_control(value)
    if frame is None:
        logger.info("dropped a malformed %.20r frame from %s", value.get("ctl"), ev.peer.hex()[:16])
        return MALFORMED
    return frame


def finished_seats(frame: DoneFrame, sender: bytes, seat_keys: list[bytes]) -> set[bytes]:
    """The keys a `done` frame says have finished: its sender, and the seats it names in
    `seats` (indices of the seats it learnt finished, from them or passed on by others). Such
    evidence only lets a lingering peer leave sooner: a lie costs a cut-off seat one source of
    catch-up, never a verdict. A list naming a seat that does not exist names nobody but the
    sender."""
    out = {sender}
    if len(frame.seats) <= len(seat_keys) and all(0 <= i < len(seat_keys) for i in frame.seats):
        out.update(seat_keys[i] for i in frame.seats)
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
