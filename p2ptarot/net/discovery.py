"""LAN discovery of open tables over zeroconf (mDNS/DNS-SD, python-zeroconf's asyncio API).

A host advertises ``<instance>._p2ptarot._tcp.local.`` with its mesh port and a TXT record
(see ``txt.py``); browsers resolve adverts into ``TableAdvert`` values.  Adverts are
untrusted input from anyone on the LAN, so parsing never raises into the browser: a bad advert
is logged and ignored.  They are also only hints: the charter and the mesh handshake are what
authenticate a table and its seats.

Browsing asks multicast (QM) questions only.  A unicast-response (QU) answer is sent to port
5353 by unicast, and when several zeroconf instances share that port on one host (several
players on one machine, parallel tests) the kernel hands it to only one of the SO_REUSEPORT
sockets, maybe not the asker (RFC 6762 section 15.1).  Answers may still wait up to a second:
a responder multicasts a record at most once per second (section 6), e.g. right after its
announcements.

``interfaces`` is a setting everywhere: ``None`` means every interface (real users); a list of
addresses such as ``["127.0.0.1"]`` confines zeroconf to those (tests, demos, and machines where
multicast on other interfaces is not allowed). python-zeroconf given ``interfaces=[addr]``
still binds its shared receiving socket to the wildcard (``0.0.0.0:5353``, joined to the group
on ``addr`` only, but receiving unicast on every interface and, Linux's IP_MULTICAST_ALL
default, the group's traffic joined by any socket of the host). ``open_zeroconf`` replaces that
socket by one bound to the group address itself (``224.0.0.251:5353``, or ``ff02::fb%card``)
with IP_MULTICAST_ALL off and without SO_REUSEPORT (see ``_group_socket``): it receives only
mDNS multicast arriving on the chosen cards. The per-card sockets zeroconf sends from are bound
to ``addr:5353``. So nothing listens on the wildcard (SECURITY §6).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import socket
import struct
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from zeroconf import (
    DNSQuestionType,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
    get_all_addresses,
)
from zeroconf import _core as zeroconf_core
from zeroconf._utils.net import InterfacesType, add_interface, normalize_interface_choice
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from p2ptarot.net.errors import MeshError
from p2ptarot.net.wsmesh import WS_PATH
from p2ptarot.net.txt import AdvertError, TableInfo, decode_txt, encode_txt
from p2ptarot.i18n.message import tr

logger = logging.getLogger(__name__)

SERVICE_TYPE = "_p2ptarot._tcp.local."
_LABEL_OK = re.compile(r"[^A-Za-z0-9-]+")


class DiscoveryError(MeshError):
    """Advertising failed (name clash, no usable address)."""


MDNS_PORT = 5353
MDNS_GROUP_V4 = "224.0.0.251"
MDNS_GROUP_V6 = "ff02::fb"
# Linux <linux/in.h>, <linux/in6.h>: 0 = deliver only the groups this very socket joined, on
# the cards it joined them on (the default 1 delivers any group joined by any socket).
_IP_MULTICAST_ALL = 49
_IPV6_MULTICAST_ALL = 29
_PATCH_LOCK = threading.Lock()


def open_zeroconf(interfaces: Sequence[str] | None) -> AsyncZeroconf:
    """An ``AsyncZeroconf`` on ``interfaces`` (None = all, the default for real users); with a
    list of addresses, every socket it holds is bound to those cards (see the module notes).
    Either IPv4 addresses, or one IPv6 address (a link-local group needs one card)."""
    if interfaces is None:
        return AsyncZeroconf(interfaces=InterfaceChoice.All)
    addresses = [str(ipaddress.ip_address(a)) for a in interfaces]
    if not addresses:
        raise ValueError("interfaces must be None or a non-empty list of addresses")
    v6 = [a for a in addresses if ":" in a]
    if v6 and (len(v6) > 1 or len(addresses) > 1):
        raise ValueError("interfaces: IPv4 addresses, or a single IPv6 address")
    version = IPVersion.V6Only if v6 else IPVersion.V4Only
    original = zeroconf_core.create_sockets

    def create_sockets(interfaces: InterfacesType = InterfaceChoice.All, unicast: bool = False,
                       ip_version: IPVersion = IPVersion.V4Only, apple_p2p: bool = False,
                       ) -> tuple[socket.socket | None, list[socket.socket]]:
        if interfaces is not addresses:  # someone else's Zeroconf, built meanwhile in a thread
            return original(interfaces, unicast, ip_version, apple_p2p=apple_p2p)
        return _bound_sockets(addresses, version)

    with _PATCH_LOCK:  # python-zeroconf has no setting for its receiving socket's address
        zeroconf_core.create_sockets = create_sockets
        try:
            return AsyncZeroconf(interfaces=addresses, ip_version=version)
        finally:
            zeroconf_core.create_sockets = original


def _bound_sockets(addresses: list[str],
                   version: IPVersion) -> tuple[socket.socket, list[socket.socket]]:
    """The receiving socket bound to the mDNS group on the chosen cards, and zeroconf's own
    per-card sending sockets (bound to each address, port 5353, and to its card)."""
    listen = _group_socket(addresses, version)
    senders = []
    try:
        for interface in normalize_interface_choice(addresses, version):
            sender = add_interface(listen, interface)
            if sender is not None:
                senders.append(sender)
                _pin_to_card(sender)
    except BaseException as exc:
        listen.close()
        for sender in senders:
            sender.close()
        if isinstance(exc, OSError):
            raise DiscoveryError(tr("zeroconf cannot use {addresses}: {exc}",
                                    addresses=", ".join(addresses), exc=exc)) from exc
        raise
    if not senders:
        listen.close()
        raise DiscoveryError(tr("zeroconf cannot use {addresses} (no such address here, or no "
                                "multicast on its card)",
                                addresses=", ".join(addresses)))
    return listen, senders


def _group_socket(addresses: list[str], version: IPVersion) -> socket.socket:
    family = socket.AF_INET6 if version is IPVersion.V6Only else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_DGRAM)
    try:
        # SO_REUSEADDR shares the port with every other mDNS stack (they all set it); never
        # SO_REUSEPORT: Linux's early demux hands a group packet to the one socket joined on its
        # card, then re-picks a member of that socket's SO_REUSEPORT group by flow hash, whatever
        # card that member joined (on 6.18 up to half the flows reached a socket of another card).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.setsockopt(socket.IPPROTO_IPV6, _IPV6_MULTICAST_ALL, 0)
            scope = _scope_of(addresses[0])
            sock.bind((MDNS_GROUP_V6, MDNS_PORT, 0, scope))
        else:
            sock.setsockopt(socket.IPPROTO_IP, _IP_MULTICAST_ALL, struct.pack("i", 0))
            sock.bind((MDNS_GROUP_V4, MDNS_PORT))
    except OSError as exc:
        sock.close()
        raise DiscoveryError(tr("cannot listen for mDNS on {addresses} only: {exc}",
                                addresses=", ".join(addresses), exc=exc)) from exc
    return sock


def _pin_to_card(sender: socket.socket) -> None:
    """Bind a sending socket to the card holding its address: Linux delivers unicast for an
    address arriving on any card (weak host model), so without this a machine on another LAN
    of this computer could hand its answers to a zeroconf bound to this card."""
    address = sender.getsockname()[0]
    card = socket.if_indextoname(_scope_of(address))
    try:
        sender.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, card.encode())
    except PermissionError:  # Linux before 5.7 asks CAP_NET_RAW for this
        logger.warning("zeroconf on %s is not bound to %s (no permission): unicast for %s "
                       "arriving on another card still reaches it", address, card, address)


def _scope_of(address: str) -> int:
    """The index of the card holding an address."""
    import ifaddr

    wanted = ipaddress.ip_address(address.split("%")[0])
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            held = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            if ipaddress.ip_address(held.split("%")[0]) == wanted:
                return int(adapter.index or 0)
    raise DiscoveryError(tr("no network card holds {address}", address=address))


@dataclass(frozen=True)
class TableAdvert:
    """One open table seen on the LAN (parsed and validated TXT plus where to dial)."""

    name: str
    instance: str
    addresses: tuple[str, ...]
    port: int
    table: TableInfo

    @property
    def host(self) -> str:
        return self.addresses[0]

    @property
    def ws_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}{WS_PATH}"


@dataclass(frozen=True)
class TableChange:
    """A table appeared, changed (e.g. seats filled) or disappeared."""

    kind: Literal["added", "updated", "removed"]
    name: str
    advert: TableAdvert | None  # None for "removed"


class TableAdvertiser:
    """Advertises one open table until closed; ``update`` republishes the TXT record."""

    def __init__(
        self,
        table: TableInfo,
        port: int,
        *,
        interfaces: Sequence[str] | None,
        addresses: Sequence[str] | None = None,
        instance: str | None = None,
        zeroconf: AsyncZeroconf | None = None,
    ) -> None:
        if not 0 < port < 65536:
            raise ValueError("port must be in 1..65535")
        encode_txt(table)  # validate early
        self.table = table
        self.port = port
        self.instance = instance or default_instance(table.game)
        if len(self.instance.encode("utf-8")) > 63:
            raise ValueError("instance name longer than 63 bytes")
        self._interfaces = interfaces
        self._addresses = list(addresses) if addresses else _default_addresses(interfaces)
        if not self._addresses:
            raise DiscoveryError(tr("no address to advertise"))
        self._probe = instance is not None  # a random default name cannot clash: no probing
        self._zc = zeroconf
        self._owns_zc = zeroconf is None
        self._info: ServiceInfo | None = None
        self._server = f"p2ptarot-{os.urandom(6).hex()}.local."
        self._announcing: asyncio.Future[object] | None = None

    @property
    def name(self) -> str:
        return f"{self.instance}.{SERVICE_TYPE}"

    @property
    def invitation(self) -> str | None:
        """A LAN table is found by browsing: no code to type."""
        return None

    async def start(self) -> None:
        """Register the table: the first announcement is out when this returns.

        A name given by the caller is probed first (about 1.2 s, RFC 6762 section 8.1); the
        default name carries 32 random bits, so probing it would only delay the table. The
        announcements that repeat the first one (every 225 ms) run in the background.
        """
        if self._zc is None:
            self._zc = open_zeroconf(self._interfaces)
        self._info = self._service_info()
        try:
            self._announcing = asyncio.ensure_future(await self._zc.async_register_service(
                self._info, cooperating_responders=not self._probe))
        except NonUniqueNameException as exc:
            raise DiscoveryError(tr("table name {instance} already advertised",
                                    instance=repr(self.instance))) from exc
        await asyncio.sleep(0)  # let the announcement task send its first packet

    async def update(self, **changes: object) -> None:
        """Change TXT fields (``seats_taken=3``, ``table_id=...``) and republish them.

        Returns once the first announcement of the new record is sent; its repetitions run in
        the background (a newer update supersedes them), so a lobby never waits on them.
        """
        table = replace(self.table, **changes)  # type: ignore[arg-type]  # `changes` are fields of the record, checked by dataclasses.replace
        encode_txt(table)
        self.table = table
        if self._zc is None or self._info is None:
            raise RuntimeError("advertiser not started")
        self._info = self._service_info()
        self._cancel_announcements()
        self._announcing = asyncio.ensure_future(await self._zc.async_update_service(self._info))
        await asyncio.sleep(0)

    def _cancel_announcements(self) -> None:
        if self._announcing is not None and not self._announcing.done():
            self._announcing.cancel()
        self._announcing = None

    async def close(self) -> None:
        """Unregister (sends goodbye packets so browsers drop the table at once)."""
        self._cancel_announcements()
        zc, info = self._zc, self._info
        self._info = None
        if zc is None:
            return
        if info is not None:
            with contextlib.suppress(Exception):
                await (await zc.async_unregister_service(info))
        if self._owns_zc:
            self._zc = None
            await zc.async_close()

    async def __aenter__(self) -> TableAdvertiser:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _service_info(self) -> ServiceInfo:
        return ServiceInfo(
            SERVICE_TYPE,
            self.name,
            parsed_addresses=self._addresses,
            port=self.port,
            properties=encode_txt(self.table),
            server=self._server,
        )


class TableBrowser:
    """Continuously tracks open tables; report changes via callback and/or ``changes()``."""

    def __init__(
        self,
        *,
        interfaces: Sequence[str] | None,
        zeroconf: AsyncZeroconf | None = None,
        on_change: Callable[[TableChange], None] | None = None,
        resolve_timeout: float = 3.0,
    ) -> None:
        self._interfaces = interfaces
        self._zc = zeroconf
        self._owns_zc = zeroconf is None
        self._on_change = on_change
        self._resolve_ms = int(resolve_timeout * 1000)
        self._browser: AsyncServiceBrowser | None = None
        self._tables: dict[str, TableAdvert] = {}
        self._generation: dict[str, int] = {}
        self._queue: asyncio.Queue[TableChange] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def tables(self) -> dict[str, TableAdvert]:
        """Snapshot of the tables currently seen, by service name."""
        return dict(self._tables)

    async def start(self) -> None:
        if self._zc is None:
            self._zc = open_zeroconf(self._interfaces)
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf,
            SERVICE_TYPE,
            handlers=[self._on_state_change],
            question_type=DNSQuestionType.QM,
        )

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._zc is not None and self._owns_zc:
            zc, self._zc = self._zc, None
            await zc.async_close()

    async def __aenter__(self) -> TableBrowser:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def next_change(self) -> TableChange:
        return await self._queue.get()

    async def changes(self) -> AsyncIterator[TableChange]:
        while True:
            yield await self._queue.get()

    def _on_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        generation = self._generation.get(name, 0) + 1
        self._generation[name] = generation
        if state_change is ServiceStateChange.Removed:
            if self._tables.pop(name, None) is not None:
                self._publish(TableChange("removed", name, None))
            return
        task = asyncio.ensure_future(self._resolve(zeroconf, service_type, name, generation))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(
        self, zeroconf: Zeroconf, service_type: str, name: str, generation: int
    ) -> None:
        info = AsyncServiceInfo(service_type, name)
        try:
            found = await info.async_request(
                zeroconf, self._resolve_ms, question_type=DNSQuestionType.QM
            )
        except Exception:  # resolving is best effort: a bad responder must not hurt us
            logger.info("could not resolve %s", name, exc_info=True)
            return
        if not found or self._generation.get(name) != generation:
            return
        advert = advert_from_info(info)
        if advert is None:
            return
        previous = self._tables.get(name)
        if previous == advert:
            return
        self._tables[name] = advert
        self._publish(TableChange("updated" if previous else "added", name, advert))

    def _publish(self, change: TableChange) -> None:
        self._queue.put_nowait(change)
        if self._on_change is not None:
            try:
                self._on_change(change)
            except Exception:
                logger.exception("table change callback failed")


async def browse_tables(
    interfaces: Sequence[str] | None, timeout: float = 3.0,
    progress: Callable[[float, int], None] | None = None, every: float = 0.1,
) -> list[TableAdvert]:
    """Listen for ``timeout`` seconds and return every valid open table seen; `progress(elapsed,
    tables seen so far)` is called every `every` seconds meanwhile (a spinner)."""
    async with TableBrowser(interfaces=interfaces) as browser:
        loop = asyncio.get_running_loop()
        start = loop.time()
        while (elapsed := loop.time() - start) < timeout:
            if progress is not None:
                progress(elapsed, len(browser.tables))
            await asyncio.sleep(min(every, timeout - elapsed))
        return sorted(browser.tables.values(), key=lambda a: a.name)


def advert_from_info(info: ServiceInfo) -> TableAdvert | None:
    """Validate a resolved service; None (and a log line) for anything malformed."""
    name = info.name
    if not name.endswith("." + SERVICE_TYPE):
        return None
    try:
        table = decode_txt(dict(info.properties))
    except AdvertError as exc:
        logger.info("ignoring advert %s: %s", name, exc)
        return None
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only)) or tuple(info.parsed_addresses())
    if not addresses or not info.port:
        logger.info("ignoring advert %s: no address or port", name)
        return None
    instance = name[: -len(SERVICE_TYPE) - 1]
    return TableAdvert(name=name, instance=instance, addresses=addresses, port=info.port,
                       table=table)


def default_instance(game: str) -> str:
    """A unique, DNS-safe instance label (the random part keeps same-game tables apart)."""
    stem = _LABEL_OK.sub("-", game).strip("-")[:40] or "table"
    return f"p2ptarot-{stem}-{os.urandom(4).hex()}"


def _default_addresses(interfaces: Sequence[str] | None) -> list[str]:
    if interfaces is not None:
        return [str(ipaddress.ip_address(a)) for a in interfaces]
    found = [a for a in get_all_addresses() if not a.startswith("127.")]
    if not found:
        with contextlib.suppress(OSError):
            found = [socket.gethostbyname(socket.gethostname())]
    return found
