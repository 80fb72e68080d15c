"""Keeps the WebRTC libraries' own after-the-fact errors out of a player's terminal.

aioice retries a STUN transaction on a timer after its socket closed, and leaves a candidate
gathering task pending when a connection is closed mid-gathering; aiortc does the same with the
peer connection it closes by itself. asyncio reports each through the loop's exception handler,
as a traceback on stderr, in the middle of a game that goes on unharmed (ICE fails over to the
relay, the link heals). Those reports, and only those, go to this module's debug log."""

from __future__ import annotations

import asyncio
import logging
import traceback
from typing import Any

logger = logging.getLogger(__name__)

#: where a report must come from to be the libraries' noise (a path part of the frame's file)
LIBRARIES = ("/aioice/", "/aiortc/")
_MARK = "_p2ptarot_quiet_ice"


def from_ice_libraries(context: dict[str, Any]) -> bool:
    """Whether a loop exception report was raised in, or is about a task or callback of, aioice
    or aiortc."""
    exc = context.get("exception")
    if isinstance(exc, BaseException) and exc.__traceback__ is not None:
        files = [frame.filename for frame in traceback.extract_tb(exc.__traceback__)]
        if any(part in f for f in files for part in LIBRARIES):
            return True
        context_exc = exc.__context__
        if context_exc is not None and context_exc.__traceback__ is not None:
            files = [frame.filename for frame in traceback.extract_tb(context_exc.__traceback__)]
            if any(part in f for f in files for part in LIBRARIES):
                return True
    for key in ("task", "future", "handle"):
        about = context.get(key)
        if about is not None and any(part.strip("/") in repr(about) for part in LIBRARIES):
            return True
    return False


def quiet_ice_noise(loop: asyncio.AbstractEventLoop) -> None:
    """Route the loop's exception reports that come from aioice or aiortc to the debug log; any
    other report goes where it went before (once per loop)."""
    if getattr(loop, _MARK, False):
        return
    previous = loop.get_exception_handler()

    def handler(the_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if from_ice_libraries(context):
            logger.debug("WebRTC library: %s", context.get("message"),
                         exc_info=context.get("exception"))
        elif previous is not None:
            previous(the_loop, context)
        else:
            the_loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
    setattr(loop, _MARK, True)
