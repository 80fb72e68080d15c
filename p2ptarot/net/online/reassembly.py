"""In-order reassembly of frames that ride on relays in numbered parts (pure; clock passed in).

Relays may drop, duplicate, delay and reorder events.  Frames are delivered in sequence order;
a frame still incomplete ``gap`` seconds after a later frame completed is given up, so one lost
event costs a catch-up at the table layer instead of a stalled link.  A frame may come cut in
more than one way (a relay refused a part for its size, and the sender cut the packet again,
while parts of the first cut still travel on another relay): each cut is gathered apart, and the
first one complete is the frame.  Memory is bounded: at most ``max_pending`` frames, ``MAX_CUTS``
cuts of each, and ``max_chars`` characters wait.
"""

from __future__ import annotations

from dataclasses import dataclass, field


MAX_CUTS = 4


@dataclass
class _Frame:
    cuts: dict[int, dict[int, str]] = field(default_factory=dict)  # parts -> part -> body
    size: int = 0

    def done(self) -> bool:
        return any(len(got) == parts for parts, got in self.cuts.items())

    def text(self) -> str:
        """The frame, from its first complete cut (``done()`` first)."""
        parts, got = next((p, g) for p, g in self.cuts.items() if len(g) == p)
        return "".join(got[i] for i in range(parts))


class Reassembler:
    def __init__(self, gap: float, max_chars: int, max_pending: int = 256) -> None:
        self.gap = gap
        self.max_chars = max_chars
        self.max_pending = max_pending
        self.next = 0  # the sequence number delivered next
        self._frames: dict[int, _Frame] = {}
        self._chars = 0
        self._stalled_since: float | None = None
        self.skipped = 0
        self.refused = 0

    def feed(self, seq: int, part: int, parts: int, body: str, now: float) -> list[str]:
        """Accept one part; the frames now deliverable, in order."""
        if seq < self.next or seq >= self.next + self.max_pending:
            self.refused += seq >= self.next
            return self.poll(now)
        frame = self._frames.setdefault(seq, _Frame())
        got = frame.cuts.get(parts)
        if got is None and len(frame.cuts) < MAX_CUTS:
            got = frame.cuts[parts] = {}
        if got is None or part in got or self._chars + len(body) > self.max_chars:
            self.refused += 1
            return self.poll(now)
        got[part] = body
        frame.size += len(body)
        self._chars += len(body)
        return self.poll(now)

    def poll(self, now: float) -> list[str]:
        out: list[str] = []
        while True:
            frame = self._frames.get(self.next)
            if frame is not None and frame.done():
                out.append(frame.text())
                self._release(self.next)
                self._stalled_since = None
                continue
            later_done = any(f.done() for s, f in self._frames.items()
                             if s > self.next)
            if not later_done:
                self._stalled_since = None
                return out
            if self._stalled_since is None:
                self._stalled_since = now
            if now - self._stalled_since < self.gap:
                return out
            self._release(self.next)  # give the missing frame up
            self.skipped += 1
            self._stalled_since = now

    def _release(self, seq: int) -> None:
        frame = self._frames.pop(seq, None)
        if frame is not None:
            self._chars -= frame.size
        self.next = seq + 1
