"""Injectable randomness: the only source of secrets, permutations and re-encryption factors.

The state machine never calls `secrets` directly, so tests can run a whole table from seeds and
replay it exactly. Production uses `SystemRandomSource`.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Protocol

from p2ptarot.crypto.group import Scalar


class RandomSource(Protocol):
    """Where a seat's randomness comes from."""

    def random_bytes(self, n: int) -> bytes:
        """Return n uniformly random bytes."""
        ...


def random_scalar(source: RandomSource) -> Scalar:
    """A uniform nonzero scalar (64 bytes reduced mod l: bias below 2^-250)."""
    while True:
        k = Scalar.from_int(int.from_bytes(source.random_bytes(64), "little"))
        if int(k) != 0:
            return k


def random_below(source: RandomSource, n: int) -> int:
    """A uniform integer in [0, n), by rejection sampling (no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    nbytes = (n.bit_length() + 7) // 8 + 1
    bound = (256**nbytes // n) * n
    while True:
        v = int.from_bytes(source.random_bytes(nbytes), "big")
        if v < bound:
            return v % n


def random_permutation(source: RandomSource, n: int) -> list[int]:
    """A uniform permutation of range(n) (Fisher-Yates)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = random_below(source, i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


class SystemRandomSource:
    """Operating-system randomness (`secrets`): the production source."""

    def random_bytes(self, n: int) -> bytes:
        return secrets.token_bytes(n)


class SeededRandomSource:
    """Deterministic stream from a seed, for reproducible tests and benchmarks ONLY.

    SHAKE-256 over (seed, block counter): unpredictable without the seed, but anyone holding
    the seed can recompute every secret, so it must never be used for a real game.
    """

    def __init__(self, seed: bytes | str | int) -> None:
        if isinstance(seed, int):
            seed = seed.to_bytes(16, "big", signed=True)
        elif isinstance(seed, str):
            seed = seed.encode()
        self._seed = bytes(seed)
        self._counter = 0
        self._buffer = b""

    def random_bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.shake_256(
                b"p2ptarot/test-rng" + self._counter.to_bytes(8, "big") + self._seed
            ).digest(256)
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out
