"""IP addresses as the limits and bans see them (pure functions, no sockets)."""
from __future__ import annotations

import ipaddress

__all__ = ["address_group", "ban_group", "is_loopback", "set_ipv6_prefixes", "ipv6_prefixes"]

#: the IPv6 prefix lengths of an address group (the per-address limits and budgets) and of a
#: guest ban's address; set once at start-up from --ipv6-group-prefix and --ipv6-ban-prefix
_PREFIXES = {"group": 64, "ban": 64}


def set_ipv6_prefixes(group: int = 64, ban: int = 64) -> None:
    """The prefix lengths (1-128) from now on (protocol.connection.guard.Guard sets them from its Limits)."""
    for value in (group, ban):
        if not 1 <= value <= 128:
            raise ValueError(f"an IPv6 prefix length is 1 to 128, not {value}")
    _PREFIXES["group"] = group
    _PREFIXES["ban"] = ban


def ipv6_prefixes() -> tuple[int, int]:
    """(the group's prefix length, the ban's)."""
    return _PREFIXES["group"], _PREFIXES["ban"]


def address_group(host: str, prefix: int | None = None) -> str:
    """The unit of the per-address limits: an IPv4 address itself, an IPv6 address's network of
    ``prefix`` bits (default: the group's, /64: one household or customer usually has a whole
    /64), an IPv4-mapped IPv6 address as its IPv4 address. Anything else (no address: "?") as
    it is."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        bits = _PREFIXES["group"] if prefix is None else prefix
        return str(ipaddress.IPv6Network((address, bits), strict=False))
    return str(address)


def ban_group(host: str) -> str:
    """The address a guest ban holds: as ``address_group`` with the ban's prefix (/56 on a
    public server: a provider gives one customer a /56 or a /48, so a banned guest who takes
    the next /64 of their own is still kept out)."""
    return address_group(host, _PREFIXES["ban"])


def is_loopback(host: str) -> bool:
    """127.0.0.0/8 and ::1 (and an IPv4-mapped loopback address)."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback
