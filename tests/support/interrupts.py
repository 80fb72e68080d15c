"""A process a test will interrupt (SIGINT, as Ctrl-C) starts as a terminal's command would: SIGINT
neither ignored nor blocked. A child inherits an ignored or blocked SIGINT from the process that
starts it, and a Python program started so never sees Ctrl-C; in full `make test` runs the
interrupt tests' peers ignored SIGINT (and passed when run alone), so these tests no longer depend
on the state the test worker is in. Pass as ``preexec_fn``."""

from __future__ import annotations

import signal


def as_from_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
