"""Finding online tables: list the open adverts on the relays, or the one an invitation code
names.  Adverts are hints (the charter is authoritative); only live, well-formed adverts whose
author hashes to their code are kept (``nostr.adverts.parse_advert``)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from ..nostr.adverts import ADVERT_KIND, ADVERT_TTL, TOPIC, address_of, parse_advert
from ..nostr.pool import RelayPool
from ..txt import TableInfo


@dataclass(frozen=True)
class OnlineTable:
    code: str
    table: TableInfo
    address: str  # nostr:<host key>, what `join` dials
    created_at: int


async def browse_online(relays: list[str], wait: float, code: str | None = None,
                        stop_at_first: bool = False) -> list[OnlineTable]:
    """Open tables advertised on ``relays`` within ``wait`` seconds (newest advert per host)."""
    found: dict[str, OnlineTable] = {}
    flt: dict[str, object] = {"kinds": [ADVERT_KIND], "#t": [TOPIC],
                              "since": int(time.time()) - ADVERT_TTL}
    if code is not None:
        flt["#d"] = [code]
    async with RelayPool(relays) as pool:
        await pool.subscribe("p2ptarot-adverts", [flt])
        end = time.monotonic() + wait
        while (left := end - time.monotonic()) > 0:
            try:
                delivered = await asyncio.wait_for(pool.next_event(), left)
            except TimeoutError:
                break
            parsed = parse_advert(delivered.event, int(time.time()))
            if parsed is None or (code is not None and parsed[0] != code):
                continue
            event = delivered.event
            known = found.get(parsed[0])
            if known is None or known.created_at < event.created_at:
                found[parsed[0]] = OnlineTable(parsed[0], parsed[1], address_of(event.pubkey),
                                               event.created_at)
            if stop_at_first:
                break
    return sorted(found.values(), key=lambda t: -t.created_at)


async def find_code(relays: list[str], code: str, wait: float) -> OnlineTable | None:
    """The table an invitation code names, or None when no relay knows it within ``wait``."""
    tables = await browse_online(relays, wait, code=code, stop_at_first=True)
    return tables[0] if tables else None
