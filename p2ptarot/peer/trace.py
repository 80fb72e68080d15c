"""A per-step trace of the game pump, for benchmarks (issue 36): where a step's wall time goes.

Off unless the environment names a directory in `P2PTAROT_STEP_TRACE` (a benchmark sets it; no
player does): then each peer keeps, in memory, one record per batch the pump handles — what woke
it (a received frame, the local move, a timer), the session's step before and after, and the
clock at each stage: taken from the links, checked and applied by the session, persisted (lines
handed to the OS, own lines fsynced), sent — and writes them as JSON lines to
`<dir>/trace-<seat>.jsonl` when the game ends. Clocks are `time.monotonic()`, the same clock
in every process of one machine, so a benchmark lines up the peers' records (a move made at one
peer, applied at every other). Nothing is written during the game: the trace adds no I/O to
the path it measures.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

ENV = "P2PTAROT_STEP_TRACE"
_STEP = re.compile(rb'"step":(\d+)')
_KIND = re.compile(rb'"kind":"([a-z._]+)"')


def _usage() -> dict[str, int]:
    """This process's page faults and context switches so far (a forked peer's copy-on-write
    faults; a peer made to wait for a core: involuntary switches)."""
    import resource
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {"minflt": ru.ru_minflt, "majflt": ru.ru_majflt, "nvcsw": ru.ru_nvcsw,
            "nivcsw": ru.ru_nivcsw}


class StepTrace:
    """The records of one peer (see the module doc); `None` stands for a trace switched off."""

    def __init__(self, directory: Path, seat: int) -> None:
        self.path = Path(directory) / f"trace-{seat}.jsonl"
        # the game starts: both clocks, so a benchmark places it against the processes' spawn
        self.records: list[dict[str, Any]] = [{"src": "play", "s0": 0, "s1": 0,
                                               "t0": time.monotonic(), "wall": time.time(),
                                               "cpu": time.process_time(), **_usage()}]
        self._cur: dict[str, Any] | None = None
        self._gc: dict[int, float] = {}  # collections and their seconds, by generation
        self._gc_n: dict[int, int] = {}
        self._gc_at = 0.0
        import gc
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        """The garbage collector's pauses (the pump stands still meanwhile)."""
        if phase == "start":
            self._gc_at = time.perf_counter()
        else:
            gen = info.get("generation", 0)
            self._gc[gen] = self._gc.get(gen, 0.0) + time.perf_counter() - self._gc_at
            self._gc_n[gen] = self._gc_n.get(gen, 0) + 1

    @classmethod
    def from_env(cls, seat: int) -> StepTrace | None:
        where = os.environ.get(ENV)
        return cls(Path(where), seat) if where else None

    def begin(self, src: str, step: int, data: bytes | None = None) -> None:
        """A batch starts: `src` woke the pump at session step `step` (`data`: a received frame,
        whose step and kind are noted when it is an envelope)."""
        rec: dict[str, Any] = {"src": src, "s0": step, "t0": time.monotonic(),
                               "c0": time.process_time()}
        if data is not None and b'"ctl":"' in data[:200]:  # a control frame: its name
            at = data.find(b'"ctl":"') + 7
            rec["ek"] = "ctl." + data[at:data.find(b'"', at, at + 20)].decode(errors="replace")
        elif data is not None:  # canonical JSON sorts its keys: step and kind follow the body
            at = data.rfind(b'"step":')
            m = _STEP.match(data, at) if at >= 0 else None
            at = data.rfind(b'"kind":')
            k = _KIND.match(data, at) if at >= 0 else None
            if m is not None:
                rec["es"] = int(m.group(1))
            if k is not None:
                rec["ek"] = k.group(1).decode()
            rec["n"] = len(data)
        self._cur = rec

    def mark(self, stage: str) -> None:
        """A stage of the current batch is over (`session`, `persist`, `send`)."""
        if self._cur is not None:
            self._cur[stage] = time.monotonic()

    def sent(self, count: int) -> None:
        """The current batch sends `count` own messages."""
        if self._cur is not None and count:
            self._cur["sent"] = self._cur.get("sent", 0) + count

    def end(self, step: int) -> None:
        """The batch is over; the session is at `step` (steps in between completed here)."""
        rec, self._cur = self._cur, None
        if rec is None:
            return
        rec["s1"], rec["t1"], rec["c1"] = step, time.monotonic(), time.process_time()
        self.records.append(rec)

    def note(self, what: str, step: int) -> None:
        """A moment outside any batch: a timer's catch-up (`resync`, `deep`), a catch-up asked
        again at once once an answer's window was taken (`more`), the end of play (`over`), the
        end of the linger (`left`)."""
        self.records.append({"src": what, "s0": step, "s1": step, "t0": time.monotonic(),
                             "cpu": time.process_time(), **_usage()})

    def write(self) -> None:
        import gc
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        self.records.append({"src": "gc", "s0": 0, "s1": 0, "t0": time.monotonic(),
                             "seconds": {str(g): round(t, 4) for g, t in self._gc.items()},
                             "count": {str(g): n for g, n in self._gc_n.items()}})
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "w") as fh:
            for rec in self.records:
                fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
