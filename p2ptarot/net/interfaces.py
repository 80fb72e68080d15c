"""`--interface` names a network card (`eth0`, `veth-h1`) or gives an address: either way the
program binds that card's address only (SECURITY §6), so a name is resolved here, once, to the
card's IPv4 address."""

from __future__ import annotations

import ipaddress
from p2ptarot.i18n.message import tr


class InterfaceError(ValueError):
    """No such card or address, or a card without an IPv4 address."""


def resolve_interface(value: str) -> str:
    """The address to bind for `value`: an IP address as given (normalised), or the first IPv4
    address of the network card of that name."""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        pass
    import ifaddr  # zeroconf's own dependency: lists cards portably (Linux, BSD, macOS, Windows)

    adapters = ifaddr.get_adapters()
    for adapter in adapters:
        if value in (adapter.name, adapter.nice_name):
            v4 = [ip.ip for ip in adapter.ips if ip.is_IPv4]
            if not v4:
                raise InterfaceError(tr("network card {card} has no IPv4 address",
                                        card=repr(value)))
            return str(v4[0])
    cards = ", ".join(sorted({a.name for a in adapters})) or "none"
    raise InterfaceError(tr("{text} is neither an IP address nor a network card here (cards: "
                            "{cards})",
                            text=repr(value), cards=cards))
