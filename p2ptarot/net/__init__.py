"""Transport only: links, their handshake and limits, and discovery of open tables.

`link` is the interface a peer (`p2ptarot.peer`) plays over: a set of authenticated links keyed
by peer public key. `linkset.LinkSet` is its sans-I/O core (handshake, admission, liveness, pace,
close codes, events), `carrier.Carrier` runs it; `wsmesh.Mesh` carries it over websockets,
`online.OnlineMesh` over WebRTC and relay channels; `lan.LanTransport` pairs the websocket mesh
with zeroconf adverts (`discovery`). This package imports nothing from `peer`, `app` or the front
ends (tests/test_layers.py checks it).

The names below are loaded on first use (PEP 562): importing one light submodule must not pull in
aiohttp and zeroconf, and a peer that dials a ws:// address directly never imports zeroconf.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2ptarot._lazy import lazy_names

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(("SERVICE_TYPE", "DiscoveryError", "TableAdvert", "TableAdvertiser",
                     "TableBrowser", "TableChange", "browse_tables", "open_zeroconf"), "discovery"),
    **dict.fromkeys(("ConnectError", "HandshakeError", "MeshError", "MessageTooLarge",
                     "NoLinkError"), "errors"),
    **dict.fromkeys(("FrameDropped", "LinkDown", "LinkRejected", "LinkUp", "MeshEvent", "PeerKey",
                     "Received"), "events"),
    "Signer": "handshake",
    **dict.fromkeys(("Advert", "LinkEvent", "Links", "Transport"), "link"),
    **dict.fromkeys(("DEFAULT_HEARTBEAT", "LanTransport"), "lan"),
    **dict.fromkeys(("LinkInfo", "LinkPolicy", "LinkSet"), "linkset"),
    **dict.fromkeys(("WS_PATH", "Mesh", "MeshConfig"), "wsmesh"),
    **dict.fromkeys(("AdvertError", "TableInfo"), "txt"),
}

__all__ = list(_EXPORTS)


__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)


if TYPE_CHECKING:  # the eager form, for type checkers and editors
    from .discovery import (SERVICE_TYPE, DiscoveryError, TableAdvert, TableAdvertiser,
                            TableBrowser, TableChange, browse_tables, open_zeroconf)
    from .errors import ConnectError, HandshakeError, MeshError, MessageTooLarge, NoLinkError
    from .events import (FrameDropped, LinkDown, LinkRejected, LinkUp, MeshEvent, PeerKey,
                         Received)
    from .handshake import Signer
    from .lan import DEFAULT_HEARTBEAT, LanTransport
    from .link import Advert, LinkEvent, Links, Transport
    from .linkset import LinkInfo, LinkPolicy, LinkSet
    from .wsmesh import WS_PATH, Mesh, MeshConfig
    from .txt import AdvertError, TableInfo
