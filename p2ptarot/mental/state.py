"""Public per-handle bookkeeping of one deck epoch: ciphertext versions and published shares.

A *handle* is a position of the final shuffled deck (or of a reshuffled pile). It owns a list
of ciphertext *versions*: version 0 comes out of the shuffle, later versions are proven
re-encryptions made for show/give. `current` is the version that dealing and public reveals
open; a give moves it to the receiver's version, a show leaves it alone.

Who can decrypt a version follows from its published shares alone: with every share, everybody;
with all shares but seat s's, only s (it adds its own); otherwise nobody.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2ptarot.crypto.elgamal import Ciphertext
from p2ptarot.crypto.group import Point


@dataclass
class Version:
    """One ciphertext of a handle and the verified decryption shares published for it."""

    ciphertext: Ciphertext
    shares: dict[int, Point] = field(default_factory=dict)

    def knowers(self, n_seats: int) -> frozenset[int]:
        """Seats able to decrypt this version from public shares (plus their own key)."""
        if len(self.shares) == n_seats:
            return frozenset(range(n_seats))
        if len(self.shares) == n_seats - 1:
            (missing,) = set(range(n_seats)) - self.shares.keys()
            return frozenset({missing})
        return frozenset()


@dataclass
class Handle:
    """A card slot: its ciphertext versions, which one is current, and whether it is live.

    A handle stops being live when a reshuffle consumes it (its card now sits behind a new
    handle that nobody can link to it).
    """

    versions: list[Version]
    current: int = 0
    live: bool = True

    @property
    def current_version(self) -> Version:
        return self.versions[self.current]

    def knowers(self, n_seats: int) -> frozenset[int]:
        """Seats that can know this handle's card through any of its versions."""
        out: frozenset[int] = frozenset()
        for v in self.versions:
            out |= v.knowers(n_seats)
        return out


@dataclass
class Plan:
    """Request-time projection of the handles once every queued operation completes.

    Requests are validated against it (not against the present state), so the caller may queue
    a deal right behind the initial shuffle, or a deal of handles a queued reshuffle creates.
    """

    live: set[int] = field(default_factory=set)
    next_handle: int = 0
    shared: dict[int, frozenset[int]] = field(default_factory=dict)
    knowers: dict[int, frozenset[int]] = field(default_factory=dict)

    def add_handles(self, count: int) -> tuple[int, ...]:
        new = tuple(range(self.next_handle, self.next_handle + count))
        self.next_handle += count
        for h in new:
            self.live.add(h)
            self.shared[h] = frozenset()
            self.knowers[h] = frozenset()
        return new
