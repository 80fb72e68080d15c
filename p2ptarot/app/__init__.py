"""The peer application layer between the peer's game pump and the front ends (terminal, browser).

Sans-I/O where it can be: `TableApp` turns what the session did into typed events
(`p2ptarot.app.events`), `screen` builds what a front end draws from a view and the game's
presenter; `Hub` fans the events out and carries commands back.
"""

from __future__ import annotations

from p2ptarot._lazy import lazy_names

from .events import *  # noqa: F401,F403
from .events import __all__ as _events_all

#: names loaded on first use -> their module
_LAZY = {"Hub": "hub", "TableApp": "table", "MoveOption": "..present.options",
         "LeftTable": "human", "human_seat": "human", "until_left": "human"}

__all__ = [*_LAZY, *_events_all]


#: `Hub` and `TableApp` load asyncio: imported on first use, so `verify` and `replay` (which use
#: the replay frames only) stay free of the event loop and the network stack; the human seat's
#: pieces (forms, screens, presenters) load only for a peer that has a player, not for a bot
#: peer (issue 26: ~70 ms of CPU per bot process); `MoveOption` would load the presenters too.
__getattr__, __dir__ = lazy_names(__name__, _LAZY)
