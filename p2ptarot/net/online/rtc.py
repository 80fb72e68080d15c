"""aiortc glue: a peer connection built only from our ICE servers, and the path it took."""

from __future__ import annotations

from typing import Any

from aiortc import RTCConfiguration, RTCIceServer, RTCPeerConnection

from .config import IceServer


def peer_connection(ice: tuple[IceServer, ...]) -> RTCPeerConnection:
    """Always an explicit list (possibly empty): aiortc given None would ask a public STUN
    server, which neither the user chose nor a test network has."""
    servers = [RTCIceServer(urls=s.url, username=s.username, credential=s.credential)
               for s in ice]
    return RTCPeerConnection(RTCConfiguration(iceServers=servers))


def path_of(pc: Any) -> str:
    """``turn`` when either end of the selected ICE pair is a TURN relay candidate, else
    ``direct`` (host or server-reflexive addresses: the packets go peer to peer)."""
    try:
        connection = pc.sctp.transport.transport._connection
        pair = connection._nominated.get(1) or next(iter(connection._nominated.values()))
        types = (pair.local_candidate.type, pair.remote_candidate.type)
    except (AttributeError, StopIteration):
        return "direct"
    return "turn" if "relay" in types else "direct"
