"""Links between peers in different homes: WebRTC data channels (aiortc) signalled over NOSTR
relays, and the relays themselves as the last-resort path.  ``OnlineMesh`` offers the same
interface as the LAN websocket ``Mesh``, so the table above it does not know which it has.

This package is the online stack's one front door: its names load on first use (PEP 562), so
a command line that merely *offers* online options (every `host`, `join`, `web`) imports no
aiortc, coincurve or relay client until a command really goes online.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: names loaded on first use -> their module (absolute, under p2ptarot.net)
_LAZY = {
    "OnlineConfig": "online.config", "OnlineConfigError": "online.config",
    "IceServer": "online.config", "check_relay": "online.config",
    "default_relays": "online.config", "parse_turn": "online.config",
    "OnlineTransport": "online.transport", "OnlineAdvert": "online.transport",
    "nostr_key_for": "online.transport", "OnlineMesh": "online.mesh",
    "OnlineTable": "online.finder", "OnlineBrowser": "online.finder",
    "browse_online": "online.finder", "find_code": "online.finder",
    "code_of": "nostr.adverts", "normalize_code": "nostr.adverts", "show_code": "nostr.adverts",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"p2ptarot.net.{module}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from ..nostr.adverts import code_of, normalize_code, show_code
    from .config import (IceServer, OnlineConfig, OnlineConfigError, check_relay,
                         default_relays, parse_turn)
    from .finder import OnlineBrowser, OnlineTable, browse_online, find_code
    from .mesh import OnlineMesh
    from .transport import OnlineAdvert, OnlineTransport, nostr_key_for
