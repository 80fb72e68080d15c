"""The LAN transport: websocket links (`transport.Mesh`) and zeroconf adverts on one interface."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from p2ptarot import PROTOCOL_VERSION

from .handshake import Signer
from .link import Advert, Links
from .wsmesh import Mesh, MeshConfig
from .txt import TableInfo

#: seconds between websocket pings; a link whose peer answers none for this long is dropped
DEFAULT_HEARTBEAT = 15.0


def port_of(address: str) -> int:
    """The port of a `ws://host:port/path` address (0 when it names none)."""
    try:
        return int(address.rsplit(":", 1)[1].split("/")[0]) if address else 0
    except (IndexError, ValueError):
        return 0


@dataclass(frozen=True)
class LanTransport:
    """Links over websockets bound to `interface` (None: every interface, for real users; tests
    and demos pass 127.0.0.1), tables advertised by zeroconf on that interface only."""

    interface: str | None = None
    port: int = 0
    heartbeat: float = DEFAULT_HEARTBEAT

    def open(self, identity: Signer, address: str | None = None
             ) -> AbstractAsyncContextManager[Links]:
        port = port_of(address) if address else self.port
        return Mesh(identity, MeshConfig(host=self.interface or "0.0.0.0", port=port,
                                         protocol_version=PROTOCOL_VERSION,
                                         heartbeat=self.heartbeat))

    def advert(self, info: TableInfo, links: Links) -> Advert:
        from .discovery import TableAdvertiser  # local: a joiner dialling ws:// needs no zeroconf

        return TableAdvertiser(info, port_of(links.address),
                               interfaces=[self.interface] if self.interface else None,
                               addresses=[self.interface] if self.interface else None)
