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

from .errors import MentalUsageError
from .events import Transfer


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
    Each method checks a request, raises MentalUsageError if it is impossible, else records it.
    """

    n: int
    live: set[int] = field(default_factory=set)
    next_handle: int = 0
    shared: dict[int, frozenset[int]] = field(default_factory=dict)
    knowers: dict[int, frozenset[int]] = field(default_factory=dict)
    closing: bool = False

    def add_handles(self, count: int) -> tuple[int, ...]:
        new = tuple(range(self.next_handle, self.next_handle + count))
        self.next_handle += count
        for h in new:
            self.live.add(h)
            self.shared[h] = frozenset()
            self.knowers[h] = frozenset()
        return new

    def disclose(self, requests: tuple[tuple[int, int | None], ...]) -> None:
        """Deal (recipient seat) needs a never-opened handle; reveal (None) any live one."""
        self._check_open()
        for h, r in requests:
            self._check_live(h)
            if r is not None:
                self._check_seat(r)
                if self.shared[h]:
                    raise MentalUsageError(f"handle {h} was already opened; use show/give")
        everyone = frozenset(range(self.n))
        for h, r in requests:
            if r is None:
                self.shared[h] = everyone
                self.knowers[h] = everyone
            else:
                self.shared[h] = everyone - {r}
                self.knowers[h] |= {r}

    def transfer(self, transfers: tuple[Transfer, ...], give: bool) -> None:
        """The holder must already know the card: re-encrypting would otherwise reveal it."""
        self._check_open()
        if not transfers or len({t.handle for t in transfers}) != len(transfers):
            raise MentalUsageError("transfers need distinct handles")
        for t in transfers:
            self._check_live(t.handle)
            self._check_seat(t.holder)
            self._check_seat(t.recipient)
            if t.holder == t.recipient:
                raise MentalUsageError(f"handle {t.handle}: holder and recipient are the same")
            if t.holder not in self.knowers[t.handle]:
                raise MentalUsageError(f"seat {t.holder} does not know handle {t.handle}: "
                                       f"it cannot re-encrypt it without learning it")
        everyone = frozenset(range(self.n))
        for t in transfers:
            self.knowers[t.handle] |= {t.recipient}
            if give:
                self.shared[t.handle] = everyone - {t.recipient}

    def reshuffle(self, handles: tuple[int, ...]) -> tuple[int, ...]:
        """Retire the handles; return the new ones the shuffled pile will occupy."""
        self._check_open()
        if not handles or len(set(handles)) != len(handles):
            raise MentalUsageError("reshuffle needs distinct handles")
        for h in handles:
            self._check_live(h)
        self.live -= set(handles)
        return self.add_handles(len(handles))

    def audit(self, handles: tuple[int, ...]) -> None:
        """The last operation: open `handles` (distinct, existing, live or retired) publicly."""
        self._check_open()
        if len(set(handles)) != len(handles):
            raise MentalUsageError("an audit opens distinct handles")
        for h in handles:
            if not 0 <= h < self.next_handle:
                raise MentalUsageError(f"handle {h} does not exist")
        self.closing = True

    def _check_open(self) -> None:
        if self.closing:
            raise MentalUsageError("the epoch is being audited; open a new epoch")

    def _check_live(self, h: int) -> None:
        if h not in self.live:
            raise MentalUsageError(f"handle {h} is not live")

    def _check_seat(self, s: int) -> None:
        if not 0 <= s < self.n:
            raise MentalUsageError(f"seat {s} is not at this table")
