"""Hash commitments for commit-then-reveal rounds (joint coin, Eleusis secret rule...).

digest = SHA-512(lp("p2ptarot/commit/" + label, salt, value))[:32]: hiding because the 32-byte
salt is secret until the opening, binding by collision resistance; the label separates uses so a
commitment made for one purpose cannot be opened for another.
"""

from __future__ import annotations

import hmac
import secrets

from .encoding import transcript_hash
from .errors import CommitmentError, InvalidEncoding
from p2ptarot.i18n.message import tr

SALT_BYTES = 32
DIGEST_BYTES = 32
_PREFIX = "p2ptarot/commit/"


def _digest(label: str, value: bytes, salt: bytes) -> bytes:
    return transcript_hash(_PREFIX + label, salt, value)[:DIGEST_BYTES]


def commit(label: str, value: bytes, salt: bytes | None = None) -> tuple[bytes, bytes]:
    """Return (digest, salt); a fresh random salt is drawn when none is given."""
    if salt is None:
        salt = secrets.token_bytes(SALT_BYTES)
    elif len(salt) != SALT_BYTES:
        raise InvalidEncoding(tr("{what}: {part} must be {size} bytes",
                                 what="commitment", part="salt", size=32))
    return _digest(label, bytes(value), bytes(salt)), bytes(salt)


def check_commitment(label: str, digest: bytes, value: bytes, salt: bytes) -> None:
    """Raise CommitmentError unless (value, salt) opens ``digest`` under ``label``."""
    if len(digest) != DIGEST_BYTES:
        raise InvalidEncoding(tr("{what}: {part} must be {size} bytes",
                                 what="commitment", part="digest", size=32))
    if len(salt) != SALT_BYTES:
        raise InvalidEncoding(tr("{what}: {part} must be {size} bytes",
                                 what="commitment", part="salt", size=32))
    if not hmac.compare_digest(_digest(label, bytes(value), bytes(salt)), bytes(digest)):
        raise CommitmentError(tr("commitment: opening does not match digest (label {label})",
                                 label=repr(label)))
