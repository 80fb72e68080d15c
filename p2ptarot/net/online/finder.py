"""Finding online tables: list the open adverts on the relays, or the one an invitation code
names.  Adverts are hints (the charter is authoritative); only live, well-formed adverts whose
author hashes to their code are kept (``nostr.adverts.parse_advert``), and a code that adverts of
two authors carry is refused (`CodeClash`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..nostr.adverts import (ADVERT_KIND, ADVERT_TTL, TOPIC, address_of, code_of, parse_advert,
                             show_code)
from ..nostr.pool import RelayNotice, RelayPool
from ..txt import TableInfo
from p2ptarot.i18n.message import tr

if TYPE_CHECKING:  # the keys load coincurve: only where a relay asks for them
    from ..nostr.keys import NostrKey


@dataclass(frozen=True)
class OnlineTable:
    code: str
    table: TableInfo
    address: str  # nostr:<host key>, what `join` dials
    created_at: int


class CodeClash(LookupError):
    """Adverts of several authors carry one invitation code: someone ground a key to squat it."""


async def browse_online(relays: list[str], wait: float, code: str | None = None,
                        settle: float | None = None,
                        on_notice: Callable[[RelayNotice], None] | None = None,
                        auth_keys: dict[str, NostrKey] | None = None) -> list[OnlineTable]:
    """Open tables advertised on ``relays`` within ``wait`` seconds (newest advert per author).
    The subscription asks for every advert still live (``since`` one advert lifetime ago: three
    re-publish periods).  With ``settle``, stop that many seconds after the first table is
    found, but never before every relay in use sent all it stores (its EOSE) or ``wait`` ran
    out: a second advert of the same code, on any relay, is always seen."""
    found: dict[str, OnlineTable] = {}  # author address -> newest table
    flt: dict[str, object] = {"kinds": [ADVERT_KIND], "#t": [TOPIC],
                              "since": int(time.time()) - ADVERT_TTL}
    if code is not None:
        flt["#d"] = [code]
    sub = "p2ptarot-adverts"
    async with RelayPool(relays, on_notice=on_notice, give_up=min(wait, 45.0),
                         auth_keys=auth_keys) as pool:
        await pool.subscribe(sub, [flt])
        stored = asyncio.ensure_future(pool.wait_stored(sub, wait))
        end = time.monotonic() + wait
        settled: float | None = None
        try:
            while (left := end - time.monotonic()) > 0 and not pool.failed.is_set():
                if settled is not None and stored.done():
                    left = min(left, settled - time.monotonic())
                    if left <= 0:
                        break
                try:  # (asyncio.timeout: 3.11's wait_for can drop a cancellation)
                    async with asyncio.timeout(min(left, 0.5)):
                        delivered = await pool.next_event()
                except TimeoutError:
                    continue
                parsed = parse_advert(delivered.event, int(time.time()))
                if parsed is None or (code is not None and parsed[0] != code):
                    continue
                event = delivered.event
                address = address_of(event.pubkey)
                known = found.get(address)
                if known is None or known.created_at < event.created_at:
                    found[address] = OnlineTable(parsed[0], parsed[1], address, event.created_at)
                if settle is not None and settled is None:
                    settled = time.monotonic() + settle
        finally:
            stored.cancel()
        if pool.failed.is_set() and not found:
            raise RelaysFailed(pool.failure)
    return sorted(found.values(), key=lambda t: -t.created_at)


class RelaysFailed(ConnectionError):
    """No relay could be asked: each refused us or was never reachable (``str``: why, per
    relay)."""


#: seconds `find_code` keeps listening after the first advert, for a second one with the code
CODE_SETTLE = 2.0


async def find_code(relays: list[str], code: str, wait: float,
                    settle: float = CODE_SETTLE,
                    on_notice: Callable[[RelayNotice], None] | None = None,
                    auth_keys: dict[str, NostrKey] | None = None
                    ) -> OnlineTable | None:
    """The table an invitation code names, or None when no relay knows it within ``wait``.
    Raises `CodeClash` when adverts of two authors carry the code: the joiner cannot tell the
    host from an impostor, so it goes nowhere (the host can give its fingerprint instead)."""
    tables = await browse_online(relays, wait, code=code, settle=settle, on_notice=on_notice,
                                 auth_keys=auth_keys)
    if len(tables) > 1:
        raise CodeClash(tr("{count} different hosts advertise the code {code}: someone is "
                           "impersonating the table; ask the host for their fingerprint",
                           count=len(tables), code=show_code(code)))
    return tables[0] if tables else None


#: tables an online lobby keeps at most (the least recently advertised go first)
MAX_LISTED = 256


class OnlineBrowser:
    """The open tables on ``relays``, kept current for a lobby page: one subscription; a newer
    advert replaces an older one, and a table leaves the list when its advert expires or is
    withdrawn (a newer advert of the same author that is no longer live)."""

    def __init__(self, relays: list[str],
                 on_notice: Callable[[RelayNotice], None] | None = None,
                 auth_keys: dict[str, NostrKey] | None = None) -> None:
        self.pool = RelayPool(relays, on_notice=on_notice, auth_keys=auth_keys)
        self._found: dict[str, tuple[OnlineTable, int]] = {}  # code -> (table, expiry)
        self._newest: dict[str, int] = {}  # code -> created_at of its newest advert seen
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> OnlineBrowser:
        await self.pool.start()
        await self.pool.subscribe("p2ptarot-lobby", [{"kinds": [ADVERT_KIND], "#t": [TOPIC],
                                                      "since": int(time.time()) - ADVERT_TTL}])
        self._task = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.pool.close(settle=0)

    @property
    def tables(self) -> list[OnlineTable]:
        """The live tables, newest first."""
        now = int(time.time())
        live = [table for table, expiry in self._found.values() if expiry > now]
        return sorted(live, key=lambda t: -t.created_at)

    async def _read(self) -> None:
        while True:
            event = (await self.pool.next_event()).event
            code = code_of(event.pubkey)
            if event.tag("d") != code or self._newest.get(code, -1) >= event.created_at:
                continue  # another author's code, or an older advert than one already seen
            self._newest[code] = event.created_at
            if len(self._newest) > MAX_LISTED * 4:  # a relay flooding adverts: memory bounded
                self._newest.pop(next(iter(self._newest)))
            parsed = parse_advert(event, int(time.time()))
            if parsed is None:  # withdrawn (or malformed): the table is no longer listed
                self._found.pop(code, None)
                continue
            expiry = int(event.tag("expiration") or 0)
            self._found.pop(code, None)
            self._found[code] = (OnlineTable(code, parsed[1], address_of(event.pubkey),
                                             event.created_at), expiry)
            if len(self._found) > MAX_LISTED:
                self._found.pop(next(iter(self._found)))
