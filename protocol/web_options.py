"""The web listener's options (``--web-*``, ``WebOptions``), apart from the listener itself
(protocol/web/): the server declares its options from these fields at every start, also
without ``--web``, and this module imports no twisted.web, TLS or autobahn, which the web
package does (issue 25: the CPU of every server start). protocol.web re-exports every name.

May import: protocol.option_fields only (tests/project/test_layers.py).
"""
from __future__ import annotations

import argparse
import ipaddress
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from protocol.option_fields import OptionSpec, option, values_from

__all__ = ["WebOptions", "parse_proxies", "MAX_MESSAGE", "HTTP_TIMEOUT", "MAX_PENDING",
           "REQUEST_TIMEOUT", "REQUESTS_PER_SECOND"]

#: the default of --web-max-message: bytes of one WebSocket message (a machine-mode line is at
#: most the session's line limit, 1024 bytes; the rest is room for a line-too-long answer)
MAX_MESSAGE = 4096
#: the default of --web-timeout: an HTTP connection that sends nothing this long is closed
HTTP_TIMEOUT = 30.0
#: the default of --web-pending-per-address: connections of one address group whose request is
#: not yet whole (slowloris), at once; more are closed at once
MAX_PENDING = 8
#: the default of --web-request-timeout: seconds from a connection's start until its request is
#: whole, however slowly it trickles (the idle --web-timeout restarts with every byte)
REQUEST_TIMEOUT = 10.0
#: the default of --web-requests-per-second: HTTP requests (pages, files, WebSocket upgrades)
#: of one address group a second on average; five seconds' worth at once (a page load is about
#: six); past it 429
REQUESTS_PER_SECOND = 20.0


@dataclass(frozen=True)
class WebOptions:
    """The web listener's settings, each declared once as the server's option (``name``: the
    --web-* flag, the file's key, TICHU_LOBBY_WEB_*; protocol/option_fields.py); ``from_options``
    reads them from the parsed command line."""

    #: allowed Origin values; () = the listener's own
    origins: tuple[str, ...] = option(
        (), public=None, many=True, name="web_origin", metavar="ORIGIN",
        help="a page origin (https://tichu.example.org) whose WebSocket connections are "
             "accepted; give several for several (default: the listener's own, the origin whose "
             "host is the request's Host)")
    #: the names the ``Host`` header may give (DNS rebinding: a page of evil.example whose name
    #: points here is refused); () = the loopback names and the endpoint's own interface
    allowed_hosts: tuple[str, ...] = option(
        (), public=None, many=True, name="web_allowed_host", metavar="HOST",
        help="a host name the web listener answers to (the Host header; tichu.example.org); "
             "give several for several; any other is refused with 421, against DNS rebinding "
             "(default: localhost, 127.0.0.1, ::1 and the --web endpoint's interface)")
    #: ip_network objects whose X-Forwarded-* is believed (the command line's texts, read by
    #: parse_proxies in from_options)
    trusted_proxies: tuple[Any, ...] = option(
        (), public=None, many=True, parse=str, name="trusted_proxy", metavar="ADDRESS",
        help="an address or network (10.0.0.0/8) of a proxy in front of the web listener whose "
             "X-Forwarded-For and X-Forwarded-Proto are believed (default: none)")
    #: bytes of one WebSocket message
    max_message: int = option(
        MAX_MESSAGE, name="web_max_message", metavar="BYTES",
        help="the longest WebSocket message; a longer one closes the connection (default "
             "{default})")
    #: seconds an idle or half-sent HTTP request is kept
    timeout: float = option(
        HTTP_TIMEOUT, name="web_timeout",
        help="an HTTP request or WebSocket upgrade that is not complete after SECONDS is closed "
             "(default {default})")
    #: connections per address group whose request is not whole yet (0: no limit)
    max_pending: int = option(
        MAX_PENDING, name="web_pending_per_address", metavar="N",
        help="connections to the web listener from one address group whose request is not "
             "whole yet, at once; more are closed at once (default {default}; 0: no limit; a "
             "--trusted-proxy is not counted)")
    #: HTTP requests per address group a second (five seconds' worth at once; 0: no limit)
    requests_per_second: float = option(
        REQUESTS_PER_SECOND, name="web_requests_per_second", metavar="N",
        help="HTTP requests to the web listener (pages, files, WebSocket upgrades) per address "
             "group a second on average, five seconds' worth at once; more are answered 429 "
             "(default {default}; 0: no limit; a --trusted-proxy is not counted)")
    #: seconds from a connection's start until its request must be whole (0: off)
    request_timeout: float = option(
        REQUEST_TIMEOUT, name="web_request_timeout",
        help="a connection to the web listener whose request is not whole SECONDS after it "
             "began is closed, however slowly it trickles (default {default}; 0: off)")

    @classmethod
    def from_options(cls, opts: argparse.Namespace) -> WebOptions:
        """The settings from the parsed options (values_from: one per declared field); the
        texts of the command line made the fields' values by their readers (_READERS)."""
        def read(spec: OptionSpec, value: Any) -> Any:
            reader = _READERS.get(spec.field)
            return reader(value or ()) if reader is not None else value
        return cls(**values_from(cls, opts, read))


def parse_proxies(values: Iterable[str]) -> tuple[Any, ...]:
    """``--trusted-proxy`` values (an address or a network such as 10.0.0.0/8) -> networks;
    ValueError for one that is neither."""
    return tuple(ipaddress.ip_network(v.strip(), strict=False) for v in values)


#: how the command line's texts of a WebOptions field become its value (none given: ())
_READERS: dict[str, Callable[[Iterable[str]], tuple[Any, ...]]] = {
    "origins": lambda given: tuple(o.rstrip("/") for o in given),
    "allowed_hosts": lambda given: tuple(h.strip().lower() for h in given),
    "trusted_proxies": parse_proxies,
}
