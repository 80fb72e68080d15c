"""Joint randomness by commit-then-reveal (first dealer, any `RandomChoice`).

Every seat commits to 32 random bytes (a `p2ptarot.crypto.commitment` bound to the table and the
draw's purpose), then opens them; the draw is a hash of all openings in seat order, reduced to
[0, n) without modulo bias. One honest seat makes it uniform; a seat that withholds its opening is
blamed (a silence), never skipped, so nobody can retry an unlucky draw.
"""

from __future__ import annotations

import hashlib

from p2ptarot.crypto.encoding import lp


def label(table_id: bytes, purpose: str, index: int) -> str:
    """Commitment label: binds an opening to one table and one draw."""
    return f"p2ptarot/coin/{table_id.hex()}/{index}/{purpose}"


def draw(openings: list[bytes], n: int, context: bytes) -> int:
    """A uniform integer in [0, n) from every seat's opening (rejection sampling on SHAKE-256)."""
    if n <= 0:
        raise ValueError("n must be positive")
    stream = hashlib.shake_256(lp(b"p2ptarot/coin/draw", context, *openings)).digest(8 * 64)
    bound = (2**64 // n) * n
    for i in range(0, len(stream), 8):
        v = int.from_bytes(stream[i:i + 8], "big")
        if v < bound:
            return v % n
    raise ValueError("draw: no value below the bound (probability < 2^-1000)")
