"""The peer application layer between the table runner and the front ends (terminal, browser).

Sans-I/O where it can be: `TableApp` turns what the session did into typed events
(`p2ptarot.app.events`), `screen` builds what a front end draws from a view and the game's
presenter; `Hub` fans the events out and carries commands back.
"""

from .events import *  # noqa: F401,F403
from .events import __all__ as _events_all
from .table import Hub, TableApp

__all__ = ["Hub", "TableApp", *_events_all]
