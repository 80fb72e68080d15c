"""Links between peers in different homes: WebRTC data channels (aiortc) signalled over NOSTR
relays, and the relays themselves as the last-resort path.  ``OnlineMesh`` offers the same
interface as the LAN websocket ``Mesh``, so the table above it does not know which it has.
"""
