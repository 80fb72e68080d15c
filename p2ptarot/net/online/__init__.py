"""Links between peers in different homes: WebRTC data channels (aiortc) signalled over NOSTR
relays, and the relays themselves as the last-resort path.  ``OnlineMesh`` offers the same
interface as the LAN websocket ``Mesh``, so the table above it does not know which it has.

This package is the online stack's one front door: its names load on first use (PEP 562), so
a command line that merely *offers* online options (every `host`, `join`, `web`) imports no
aiortc, coincurve or relay client until a command really goes online.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot._lazy import lazy_names

#: names loaded on first use -> their module (a submodule, or a path relative to this package)
_LAZY = {
    "OnlineConfig": "config", "OnlineConfigError": "config",
    "IceServer": "config", "check_relay": "config",
    "default_relays": "config", "parse_turn": "config", "default_ice": "config",
    "read_relay_keys": "config", "auth_keys": "config",
    "OnlineTransport": "transport", "OnlineAdvert": "transport",
    "nostr_key_for": "transport", "OnlineMesh": "mesh",
    "OnlineTable": "finder", "OnlineBrowser": "finder",
    "browse_online": "finder", "find_code": "finder", "RelaysFailed": "finder",
    "RelayNotice": "..nostr.pool",
    "code_of": "..nostr.adverts", "normalize_code": "..nostr.adverts", "show_code": "..nostr.adverts",
}

__all__ = list(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


if TYPE_CHECKING:  # `X as X`: re-exported for the type checker (the names load lazily)
    from ..nostr.adverts import code_of as code_of, normalize_code as normalize_code
    from ..nostr.adverts import show_code as show_code
    from ..nostr.pool import RelayNotice as RelayNotice
    from .config import IceServer as IceServer, OnlineConfig as OnlineConfig
    from .config import OnlineConfigError as OnlineConfigError, check_relay as check_relay
    from .config import default_ice as default_ice, default_relays as default_relays
    from .config import parse_turn as parse_turn, auth_keys as auth_keys
    from .config import read_relay_keys as read_relay_keys
    from .finder import OnlineBrowser as OnlineBrowser, OnlineTable as OnlineTable
    from .finder import RelaysFailed as RelaysFailed, browse_online as browse_online
    from .finder import find_code as find_code
    from .mesh import OnlineMesh as OnlineMesh
    from .transport import OnlineAdvert as OnlineAdvert, OnlineTransport as OnlineTransport
    from .transport import nostr_key_for as nostr_key_for
