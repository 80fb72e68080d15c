"""A loopback 'network' for mental tests: n seats, every message broadcast via its wire dict."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from p2ptarot.mental import Event, MentalMessage, MentalTable, SeededRandomSource

TABLE_ID = b"\x07" * 32


class Loopback:
    """Seats 0..n-1 plus an observer (seat None), all fed the same messages in seat order."""

    def __init__(self, n: int, seed: int = 0, table_id: bytes = TABLE_ID) -> None:
        self.n = n
        self.seats = [MentalTable(table_id, n, s, SeededRandomSource(f"{seed}/{s}"))
                      for s in range(n)]
        self.observer = MentalTable(table_id, n, None)
        self.events: dict[int, list[Event]] = {s: [] for s in range(n)}
        self.sent: list[MentalMessage] = []

    @property
    def peers(self) -> list[MentalTable]:
        return [*self.seats, self.observer]

    def each(self, fn: Callable[[MentalTable], object]) -> list[object]:
        """Apply the same request to every peer (they must all queue the same operations)."""
        results = [fn(p) for p in self.peers]
        assert all(r == results[0] for r in results)
        for s, p in enumerate(self.seats):
            self.events[s] += p.take_events()
        return results

    def step(self, tamper: Callable[[MentalMessage], MentalMessage] | None = None) -> bool:
        """Deliver every currently expected message once; False when nothing is expected."""
        expected = self.seats[0].expected()
        for p in self.peers:
            assert p.expected() == expected
        if not expected:
            return False
        senders = sorted({e.seat for e in expected})
        msgs = []
        for s in senders:
            for m in self.seats[s].outgoing():
                msgs.append(tamper(m) if tamper else m)
        for m in msgs:
            wire = json.loads(json.dumps(m.to_dict()))
            self.sent.append(m)
            for i, p in enumerate(self.peers):
                # the author gets its own object back (fast path); others get the decoded dict
                got = p.receive(m.seat, m) if i == m.seat else p.receive_dict(m.seat, wire)
                if i < self.n:
                    self.events[i] += got
        return True

    def run(self, max_steps: int = 10_000) -> None:
        for _ in range(max_steps):
            if not self.step():
                return
        raise AssertionError("protocol did not quiesce")

    def open(self, deck: str, epoch: int, cards: Sequence[str]) -> None:
        for p in self.peers:
            p.open_deck(deck, epoch, cards)
