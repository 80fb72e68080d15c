"""The only I/O layer: an authenticated websocket mesh between table peers and zeroconf
discovery of open tables.  Everything above it is sans-I/O and sees bytes and events.
"""

from .discovery import (
    SERVICE_TYPE,
    DiscoveryError,
    TableAdvert,
    TableAdvertiser,
    TableBrowser,
    TableChange,
    browse_tables,
    open_zeroconf,
)
from .errors import ConnectError, HandshakeError, MeshError, MessageTooLarge, NoLinkError
from .events import FrameDropped, LinkDown, LinkRejected, LinkUp, MeshEvent, PeerKey, Received
from .handshake import Signer
from .transport import WS_PATH, LinkInfo, Mesh, MeshConfig
from .txt import AdvertError, TableInfo

__all__ = [
    "SERVICE_TYPE", "DiscoveryError", "TableAdvert", "TableAdvertiser", "TableBrowser",
    "TableChange", "browse_tables", "open_zeroconf",
    "ConnectError", "HandshakeError", "MeshError", "MessageTooLarge", "NoLinkError",
    "FrameDropped", "LinkDown", "LinkRejected", "LinkUp", "MeshEvent", "PeerKey", "Received",
    "Signer", "WS_PATH", "LinkInfo", "Mesh", "MeshConfig", "AdvertError", "TableInfo",
]
