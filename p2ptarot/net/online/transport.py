"""The online transport: ``OnlineMesh`` links and NOSTR adverts (the ``net.link`` interfaces).

A peer's NOSTR key is derived from its table identity (SHA-256 of the identity's deterministic
Ed25519 signature over a fixed label, which nothing else ever signs): the seat address written
in the charter (``nostr:<key>``) stays this peer's mailbox when it resumes the table, with
nothing more to store.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..handshake import Signer
from ..link import Links
from ..nostr.adverts import ADVERT_TTL, code_of, make_advert, show_code
from ..nostr.keys import KeyError_, NostrKey
from ..nostr.pool import RelayNotice
from ..txt import TableInfo
from .config import OnlineConfig
from .mesh import OnlineMesh

logger = logging.getLogger(__name__)

_KEY_LABEL = b"p2ptarot/nostr-key/v1"


def nostr_key_for(identity: Signer) -> NostrKey:
    """This identity's NOSTR key (stable: the same identity always gets the same key)."""
    digest = hashlib.sha256(_KEY_LABEL + b"\x00" + identity.sign(_KEY_LABEL)).digest()
    while True:
        try:
            return NostrKey(digest)
        except KeyError_:  # zero or >= n: probability 2^-128
            digest = hashlib.sha256(digest).digest()


@dataclass
class OnlineTransport:
    """Links over WebRTC/relays and adverts on the relays, with the user's ``config``."""

    config: OnlineConfig
    #: told (peer key, path, rtt seconds or None) when a link is up and measured
    on_link: Callable[[bytes, str, float | None], None] | None = None
    meshes: list[OnlineMesh] = field(default_factory=list)
    #: told what a relay did that the player should hear of (a refusal, a drop, a shrink), and
    #: ``what == "failed"`` when no relay is left to carry the table
    on_relay: Callable[[RelayNotice], None] | None = None

    def open(self, identity: Signer, address: str | None = None) -> OnlineMesh:
        mesh = OnlineMesh(identity, self.config, key=nostr_key_for(identity))
        mesh.on_link = self.on_link
        mesh.pool.on_notice = self.on_relay
        mesh.pool.auth_keys = self.config.auth_keys()  # NIP-42: read at the pool's start
        self.meshes.append(mesh)
        return mesh

    def paths(self) -> dict[bytes, tuple[str, float | None]]:
        """Every peer's latest path and RTT over this transport's meshes."""
        out: dict[bytes, tuple[str, float | None]] = {}
        for mesh in self.meshes:
            out.update(mesh.seen)
        return out

    def advert(self, info: TableInfo, links: Links) -> OnlineAdvert:
        """An advert on the relays of the table hosted on ``links`` (this transport's mesh)."""
        if not isinstance(links, OnlineMesh):
            raise TypeError("an online advert needs the links of an online transport")
        return OnlineAdvert(info, links)


class OnlineAdvert:
    """An open table on the relays: published now, re-published every third of its lifetime
    (so it expires soon after the host is gone), withdrawn at close."""

    def __init__(self, info: TableInfo, links: OnlineMesh) -> None:
        self.info = info
        self.links = links
        self.code = code_of(links.nostr.public_hex)
        self._task: asyncio.Task[None] | None = None
        self._last = 0  # created_at of the last advert: each must be newer to replace it

    @property
    def invitation(self) -> str:
        """The code as people type it (``XXXXX-XXXXX``)."""
        return show_code(self.code)

    async def _publish(self, ttl: int | None = None) -> None:
        # a withdrawn advert replaces the live one (same address, newer) and expires at once
        self._last = max(int(time.time()), self._last + 1)
        event = make_advert(self.links.nostr, self.info, self._last, ttl or ADVERT_TTL)
        if not await self.links.pool.publish(event):
            logger.info("no relay connected: the advert waits for the next round")

    async def _refresh(self) -> None:
        while True:
            await self._publish()
            await asyncio.sleep(ADVERT_TTL / 3)

    async def start(self) -> None:
        await self.links.pool.wait_connected(self.links.config.handshake_timeout)
        self._task = asyncio.create_task(self._refresh())

    async def update(self, **changes: object) -> None:
        self.info = replace(self.info, **changes)  # type: ignore[arg-type]  # `changes` are fields of the record, checked by dataclasses.replace
        await self._publish()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
            with contextlib.suppress(Exception):
                await self._publish(ttl=1)
