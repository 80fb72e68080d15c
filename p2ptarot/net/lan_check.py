"""The doctor's LAN check: which cards zeroconf uses, and whether mDNS multicast from another
computer is heard on them.

Hearing our own multicast proves nothing (the kernel loops it back to every socket of this
computer), so the probe listens for another computer: it registers a short-lived
``doctor-<random>._p2ptarot-doctor._tcp.local.`` service and, for ``wait`` seconds, browses
for other doctors' probes and for p2ptarot tables, through zeroconf bound to the same cards a
table would use (``open_zeroconf``).  A service counts when it resolves to an address this
computer does not hold (on loopback, the LAN is this computer: any other probe counts).  Other
services (printers, phones) are not counted: the DNS-SD type enumeration cannot tell which
computer answered.  Silence means either nobody else is there or the network drops multicast:
two doctors run at once on two computers tell them apart.  The probe contacts no server and
sends only mDNS on the cards chosen.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from dataclasses import dataclass, field

from zeroconf import IPVersion, ServiceInfo, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo

from p2ptarot.i18n.message import Message, tr
from p2ptarot.net.discovery import SERVICE_TYPE, _default_addresses, open_zeroconf

#: the probe's own service type (never a table's: `list` does not show it)
PROBE_TYPE = "_p2ptarot-doctor._tcp.local."
#: seconds the probe listens by default (zeroconf queries at 0, 1 and 3 s)
LAN_WAIT = 4.0

#: the check's sentences (messages: English as they are, said in the player's language by the
#: front ends); the two with fields are made where they are filled
NO_CARD = tr("no network card with an IPv4 address")
RUN_TWO = tr("to tell, run `p2ptarot doctor` on another computer of this network at the same "
             "time; if it still hears nothing, the router or Wi-Fi drops multicast (mDNS, UDP "
             "5353)")


def lan_heard(where: str) -> Message:
    return tr("multicast is heard on {where}: tables on this network will be found", where=where)


def not_heard(where: str, seconds: str) -> Message:
    return tr("no other computer answered mDNS on {where} within {seconds} s: none is there, or "
              "the network drops multicast", where=where, seconds=seconds)


@dataclass
class LanCheck:
    #: (card, address) zeroconf uses: the `--interface` given, or every card but loopback
    cards: list[tuple[str, str]] = field(default_factory=list)
    #: our probe's service name (others hear this)
    own: str = ""
    #: names heard from others: doctors' probes, tables, service types
    heard: list[str] = field(default_factory=list)
    problem: str = ""
    wait: float = LAN_WAIT  # seconds listened


def card_of(address: str) -> str:
    """The name of the card holding ``address`` ("?" when none does)."""
    import ifaddr
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and ip.ip == address:
                return adapter.nice_name
    return "?"


def _own_addresses() -> list[str]:
    import ifaddr
    return [ip.ip for a in ifaddr.get_adapters() for ip in a.ips if isinstance(ip.ip, str)]


async def check_lan(interface: str | None, wait: float = LAN_WAIT) -> LanCheck:
    """Register a probe on the cards zeroconf would use for ``interface`` (None: all) and
    listen ``wait`` seconds for anyone else's mDNS."""
    addresses = _default_addresses([interface] if interface else None)
    result = LanCheck(cards=[(card_of(a), a) for a in addresses], wait=wait)
    if not addresses:
        result.problem = NO_CARD
        return result
    label = f"doctor-{os.urandom(4).hex()}"
    result.own = f"{label}.{PROBE_TYPE}"
    heard: set[str] = set()
    loopback = all(a.startswith("127.") for a in addresses)
    mine = set(_own_addresses())
    pending: set[asyncio.Task[None]] = set()

    async def resolve(zc: Zeroconf, service_type: str, name: str) -> None:
        info = AsyncServiceInfo(service_type, name)
        if await info.async_request(zc, 3000):
            if loopback or set(info.parsed_addresses(IPVersion.V4Only)) - mine:
                heard.add(name)

    def on_change(zeroconf: Zeroconf, service_type: str, name: str,
                  state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Added and name != result.own:
            task = asyncio.ensure_future(resolve(zeroconf, service_type, name))
            pending.add(task)
            task.add_done_callback(pending.discard)

    try:
        azc = open_zeroconf([interface] if interface else None)
    except (OSError, ValueError) as exc:
        result.problem = str(exc)
        return result
    try:
        browser = AsyncServiceBrowser(azc.zeroconf, [PROBE_TYPE, SERVICE_TYPE],
                                      handlers=[on_change])
        info = ServiceInfo(PROBE_TYPE, result.own, port=9,
                           addresses=[socket.inet_aton(a) for a in addresses],
                           server=f"{label}.local.")
        try:
            await azc.async_register_service(info)
            await asyncio.sleep(wait)
            if pending:  # answers still being resolved
                await asyncio.wait(set(pending), timeout=3.5)
        finally:
            for task in pending:
                task.cancel()
            with contextlib.suppress(Exception):
                await azc.async_unregister_service(info)
            await browser.async_cancel()
    except OSError as exc:
        result.problem = str(exc)
    finally:
        await azc.async_close()
    result.heard = sorted(heard)
    return result
