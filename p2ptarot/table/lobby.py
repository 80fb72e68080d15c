"""Building and signing a charter: the only step before the lockstep log begins."""

from __future__ import annotations

import secrets
from typing import Any, Sequence

from p2ptarot import PROTOCOL_VERSION
from p2ptarot.crypto.signing import Identity

from . import canonical
from .charter import Charter, SeatEntry, SignedCharter, charter_signing_bytes


def make_charter(game: str, seats: Sequence[tuple[bytes, str, str]], variant: str | None = None,
                 options: dict[str, Any] | None = None, timeout: int = 120,
                 nonce: bytes | None = None, stand_in_after: int = 0) -> Charter:
    """A charter for `seats` = (public key, name, ws address) in seat order; `stand_in_after`
    is the table's stand-in policy (seconds, 0 = never)."""
    return Charter(protocol=PROTOCOL_VERSION, game=game, variant=variant, options=dict(options or {}),
                   seats=[SeatEntry(key=canonical.b64(k), name=n, address=a) for k, n, a in seats],
                   nonce=canonical.b64(nonce or secrets.token_bytes(32)), timeout=timeout,
                   stand_in_after=stand_in_after)


def sign_charter(charter: Charter, identity: Identity) -> str:
    """This identity's signature of the charter's table id (base64url)."""
    return canonical.b64(identity.sign(charter_signing_bytes(charter.table_id)))


def signed_locally(charter: Charter, identities: Sequence[Identity]) -> SignedCharter:
    """Every seat's signature when all identities are at hand (tests, local demos)."""
    return SignedCharter(charter=charter, signatures=[sign_charter(charter, i) for i in identities])
