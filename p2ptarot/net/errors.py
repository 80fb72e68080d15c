"""Error types of the network layer, so callers can catch transport trouble in one place."""

from __future__ import annotations


class MeshError(Exception):
    """Base class for every error the mesh raises."""


class HandshakeError(MeshError):
    """The link could not be authenticated; ``code`` is the websocket close code sent/received."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"{reason} (close code {code})")
        self.code = code
        self.reason = reason


class ConnectError(MeshError):
    """An outgoing connection could not be opened (refused, unreachable, timed out)."""


class NoLinkError(MeshError):
    """There is no open authenticated link to that peer (never connected, or it went down)."""


class MessageTooLarge(MeshError):
    """An outgoing message exceeds the configured maximum; sending it would get the link closed."""
