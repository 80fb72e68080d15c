"""Context bytes that bind every proof to exactly one place in one game.

Each proof's Fiat–Shamir challenge hashes this context together with its statement, so a proof
made for (table, deck, epoch, operation, seat, ...) is useless anywhere else: a key proof cannot
be replayed by another seat or at another table, a share cannot be moved to another handle.
"""

from __future__ import annotations

from p2ptarot.crypto.encoding import lp

PROTOCOL_LABEL = b"p2ptarot/mental/v1"


def _int(v: int) -> bytes:
    return v.to_bytes(8, "big", signed=False)


def context(table_id: bytes, deck: str, epoch: int, step: str, *numbers: int) -> bytes:
    """lp(label, table id, deck id, epoch, step name, each number as 8-byte big-endian)."""
    return lp(PROTOCOL_LABEL, table_id, deck.encode("utf-8"), _int(epoch), step.encode("ascii"),
              *(_int(n) for n in numbers))


def key_context(table_id: bytes, deck: str, epoch: int, seat: int) -> bytes:
    """Binds a Schnorr proof of knowledge of x_i to its seat (blocks copied/rogue keys)."""
    return context(table_id, deck, epoch, "key", seat)


def shuffle_context(table_id: bytes, deck: str, epoch: int, op: int, seat: int) -> bytes:
    """Binds a shuffle proof to its operation number and shuffler."""
    return context(table_id, deck, epoch, "shuffle", op, seat)


def share_context(table_id: bytes, deck: str, epoch: int, handle: int, version: int,
                  seat: int) -> bytes:
    """Binds a decryption share's DLEQ proof to one ciphertext version of one handle."""
    return context(table_id, deck, epoch, "share", handle, version, seat)


def reencryption_context(table_id: bytes, deck: str, epoch: int, handle: int, version: int,
                         seat: int) -> bytes:
    """Binds a re-encryption proof to the new version it creates and to its author."""
    return context(table_id, deck, epoch, "reencrypt", handle, version, seat)
