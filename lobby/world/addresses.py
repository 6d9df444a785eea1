"""IP addresses as the limits and bans see them (pure functions, no sockets)."""
from __future__ import annotations

import ipaddress

__all__ = ["address_group", "is_loopback"]


def address_group(host: str) -> str:
    """The unit of the per-address limits and of guest bans: an IPv4 address itself, an IPv6
    address's /64 network (one household or customer usually has a whole /64), an IPv4-mapped
    IPv6 address as its IPv4 address. Anything else (no address: "?") as it is."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def is_loopback(host: str) -> bool:
    """127.0.0.0/8 and ::1 (and an IPv4-mapped loopback address)."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback
