"""A fault point for tests: a peer that stops itself (SIGSTOP) just before it sends its first
message of one kind, so a test strikes a phase that lasts milliseconds with bots (the final
audit and the signing of the result) every time, not when a watcher happens to be quick enough.

Off unless the environment names a message kind in `P2PTAROT_TEST_STOP_BEFORE` (tests set it;
no player does). The test that sets it wakes the peer with SIGCONT; everything else — links
dropping while it sleeps, healing, catching up — is the real peer's.
"""

from __future__ import annotations

import os
import signal

ENV = "P2PTAROT_TEST_STOP_BEFORE"


class StopBefore:
    """Stops this process once, before its first message of kind `kind` leaves."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.done = False

    @classmethod
    def from_env(cls) -> StopBefore | None:
        kind = os.environ.get(ENV)
        return cls(kind) if kind else None

    def before_send(self, kind: str) -> None:
        if not self.done and kind == self.kind:
            self.done = True
            os.kill(os.getpid(), signal.SIGSTOP)
