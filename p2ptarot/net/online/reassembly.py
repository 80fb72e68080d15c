"""In-order reassembly of frames that ride on relays in numbered parts (pure; clock passed in).

Relays may drop, duplicate, delay and reorder events.  Frames are delivered in sequence order;
a frame still incomplete ``gap`` seconds after a later frame completed is given up, so one lost
event costs a catch-up at the table layer instead of a stalled link.  A frame sent again cut
into a different number of parts (a relay refused a part for its size) replaces the parts
received so far.  Memory is bounded: at most
``max_pending`` frames and ``max_chars`` characters wait.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class _Frame:
    parts: int
    got: dict[int, str] = field(default_factory=dict)
    size: int = 0


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
        frame = self._frames.setdefault(seq, _Frame(parts))
        if frame.parts != parts:  # the sender cut the packet again (a relay refused a part
            self._chars -= frame.size  # for its size): start over with the new cut
            frame = self._frames[seq] = _Frame(parts)
        if part in frame.got or self._chars + len(body) > self.max_chars:
            self.refused += 1
            return self.poll(now)
        frame.got[part] = body
        frame.size += len(body)
        self._chars += len(body)
        return self.poll(now)

    def poll(self, now: float) -> list[str]:
        out: list[str] = []
        while True:
            frame = self._frames.get(self.next)
            if frame is not None and len(frame.got) == frame.parts:
                out.append("".join(frame.got[i] for i in range(frame.parts)))
                self._release(self.next)
                self._stalled_since = None
                continue
            later_done = any(len(f.got) == f.parts for s, f in self._frames.items()
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
