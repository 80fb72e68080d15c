"""Setup (rules §3.2): the figure placement drawn from a jointly generated seed (R4).

The generator is SHA-256 in counter mode over the seed (the same on every peer and every Python),
with rejection sampling for uniform draws; Fisher–Yates over the 20 items of §3.2 step 1, retried
until no location holds two figures of one House.
"""

from __future__ import annotations

import hashlib

from .rules import FIGURES, figure_house

EMPTY = ""


class SeedStream:
    """Deterministic uniform integers from a seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed.to_bytes(16, "big")
        self.counter = 0
        self.buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self.buffer) < n:
            block = hashlib.sha256(b"arcanum/placement" + self.seed
                                   + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
            self.buffer += block
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def below(self, n: int) -> int:
        bound = (2**64 // n) * n
        while True:
            v = int.from_bytes(self._bytes(8), "big")
            if v < bound:
                return v % n


def placement(seed: int) -> dict[str, int]:
    """figure -> location (1–10): ≤ 2 per location, never two figures of one House together."""
    stream = SeedStream(seed)
    items = list(FIGURES) + [EMPTY] * 4
    while True:
        for i in range(len(items) - 1, 0, -1):
            j = stream.below(i + 1)
            items[i], items[j] = items[j], items[i]
        ok = True
        out: dict[str, int] = {}
        for k in range(10):
            pair = [x for x in items[2 * k:2 * k + 2] if x != EMPTY]
            if len(pair) == 2 and figure_house(pair[0]) == figure_house(pair[1]):
                ok = False
                break
            for fig in pair:
                out[fig] = k + 1
        if ok:
            return out
