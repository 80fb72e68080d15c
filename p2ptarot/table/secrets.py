"""Where a seat's secret randomness comes from, so that a killed peer can resume.

Every epoch key x_i is derived from one per-game seed (HKDF over table id, deck, epoch) that the
game pump stores before the charter is signed: after a restart the same keys come back, and nothing
else needs saving (coin values and commitment salts are derived from the same seed, and committed
values are sealed to the seat itself: `rounds.SeatSecrets`). All other randomness (shuffle
permutations, re-encryption factors) is fresh from the operating system: those secrets are never
needed again once their message is sent, and the game pump persists each message before sending it,
so a restarted peer never sends two different messages for one step. (Tests and benchmarks may
draw them from a seeded stream instead, for a repeatable deal: `p2ptarot demo --seed`.)
"""

from __future__ import annotations

import secrets as _os_random
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from p2ptarot.crypto.encoding import lp

if TYPE_CHECKING:
    from p2ptarot.mental.randomness import RandomSource

SEED_BYTES = 32


def new_seed() -> bytes:
    return _os_random.token_bytes(SEED_BYTES)


class EpochKeySource:
    """A `p2ptarot.mental` RandomSource whose next read after `arm()` is a derived epoch key."""

    def __init__(self, seed: bytes, table_id: bytes, rest: RandomSource | None = None) -> None:
        """`rest`: where every other read (permutations, re-encryption factors) comes from;
        None is the OS. A seeded `rest` is for tests and benchmarks only (a repeatable deal)."""
        if len(seed) != SEED_BYTES:
            raise ValueError("the game seed must be 32 bytes")
        self._seed = seed
        self._table_id = table_id
        self._armed: bytes | None = None
        self._rest = rest

    def arm(self, deck: str, epoch: int) -> None:
        """The next `random_bytes` call returns key material for (deck, epoch)."""
        info = lp(b"p2ptarot/epoch-key", self._table_id, deck.encode(), epoch.to_bytes(8, "big"))
        self._armed = HKDF(algorithm=hashes.SHA512(), length=64, salt=None, info=info).derive(self._seed)

    def random_bytes(self, n: int) -> bytes:
        if self._armed is not None:
            material, self._armed = self._armed, None
            if n != len(material):
                raise ValueError("epoch key draw of an unexpected size")
            return material
        if self._rest is not None:
            return self._rest.random_bytes(n)
        return _os_random.token_bytes(n)
