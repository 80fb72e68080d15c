"""The peer application layer between the table runner and the front ends (terminal, browser).

Sans-I/O where it can be: `TableApp` turns what the session did into typed events
(`p2ptarot.app.events`), `screen` builds what a front end draws from a view and the game's
presenter; `Hub` fans the events out and carries commands back.
"""

from __future__ import annotations

from typing import Any

from .events import *  # noqa: F401,F403
from .events import __all__ as _events_all

__all__ = ["Hub", "TableApp", *_events_all]


def __getattr__(name: str) -> Any:
    """`Hub` and `TableApp` load asyncio: imported on first use, so `verify` and `replay` (which
    use the replay frames only) stay free of the event loop and the network stack."""
    if name in ("Hub", "TableApp"):
        from . import table
        return getattr(table, name)
    raise AttributeError(name)
