"""The web client: ``--web ENDPOINT`` serves the page and a WebSocket speaking machine mode.

One HTTP listener (twisted.web) on a Twisted endpoint (``tcp:8080:interface=127.0.0.1``, or
``ssl:8443:privateKey=...:certKey=...`` for TLS) serves

- ``/``, ``/app.js``, ``/app.css`` ...: the client's files (``protocol/web/static``, read from the
  package once at start-up; any other path is 404: there is no listing, and a path is looked up
  by its exact name, so no path leaves the directory), each with a Content-Security-Policy that
  allows nothing but this host (``frame-ancestors 'none'`` among it), ``X-Content-Type-Options:
  nosniff`` and ``X-Frame-Options: DENY``;
- ``/strings/LANG.json``: the page's own words in LANG, the catalog's ``web-*`` keys
  (lobby/text/messages.py and its translations, like every other text for people);
- ``/archive/``, ``/YYYYMM``, ``/N.tch``, ``/games/N.tch``: the log archive in the layout of BSW's
  public archive (protocol/web/archive.py; the same pages as on the metrics port, whose months
  page is ``/``), with the same headers and per-address limits as every other answer here;
- ``/ws``: the WebSocket endpoint (autobahn's Twisted WebSocket server). One WebSocket message
  carries one machine-mode line, in both directions (docs/protocol.md, "Machine mode").

A WebSocket is a connection like any other: the lobby's own ``Session`` is connected to a
``MessageTransport`` (this module) instead of a TCP transport, and every message is handed to
``Session.dataReceived`` as one line. So the guard (connection limits per address, flood
control, the log-in and idle timers, the password throttles, bans), the line limit, the logs and
the metrics are the ones of the telnet port. What differs is said by the transport itself: it
carries messages (no telnet negotiation is offered; the first message, ``%json`` or anything
else, starts machine mode, and nothing but JSON objects is ever sent), and whether a password
may travel over it (``refuses_passwords``: plain ``ws://`` from an address that is not
loopback; the log-in then answers ``password-needs-tls``).

Checks at the upgrade: the ``Origin`` must be one of ``--web-origin`` (default: the listener's
own, i.e. the origin whose host is the request's ``Host``), else 403; a request through one of
the ``--trusted-proxy`` addresses is taken to come from the address its ``X-Forwarded-For``
names (the rightmost one that is not itself a trusted proxy; invalid: 400), and to be TLS when
its ``X-Forwarded-Proto`` says ``https``; from any other address these headers are ignored. A
message longer than ``--web-max-message`` bytes closes the WebSocket (code 1009); a line
longer than the session's line limit within it is refused with ``line-too-long``, as on telnet.

May import: lobby, protocol.telnet (the transport it hands each WebSocket message to, the gathered
write path), protocol.render, protocol.connection, protocol.web; Twisted and autobahn. Never
protocol.commands or protocol.process (tests/project/test_layers.py).
"""
from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol, cast
from urllib.parse import urlsplit

from autobahn.twisted.resource import WebSocketResource
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket.types import ConnectionDeny
from twisted.internet import address as address_types
from twisted.internet.defer import Deferred
from twisted.internet.error import ConnectionDone
from twisted.internet.interfaces import IListeningPort, ISSLTransport
from twisted.internet.protocol import connectionDone
from twisted.logger import Logger
from twisted.protocols.tls import TLSMemoryBIOProtocol
from twisted.python.failure import Failure
from twisted.web.http import RESPONSES, HTTPChannel
from twisted.web.resource import IResource, Resource
from twisted.web.server import Request, Site

from lobby.events import Event, error_event
from lobby.tables import options as table_options
from lobby.text.messages import CATALOGS, LANGUAGES, text
from lobby.world.addresses import address_group, is_loopback
from protocol.connection.guard import OpenConnections, Refusal, RequestBudget
from protocol.telnet import gathered_write
from protocol.telnet.transport import TelnetLineProtocol
from protocol.web.archive import Source as ArchiveSource
from protocol.web.archive import archive_child

__all__ = ["WebOptions", "WebSite", "MessageTransport", "LobbyWebSocket", "listen_web",
           "CSP", "SECURITY_HEADERS", "web_strings", "parse_proxies", "default_hosts", "host_name",
           "LOOPBACK_HOSTS", "MAX_PENDING", "REQUEST_TIMEOUT", "WebRequest", "WebChannel",
           "BudgetedLog", "REQUESTS_PER_SECOND"]

log = Logger(namespace="protocol.web")


class _LogBudget(Protocol):
    def allow(self, source: str, kind: str) -> bool: ...


def _lobby_budget(lobby: Any) -> _LogBudget | None:
    """The lobby's log budget (lobby/world/log_budget.py), if it has one."""
    budget = getattr(getattr(lobby, "world", None), "log_budget", None)
    return cast("_LogBudget | None", budget)


def _group(host: str) -> str:
    return address_group(_canonical_ip(host) or host)


class BudgetedLog:
    """The logger of one connection's library code (autobahn's WebSocket protocol, twisted.web's
    HTTP channel) in place of the library's own: every line of it a client can cause (a failed
    handshake, a bad frame, a dropped connection, a timed-out request) goes through the log
    budget (lobby/world/log_budget.py) of the connection's address group, kind ``web``, like
    every line of ours; debug and trace lines are dropped (outside finding W3)."""

    __slots__ = ("budget", "group")

    def __init__(self, budget: _LogBudget | None, host: str) -> None:
        self.budget = budget
        self.group = _group(host)

    def _allowed(self) -> bool:
        return self.budget is None or self.budget.allow(self.group, "web")

    def trace(self, *args: Any, **kwargs: Any) -> None:
        """Dropped."""

    debug = trace

    def info(self, format: str | None = None, **kwargs: Any) -> None:
        if self._allowed():
            log.info(format, **kwargs)

    def warn(self, format: str | None = None, **kwargs: Any) -> None:
        if self._allowed():
            log.warn(format, **kwargs)

    def error(self, format: str | None = None, **kwargs: Any) -> None:
        if self._allowed():
            log.error(format, **kwargs)

    def critical(self, format: str | None = None, **kwargs: Any) -> None:
        if self._allowed():
            log.critical(format, **kwargs)

    def failure(self, format: str, failure: Failure | None = None, **kwargs: Any) -> None:
        if self._allowed():
            log.failure(format, failure, **kwargs)


class WebSession(Protocol):
    """What a WebSocket needs of the lobby's connection (protocol.connection.session.Session,
    which this package may not import): it is connected to a MessageTransport, handed each
    message as a line, told of refused messages and of frames, and of the close."""

    @property
    def is_open(self) -> bool: ...

    def makeConnection(self, transport: MessageTransport) -> None: ...

    def dataReceived(self, data: bytes) -> None: ...

    def connectionLost(self, reason: Failure) -> None: ...

    def message_refused(self, event: Event) -> None: ...

    def frames_received(self, count: int) -> bool: ...

    def stream_bytes(self, count: int) -> bool: ...

    def ping_received(self) -> bool: ...


class LobbyFactory(Protocol):
    """What the web listener needs of the lobby's factory (protocol.process.server.LobbyFactory):
    a connection for each WebSocket."""

    def buildProtocol(self, addr: Any) -> WebSession: ...


class _Below(Protocol):
    """The TCP (or TLS) connection below a WebSocket, as a MessageTransport uses it: a
    transport that is a consumer too (Twisted's ITCPTransport and IConsumer)."""

    def write(self, data: bytes) -> None: ...

    def registerProducer(self, producer: Any, streaming: bool) -> None: ...

    def unregisterProducer(self) -> None: ...

#: what a page of ours may load: only from this host (the WebSocket too), never in a frame
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    b"Content-Security-Policy": CSP.encode(),
    b"X-Content-Type-Options": b"nosniff",
    b"X-Frame-Options": b"DENY",
    b"Referrer-Policy": b"no-referrer",
    b"Cache-Control": b"no-cache",
}
def http_answer(code: int, phrase: str, body: str = "",
                headers: Iterable[tuple[str, str]] = ()) -> bytes:
    """A whole HTTP/1.1 answer with the security headers, for the answers the libraries write
    themselves (twisted.web's 400 for a malformed request, autobahn's refused upgrades): no
    ``Server`` header, ``Connection: close`` (the connection is closed after it)."""
    data = body.encode("utf-8")
    lines = [f"HTTP/1.1 {code} {phrase}"]
    lines += [f"{k.decode()}: {v.decode()}" for k, v in SECURITY_HEADERS.items()]
    lines += [f"{k}: {v}" for k, v in headers]
    lines += ["Content-Type: text/plain; charset=utf-8", f"Content-Length: {len(data)}",
              "Connection: close"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "replace") + data


#: the HTTP status of a WebSocket refused at its upgrade by the connection limits
#: (Guard.refuse): 429 with Retry-After for connecting too often, else 503
REFUSAL_STATUS = {"connecting-too-fast": 429}
_TYPES = {".html": b"text/html; charset=utf-8", ".js": b"text/javascript; charset=utf-8",
          ".css": b"text/css; charset=utf-8", ".png": b"image/png", ".svg": b"image/svg+xml",
          ".txt": b"text/plain; charset=utf-8", ".json": b"application/json"}
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
#: seconds a WebSocket the server closes (over its byte budget, refused, /quit ...) has to take
#: its last output before it is aborted (it is read no more meanwhile; autobahn's closing
#: handshake waited as long)
CUT_GRACE = 5.0


@dataclass(frozen=True)
class WebOptions:
    """The web listener's settings (the server's --web-* options, --trusted-proxy)."""

    origins: tuple[str, ...] = ()        # allowed Origin values; () = the listener's own
    #: the names the ``Host`` header may give (DNS rebinding: a page of evil.example whose name
    #: points here is refused); () = the loopback names and the endpoint's own interface
    allowed_hosts: tuple[str, ...] = ()
    trusted_proxies: tuple[Any, ...] = ()  # ip_network objects whose X-Forwarded-* is believed
    max_message: int = MAX_MESSAGE       # bytes of one WebSocket message
    timeout: float = HTTP_TIMEOUT        # seconds an idle or half-sent HTTP request is kept
    #: connections per address group whose request is not whole yet (0: no limit)
    max_pending: int = MAX_PENDING
    #: seconds from a connection's start until its request must be whole (0: off)
    request_timeout: float = REQUEST_TIMEOUT
    #: HTTP requests per address group a second (five seconds' worth at once; 0: no limit)
    requests_per_second: float = REQUESTS_PER_SECOND


#: the host names every web listener answers to unless --web-allowed-host names others
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def default_hosts(description: str) -> tuple[str, ...]:
    """The ``Host`` names a listener on the endpoint ``description`` answers to by default: the
    loopback names and the endpoint's ``interface`` (when it is one address, not a wildcard)."""
    hosts = list(LOOPBACK_HOSTS)
    for part in description.split(":"):
        if part.startswith("interface="):
            interface = part[len("interface="):].strip("[]").lower()
            if interface and interface not in ("0.0.0.0", "::") and interface not in hosts:
                hosts.append(interface)
    return tuple(hosts)


def host_name(header: str) -> str:
    """The host of a ``Host`` header without its port, lower case (``[::1]:8080`` -> ``::1``)."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def parse_proxies(values: Iterable[str]) -> tuple[Any, ...]:
    """``--trusted-proxy`` values (an address or a network such as 10.0.0.0/8) -> networks;
    ValueError for one that is neither."""
    return tuple(ipaddress.ip_network(v.strip(), strict=False) for v in values)


def web_strings(lang: str) -> dict[str, str]:
    """The page's own words in ``lang``: every ``web-*`` key of the catalog (English where the
    language has none), and words the catalog has already for the telnet screen: the ranks'
    names (``web-rank-name-K``), the finishing places (``web-place-1``) and what each table
    option takes (``web-option-about-round``, the hint of the option's value box)."""
    english = CATALOGS["en"]
    own = CATALOGS.get(lang, {})
    out = {k: own.get(k) or v for k, v in english.items() if k.startswith("web-")}
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K", "A"):
        out["web-rank-name-" + rank] = text("rank-" + rank, lang)
    for n in range(1, 5):
        out[f"web-place-{n}"] = text(f"place-{n}", lang)
    for value in ("on", "off"):                 # an option's value in the reader's words
        out["web-value-" + value] = text("value-" + value, lang)
    for option in table_options.OPTIONS:
        name = option.name.split()[0]
        out["web-option-about-" + name] = table_options.about(name, lang)
    # the texts of protocol 4's table and namesake objects, as the telnet screen words them:
    # the catalog's own template with its {placeholders} (a duration's {x!t} as {x}: the page
    # fills in a number of seconds as web-duration-second says it)
    for web_key, key in WEB_TEMPLATES.items():
        template = own.get(key) or english[key]
        out[web_key] = _DURATION_FIELD.sub(r"{\1}", template)
    for reason in ("nosave", "seed", "bots", "guests"):
        out["web-ev-unrated-" + reason] = text("table-unrated", lang, reason=reason)
    for n, suffix in ((1, "-one"), (7, "")):
        out["web-duration-second" + suffix] = text("duration-second", lang, n=n).replace(
            str(n), "{count}", 1)
    return out


#: the page's words taken from the catalog's templates: the page's key -> the catalog's key
WEB_TEMPLATES = {
    "web-ev-timer-warning": "table-timer-warning",
    "web-ev-timed-out": "table-timed-out",
    "web-ev-timed-out-rated": "table-timed-out-rated",
    "web-ev-remove-needs-partner": "table-remove-needs-partner",
    "web-ev-remove-needs-all": "table-remove-needs-all",
    "web-ev-rated": "table-rated",
    "web-ev-unseated": "table-unseated",
    "web-ev-barred": "table-barred",
    "web-ev-unbarred": "table-unbarred",
    "web-namesake": "says-namesake-name",
    "web-namesake-notice": "namesake-notice",
    "web-namesake-writes": "namesake-writes",
    "web-ev-closed-by": "table-closed-by",
}
_DURATION_FIELD = re.compile(r"\{(\w+)!t\}")


def _canonical_ip(host: str) -> str | None:
    try:
        ip = ipaddress.ip_address(host.strip().strip("[]"))
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


def _forwarded_client(value: str, proxies: tuple[Any, ...]) -> str | None:
    """The client an X-Forwarded-For names: the rightmost address that is not a trusted
    proxy (all trusted: the leftmost); None when an entry is no IP address."""
    hops = [_canonical_ip(v) for v in value.split(",")]
    if not hops or any(h is None for h in hops):
        return None
    for hop in reversed(hops):
        assert hop is not None
        if not _trusted(hop, proxies):
            return hop
    return hops[0]


def _guard_of(lobby: Any) -> Any:
    """The lobby's guard (protocol.connection.guard.Guard), if it has one."""
    return getattr(getattr(lobby, "services", None), "guard", None)


def _trusted(host: str, proxies: tuple[Any, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(ip in net for net in proxies if net.version == ip.version)


def text_frame(payload: bytes) -> bytes:
    """One unfragmented, unmasked text frame (RFC 6455 5.2: what a server sends) of
    ``payload``: FIN and opcode 1, the length in 7, 7+16 or 7+64 bits, the payload."""
    n = len(payload)
    if n < 126:
        return _SHORT_HEADS[n] + payload
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


#: a text frame's head for each payload length below 126
_SHORT_HEADS = [bytes((0x81, n)) for n in range(126)]
#: the last whole line framed, and its frame: a table's event is the same bytes object for
#: each of its listeners (protocol.connection.machine's shared line), framed once
_last_framed: list[bytes] = [b"", b""]


class MessageTransport:
    """What a ``Session`` writes to and reads its peer from, for one WebSocket: each line the
    session writes (a machine-mode JSON object and its CR LF) leaves as one text message; an
    empty line is no message. The peer is the client's address (after ``X-Forwarded-For`` from a
    trusted proxy); the producer the session registers is registered on the TCP (or TLS)
    connection below, so a client that stops reading is the telnet layer's slow reader.

    The frames of one reactor turn leave together in one ``send`` at the end of the turn, by
    the gathered writes of a telnet connection (protocol/telnet/gathered_write.py, for which this
    object is the ``Gatherer`` of the TCP connection below; TLS: Twisted's own write): a table's
    action sends each player several objects, and a write per message cost the server half as
    much CPU again per action (docs/performance.md, "Web client"). The frames are the plain
    text frames of RFC 6455, built here (``text_frame``); autobahn does the handshake, reads the
    client's frames (but for the common case, one whole short text message, which
    ``LobbyWebSocket.dataReceived`` reads itself) and closes."""

    # the protocol side of protocol/telnet/gathered_write.py's seam (see Gatherer there)
    _gathering = False
    _paused = False
    _closed = False
    _closing = False
    _compress = None

    #: the session reads this: lines are messages (no telnet negotiation, machine mode only)
    carries_messages = True

    def __init__(self, ws: LobbyWebSocket, peer: Any, host: Any, refuses_passwords: bool) -> None:
        self.ws = ws
        self._peer = peer
        self._host = host
        #: a password must not be sent here (plain ws:// from an address that is not loopback)
        self.refuses_passwords = refuses_passwords
        self.disconnecting = False
        self._partial = b""
        #: the connection below (protocol/telnet/gathered_write.py writes to it): the socket of
        #: an open WebSocket, which autobahn declares as an optional ITransport only
        self.transport = cast(_Below, ws.transport)
        self._may_gather = TelnetLineProtocol.GATHER_WRITES and gathered_write.usable(
            self.transport)

    def write(self, data: bytes) -> None:
        if self.disconnecting:
            return
        if self._partial:
            data = self._partial + data
            self._partial = b""
        n = len(data) - 2
        if n > 0 and data.find(b"\n") == n + 1 and data[n] == 13:
            # the common case: one whole line (its only LF is its last byte; a one-byte find
            # is a memchr, a search for CR LF a much slower scan of a long line)
            last = _last_framed
            if data is last[0]:
                out = last[1]
            else:
                out = text_frame(data[:n])
                last[0] = data
                last[1] = out
        else:
            *lines, self._partial = data.split(b"\r\n")
            out = b"".join([text_frame(line) for line in lines if line])
            if not out:
                return
        ws = self.ws
        if ws.state != ws.STATE_OPEN:
            return
        if self._gathering:
            gathered_write.gather(self, out)
        elif not (self._may_gather and gathered_write.start(self, out)):
            self.transport.write(out)

    def _write(self, out: bytes) -> None:
        """protocol/telnet/gathered_write.py's write_shared falls back to this (frames, not lines)."""
        if self._gathering:
            gathered_write.gather(self, out)
        elif not (self._may_gather and gathered_write.start(self, out)):
            self.transport.write(out)

    def writeSequence(self, data: Iterable[bytes]) -> None:
        self.write(b"".join(data))

    def loseConnection(self) -> None:
        if self.disconnecting:
            return
        self.disconnecting = True          # (what was written goes first, then the close)
        ws = self.ws
        ws.sendClose(1000)
        # no closing handshake that goes on reading (autobahn would parse what comes for
        # another 5 s, a refused or flooding client's too): read no more, and close the TCP
        # connection once the close frame is sent (outside finding W4)
        ws.cut_off()

    def abortConnection(self) -> None:
        self.disconnecting = True
        self._gathering = False
        self.ws.dropConnection(abort=True)

    def getPeer(self) -> Any:
        return self._peer

    def getHost(self) -> Any:
        return self._host

    def registerProducer(self, producer: Any, streaming: bool) -> None:
        below = self.transport
        if getattr(below, "producer", None) is not None:
            below.unregisterProducer()        # twisted.web's HTTP channel, which handed it over
        below.registerProducer(producer, streaming)

    def unregisterProducer(self) -> None:
        below = self.transport
        if below is not None and getattr(below, "producer", None) is not None:
            below.unregisterProducer()


def _unmask(mask: bytes, masked: bytes) -> bytes:
    """A client's frame payload unmasked (RFC 6455 5.3: byte i XOR mask[i % 4])."""
    n = len(masked)
    key = (mask * ((n >> 2) + 1))[:n]
    return (int.from_bytes(masked, "little") ^ int.from_bytes(key, "little")).to_bytes(
        n, "little")


_OPEN = WebSocketServerProtocol.STATE_OPEN


class LobbyWebSocket(WebSocketServerProtocol):
    """One WebSocket: checks the upgrade, then connects a lobby ``Session`` to a
    ``MessageTransport`` and hands it each message as a line."""

    factory: LobbyWebSocketFactory
    session: WebSession | None = None
    _cut = False                 # over the byte budget: nothing more is read
    #: the longest message dataReceived reads itself (a 7-bit frame length, at most
    #: --web-max-message): -1 until the WebSocket is open
    _fast_limit = -1
    _peer: Any = None
    _refuses_passwords = True
    #: the connection limits refused it at its upgrade (Guard.refuse)
    _refusal: Refusal | None = None

    def connectionMade(self) -> None:
        # autobahn's per-connection lines go through the log budget (BudgetedLog)
        transport = self.transport
        peer = transport.getPeer() if transport is not None else None
        self.log = BudgetedLog(_lobby_budget(self.factory.lobby),
                               str(getattr(peer, "host", "?")))
        super().connectionMade()

    def onConnect(self, request: Any) -> None:
        options = self.factory.options
        headers = request.headers
        origin = headers.get("origin")
        assert self.transport is not None       # (a connection being upgraded has its socket)
        tcp_peer = self.transport.getPeer()
        host = _canonical_ip(str(getattr(tcp_peer, "host", ""))) or str(
            getattr(tcp_peer, "host", "?"))
        secure = ISSLTransport.providedBy(self.transport)
        if options.trusted_proxies and _trusted(host, options.trusted_proxies):
            forwarded = headers.get("x-forwarded-for")
            if forwarded is not None:
                client = self._forwarded_client(forwarded, host)
                if client is None:
                    self.log.info("refused a WebSocket from the proxy {peer}: an invalid "
                                  "X-Forwarded-For {value!r}", peer=host, value=forwarded[:200])
                    raise ConnectionDeny(ConnectionDeny.BAD_REQUEST, "bad X-Forwarded-For")
                host = client
            proto = headers.get("x-forwarded-proto", "")
            secure = secure or proto.split(",")[-1].strip().lower() == "https"
        if origin is not None and not self._origin_allowed(origin, headers.get("host", ""),
                                                           secure):
            self.log.info("refused a WebSocket from {peer}: origin {origin!r} is not allowed",
                          peer=request.peer, origin=origin[:200])
            raise ConnectionDeny(ConnectionDeny.FORBIDDEN, "origin not allowed")
        guard = _guard_of(self.factory.lobby)
        refused = guard.refuse(host) if guard is not None else None
        if refused is not None:
            # the connection limits (--max-connections, --max-per-ip, --connections-per-minute)
            # hold before the upgrade: an HTTP refusal naming the code, never a WebSocket
            # (behind a trusted proxy: the client's own address, not the proxy's)
            self._refusal = refused
            raise ConnectionDeny(REFUSAL_STATUS.get(refused.code, 503), refused.code)
        kind = address_types.IPv6Address if ":" in host else address_types.IPv4Address
        self._peer = kind("TCP", host, int(getattr(tcp_peer, "port", 0) or 0))
        self._refuses_passwords = not secure and not is_loopback(host)

    def failHandshake(self, reason: str, code: int = 400,
                      responseHeaders: Any = None) -> None:
        """An Origin that autobahn cannot even read is refused like a foreign one: 403."""
        if reason.startswith("HTTP Origin header invalid"):
            code = 403
        super().failHandshake(reason, code, responseHeaders)

    def sendHttpErrorResponse(self, code: int, reason: str,
                              responseHeaders: Any = None) -> None:
        """A refused upgrade: autobahn's answer with our security headers and no ``Server``,
        its reason as a short body; refused by the connection limits, the standard phrase and
        the error line as its body (``! [too-many-connections] ...``; none past the address
        group's --refusals-per-minute), and ``Retry-After`` when it is connecting too often."""
        extra = [(str(k), str(v)) for k, v in responseHeaders or ()]
        refused = self._refusal
        if refused is None:
            self.sendData(http_answer(code, reason, reason + "\n", extra))
            return
        if refused.code == "connecting-too-fast":
            extra.append(("Retry-After", str(max(1, refused.seconds))))
        phrase = (_PHRASES.get(code) or RESPONSES.get(code, b"Refused")).decode("latin-1")
        body = refused.line + "\n" if refused.line is not None else ""
        self.sendData(http_answer(code, phrase, body, extra))

    def _origin_allowed(self, origin: str, host_header: str, secure: bool) -> bool:
        """One of --web-origin; by default the listener's own: the origin whose host is the
        request's ``Host``, with the scheme of the connection (an ``https`` page does not talk
        to a plain listener: it would be a page of another server, reached by a rebinding)."""
        allowed = self.factory.options.origins
        if allowed:
            return origin.rstrip("/") in allowed
        parts = urlsplit(origin)
        return parts.scheme == ("https" if secure else "http") and bool(parts.netloc) \
            and parts.netloc.lower() == host_header.strip().lower()

    def _forwarded_client(self, value: str, proxy: str) -> str | None:
        return _forwarded_client(value, self.factory.options.trusted_proxies)

    def onOpen(self) -> None:
        lobby = self.factory.lobby
        session = lobby.buildProtocol(self._peer)
        self.session = session
        assert self.transport is not None       # (an open WebSocket has its socket)
        transport = MessageTransport(self, self._peer, self.transport.getHost(),
                                     self._refuses_passwords)
        session.makeConnection(transport)
        limit = self.factory.options.max_message     # (autobahn's message and frame limit)
        self._fast_limit = min(125, limit) if limit > 0 else 125

    def dataReceived(self, data: bytes) -> None:
        """Every byte of an open WebSocket is counted as it arrives, before autobahn parses a
        frame of it, against the connection's byte budget (``--input-bytes-*``, as on
        telnet). Past it the session says ``input-flood-disconnect`` and the TCP connection is
        closed at once: nothing more is read (no closing handshake that goes on reading), and
        it is aborted if what was written does not drain within ``CUT_GRACE`` seconds
        (outside finding W4)."""
        if self._cut:
            return
        session = self.session
        if session is not None and not session.stream_bytes(len(data)):
            self.cut_off()
            return
        # The common case, read here: the bytes are one whole short text message (a single
        # masked frame, FIN, no RSV bits, a 7-bit length within --web-max-message) while the
        # WebSocket is open and between messages; valid UTF-8, it is the message. Anything
        # else, and invalid UTF-8 (which autobahn then fails with 1007), is autobahn's to
        # read: autobahn's per-frame reading in Python cost a WebSocket action about 7 % more
        # server instructions than a TCP one (docs/performance.md, "Web client").
        n = len(data) - 6
        if 0 <= n <= self._fast_limit and data[0] == 0x81 and data[1] == 0x80 | n \
                and self.state == _OPEN and not self.data and self.current_frame is None \
                and not self.inside_message and self._perMessageCompress is None \
                and self.autoPingTimeoutCall is None:
            payload = _unmask(data[2:6], data[6:]) if n else b""
            try:
                payload.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                self.onMessage(payload, False)
                return
        # (autobahn's Twisted dataReceived adds only a debug line, built even when not logged)
        self._dataReceived(data)

    def cut_off(self) -> None:
        """Read no more; close the TCP connection below once what was written is sent, and
        abort it if that takes ``CUT_GRACE`` seconds."""
        if self._cut:
            return
        self._cut = True
        transport = self.transport
        if transport is None:
            return
        below = cast(Any, transport)
        below.pauseProducing()    # not another byte is read (TLS: its wrapper passes it down)
        below.loseConnection()               # what was written goes first (the line)
        if isinstance(below, TLSMemoryBIOProtocol) and below.transport is not None:
            # TLS's close sends its close_notify and then waits to read the peer's, which a
            # connection read no more never does: the client saw its close only at the abort,
            # CUT_GRACE seconds later. The TCP connection beneath closes once what was
            # written (the close_notify too) is sent, as a plain one does
            below.transport.loseConnection()
        abort = getattr(below, "abortConnection", None)
        if abort is not None:
            self.factory.clock.callLater(CUT_GRACE, _abort_if_open, below)

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        session = self.session
        if session is None or not session.is_open:
            return
        if payload.endswith(b"\n"):                      # one line end of its own is allowed
            payload = payload[:-2] if payload.endswith(b"\r\n") else payload[:-1]
        bad = b"\n" in payload or b"\r" in payload or b"\xff" in payload
        if not bad and isBinary:
            try:
                payload.decode("utf-8")
            except UnicodeDecodeError:
                bad = True
        if bad:
            session.message_refused(error_event("bad-message"))   # counted as a line
            return
        session.dataReceived(payload + b"\n")

    def onFrameBegin(self) -> None:
        """Every frame costs: a pong, a close and each frame of a message but its last spend
        the connection's budget of telnet commands (a ping: ``onPing``; a message's last
        frame: its line); a flood of them is warned and closed like IAC NOP."""
        frame = self.current_frame
        if frame.opcode != 9 and (frame.opcode > 7 or not frame.fin):
            session = self.session
            if session is not None and session.is_open:
                session.frames_received(1)
        super().onFrameBegin()

    def onPing(self, payload: bytes) -> None:
        """A ping is answered only within the connection's flood budget (the guard's, as a
        telnet subnegotiation): a ping flood is dropped and kicked like a line flood."""
        session = self.session
        if session is not None and not session.ping_received():
            return
        super().onPing(payload)

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        session, self.session = self.session, None
        if session is not None:
            session.connectionLost(Failure(ConnectionDone()))

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        """Gone: autobahn resolved its ``is_closed`` with the protocol itself (a cycle that only
        the collector frees, and ``--gc-freeze-survivors`` freezes it until the thaw); fresh
        Deferreds that hold nothing take their place, so reference counting frees a closed
        WebSocket at once (outside finding W1)."""
        super().connectionLost(reason)
        self.is_open = Deferred()
        self.is_closed = Deferred()


def _abort_if_open(transport: Any) -> None:
    if getattr(transport, "connected", False):
        transport.abortConnection()


class LobbyWebSocketFactory(WebSocketServerFactory):
    # autobahn's factory is a twisted Factory without a type argument, so Twisted's typing reads
    # its protocol as the default `_ProtoWithFactory`, whose `factory` (a Factory of itself) no
    # protocol with a factory of its own type matches
    protocol = LobbyWebSocket  # type: ignore[assignment]
    noisy = False

    def __init__(self, lobby: LobbyFactory, options: WebOptions) -> None:
        WebSocketServerFactory.__init__(self)
        self.lobby = lobby
        self.options = options
        self.clock: Any = _default_reactor()     # (the site sets its own)
        #: no ``Server`` header in the upgrade's answer either (autobahn names its version),
        #: and the security headers of every other answer
        self.server = None
        self.headers = {k.decode(): v.decode() for k, v in SECURITY_HEADERS.items()}
        # a frame longer than the limit is refused from its header on, a message of several
        # frames as soon as they add up to more (both: close code 1009)
        WebSocketServerFactory.setProtocolOptions(self, maxMessagePayloadSize=options.max_message,
                                maxFramePayloadSize=options.max_message,
                                openHandshakeTimeout=options.timeout or None,
                                closeHandshakeTimeout=5, failByDrop=False,
                                # `Origin: null` reaches onConnect's check (403, as any other
                                # refused origin) instead of autobahn's own 400
                                allowNullOrigin=True)


class _Socket(WebSocketResource):
    """The upgrade: twisted.web's channel hands its connection over (its idle timer stopped)."""

    def __init__(self, factory: LobbyWebSocketFactory) -> None:
        WebSocketResource.__init__(self, factory)
        self.websockets = factory

    def render(self, request: Request) -> Any:
        upgrade = (request.getHeader(b"upgrade") or b"").lower()
        if b"websocket" not in upgrade:     # not autobahn's own page, and with our headers
            refused = self._refusal_code(request)
            if refused is not None:
                # why a WebSocket of this address would be refused now (the page asks after
                # a failed connect, whose HTTP answer a browser's script never sees): the
                # status and the code of that refusal, nothing counted
                return _NotFound(REFUSAL_STATUS.get(refused, 503),
                                 f"! [{refused}]\n".encode()).render(request)
            request.setHeader(b"Upgrade", b"websocket")
            return _NotFound(426, b"This is the WebSocket endpoint: it takes an upgrade to a "
                                  b"WebSocket only.\n").render(request)
        channel = request.channel
        if channel is not None:
            channel.setTimeout(None)
        return WebSocketResource.render(self, request)

    def _refusal_code(self, request: Request) -> str | None:
        guard = _guard_of(self.websockets.lobby)
        if guard is None:
            return None
        tcp = str(getattr(request.getClientAddress(), "host", "") or "?")
        host = _canonical_ip(tcp) or tcp
        proxies = self.websockets.options.trusted_proxies
        forwarded = request.getHeader(b"x-forwarded-for")
        if forwarded is not None and proxies and _trusted(host, proxies):
            host = _forwarded_client(forwarded.decode("latin-1"), proxies) or host
        code: str | None = guard.refusal_code(host)
        return code


def _headers(request: Request, content_type: bytes) -> None:
    for name, value in SECURITY_HEADERS.items():
        request.setHeader(name, value)
    request.setHeader(b"Content-Type", content_type)


class _File(Resource):
    isLeaf = True

    def __init__(self, body: bytes, content_type: bytes) -> None:
        Resource.__init__(self)
        self.body = body
        self.content_type = content_type

    def render_GET(self, request: Request) -> bytes:
        _headers(request, self.content_type)
        return self.body

    render_HEAD = render_GET


_PHRASES = {421: b"Misdirected Request", 426: b"Upgrade Required", 429: b"Too Many Requests"}


class _NotFound(Resource):
    isLeaf = True

    def __init__(self, code: int = 404, text: bytes = b"Not found.\n") -> None:
        Resource.__init__(self)
        self.code = code
        self.text = text

    def render(self, request: Request) -> bytes:
        # twisted.web knows no phrase for 421 and 426 ("Unknown Status": outside finding 28-13)
        request.setResponseCode(self.code, _PHRASES.get(self.code))
        _headers(request, b"text/plain; charset=utf-8")
        return self.text


class _Root(Resource):
    """Exact names only: ``/`` is index.html, ``/NAME`` a file of the static directory,
    ``/strings/LANG.json`` the page's words, ``/ws`` the WebSocket, and with an archive its
    pages (protocol/web/archive.py: ``/archive/``, ``/YYYYMM``, ``/N.tch``, ``/games/N.tch``);
    anything else is 404."""

    def __init__(self, files: dict[str, _File], socket: IResource,
                 hosts: Iterable[str] = LOOPBACK_HOSTS,
                 archive: ArchiveSource | None = None) -> None:
        Resource.__init__(self)
        #: the lobby's log budget (the site sets it)
        self.log_budget: _LogBudget | None = None
        self.archive = archive
        self.hosts = frozenset(h.strip("[]").lower() for h in hosts)
        self.files = files
        self.socket = socket
        self.strings = {f"{lang}.json": _File(json.dumps(web_strings(lang), ensure_ascii=False,
                                                         sort_keys=True).encode("utf-8"),
                                              b"application/json; charset=utf-8")
                        for lang in LANGUAGES}

    def getChild(self, path: bytes, request: Request) -> IResource:
        host = (request.getHeader(b"host") or b"").decode("latin-1")
        if host_name(host) not in self.hosts:       # DNS rebinding: not a name of ours
            client = request.getClientAddress()
            BudgetedLog(self.log_budget, str(getattr(client, "host", "?"))).info(
                "refused a web request for the host {host!r}", host=host[:200])
            return _NotFound(421, b"This server does not answer to that host name.\n")
        if request.method not in (b"GET", b"HEAD"):
            return _NotFound(405, b"Only GET.\n")
        rest = request.postpath or []           # (always a list while a path is walked)
        name = path.decode("utf-8", "replace")
        if name == "ws" and not rest:
            return self.socket
        if name == "strings" and len(rest) == 1:
            return self.strings.get(rest[0].decode("utf-8", "replace"), _NotFound())
        if self.archive is not None:
            page = archive_child(self.archive, path, list(rest), b"archive")
            if page is not None:
                return page
        if rest:
            return _NotFound()
        found = self.files.get(name or "index.html")
        return found if found is not None else _NotFound()

    def render(self, request: Request) -> bytes:
        # (a file or a refusal: `/` is never the socket; twisted.web's render has no annotation)
        body: bytes = self.getChild(b"", request).render(request)
        return body


def static_files() -> dict[str, _File]:
    """The client's files from the package (protocol/web/static), by name."""
    files = {}
    for entry in resources.files("protocol.web").joinpath("static").iterdir():
        name = entry.name
        suffix = name[name.rfind("."):] if "." in name else ""
        if entry.is_file() and suffix in _TYPES and not name.startswith("."):
            files[name] = _File(entry.read_bytes(), _TYPES[suffix])
    return files


class WebRequest(Request):
    """Every answer of the web listener carries the security headers, whatever answers it
    (twisted.web's own ``OPTIONS *`` and error pages too), and no ``Server`` header: twisted.web
    would name itself and its version there."""

    def process(self) -> None:
        # the request is whole: it no longer counts as pending (A8); one request a connection
        # (a kept-alive one could trickle its next request past the pending count)
        site = getattr(self.channel, "site", None)      # (a Site's channel has its site)
        if isinstance(site, WebSite):
            site.request_whole(self.channel)
        if not (self.getHeader(b"upgrade") or b"").lower().startswith(b"websocket"):
            self.setHeader(b"Connection", b"close")
            if self.channel is not None:
                self.channel.persistent = False
        for name, value in SECURITY_HEADERS.items():
            self.setHeader(name, value)
        Request.process(self)
        channel = getattr(self, "channel", None)     # (a finished request has none left)
        if channel is not None and channel.transport is None and isinstance(site, WebSite):
            # upgraded: the WebSocket took the connection over, and twisted.web's channel and
            # this request, which hold each other, would wait for the collector (W1)
            site.clock.callLater(0, _forget_request, channel, self)

    def setHeader(self, name: bytes | str, value: bytes | str) -> None:
        key = name.encode("latin-1") if isinstance(name, str) else name
        if key.lower() == b"server":
            return
        Request.setHeader(self, name, value)


def _forget_request(channel: HTTPChannel, request: Request) -> None:
    """Break the cycle of an upgraded request and its channel (neither is used again)."""
    if request in channel.requests:
        channel.requests.remove(request)
    request.channel = None  # type: ignore[assignment]  # (never used again)


class WebChannel(HTTPChannel):
    """twisted.web's HTTP/1.1 channel that tells the site when it is gone, so that a connection
    closed before its request was whole stops counting as pending. (The web listener speaks
    HTTP/1.1 only: twisted.web's HTTP/2 needs the h2 package, which is not installed.)"""

    def connectionMade(self) -> None:
        # twisted.web's per-connection lines (a timed-out client) go through the log budget
        site = getattr(self, "site", None)
        if isinstance(site, WebSite) and self.transport is not None:
            self._log = BudgetedLog(site.log_budget,  # type: ignore[assignment]
                                    str(getattr(self.transport.getPeer(), "host", "?")))
        HTTPChannel.connectionMade(self)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        site = getattr(self, "site", None)
        if isinstance(site, WebSite):
            site.request_whole(self)
        HTTPChannel.connectionLost(self, reason)

    def _respondToBadRequestAndDisconnect(self) -> None:
        """A malformed request (its request line, a header, a too long head, a bad chunk):
        twisted.web writes a bare ``400 Bad Request`` itself; this one carries the security
        headers of every other answer, and no ``Server``."""
        transport = self.transport
        if transport is not None:
            transport.write(http_answer(400, "Bad Request", "Bad request.\n"))
        self.loseConnection()  # type: ignore[no-untyped-call]  # (twisted.web: untyped)

    def lineLengthExceeded(self, line: bytes) -> None:
        """A request line or header line longer than twisted.web reads (16 KB): closed without
        a word by twisted.web; answered 400 like any other malformed request."""
        self._respondToBadRequestAndDisconnect()


class WebSite(Site):
    """The web listener's site (``--web``): the files, the strings and the WebSocket."""

    noisy = False       # the server logs its own "web client on" line
    requestFactory = WebRequest
    # twisted.web declares the channel factory as its HTTP/1.1-or-2 wrapper's; any callable that
    # makes a channel serves (Site.buildProtocol only calls it), and this one is HTTP/1.1 only
    protocol = WebChannel  # type: ignore[assignment]

    def __init__(self, lobby: LobbyFactory, options: WebOptions | None = None,
                 reactor: Any = None, hosts: Iterable[str] | None = None,
                 archive: ArchiveSource | None = None) -> None:
        self.options = options if options is not None else WebOptions()
        self.websockets = LobbyWebSocketFactory(lobby, self.options)
        allowed = self.options.allowed_hosts or (tuple(hosts) if hosts is not None
                                                 else LOOPBACK_HOSTS)
        root = _Root(static_files(), _Socket(self.websockets), allowed, archive)
        #: the lobby's log budget: every line a client of this port can cause goes through it
        self.log_budget = root.log_budget = _lobby_budget(lobby)
        Site.__init__(self, root, timeout=self.options.timeout or None, reactor=reactor)
        self.clock = reactor if reactor is not None else _default_reactor()
        self.websockets.clock = self.clock
        #: each connection (channel) whose request is not whole yet -> (host, deadline)
        self.pending: dict[Any, tuple[str, Any]] = {}
        #: such connections per address group, capped at --web-pending-per-address
        self.pending_open = OpenConnections(0, self.options.max_pending)
        #: connections refused over --web-pending-per-address, closed by --web-request-timeout
        self.stats = {"refused": 0, "request": 0, "closed_at_once": 0, "too_many": 0}
        rate = self.options.requests_per_second
        #: --web-requests-per-second: requests per address group, past it 429
        self.requests = RequestBudget(rate, int(5 * rate), self.clock)

    def _guard(self) -> Any:
        """The lobby's guard (protocol.connection.guard.Guard), if it has one."""
        return _guard_of(self.websockets.lobby)

    def _counted(self, host: str) -> bool:
        """Whether ``host``'s half-sent requests count: not a --trusted-proxy's (a proxy sends
        whole requests of many clients, and buffers the slow ones itself)."""
        return not _trusted(host, self.options.trusted_proxies)

    def buildProtocol(self, addr: Any) -> Any:
        """A new connection: pending until its request is whole (``request_whole``); over
        ``max_pending`` such connections of one address group it is closed at once."""
        host = str(getattr(addr, "host", "") or "?")
        if not self._counted(host):
            return Site.buildProtocol(self, addr)
        guard = self._guard()
        if guard is not None and guard.refused_at_once(_canonical_ip(host) or host):
            # the per-address connection budget (--connections-per-minute, --max-per-ip)
            # holds before a request is read or a WebSocket upgraded: once the address group
            # had its --refusals-per-minute answers, it is closed at once, without a word
            # (outside finding W2)
            self.stats["closed_at_once"] += 1
            return None
        if self.pending_open.admit(host) is not None:
            self.stats["refused"] += 1
            group = address_group(host)
            budget = self.log_budget
            if budget is None or budget.allow(group, "web-pending"):
                log.info("web port: refused a connection from {host}: {count} requests of its "
                         "address group are not whole yet (--web-pending-per-address)",
                         host=host, count=self.pending_open.per_group.get(group, 0))
            return None                      # twisted closes the connection at once
        channel = Site.buildProtocol(self, addr)
        deadline = None
        if self.options.request_timeout > 0:
            deadline = self.clock.callLater(self.options.request_timeout, self._expired, channel)
        self.pending[channel] = (host, deadline)
        return channel

    @property
    def pending_groups(self) -> dict[str, int]:
        """Address group -> its connections whose request is not whole yet."""
        return self.pending_open.per_group

    def request_whole(self, channel: Any) -> None:
        """``channel`` has its request whole (or is gone): it no longer counts as pending."""
        found = self.pending.pop(channel, None)
        if found is None:
            return
        host, deadline = found
        if deadline is not None and deadline.active():
            deadline.cancel()
        self.pending_open.release(host)

    def _expired(self, channel: Any) -> None:
        """No whole request ``request_timeout`` seconds after the connection began: closed."""
        if channel not in self.pending:
            return
        self.stats["request"] += 1
        self.request_whole(channel)
        transport = getattr(channel, "transport", None)
        if transport is not None:
            abort = getattr(transport, "abortConnection", None)
            (abort or transport.loseConnection)()

    def getResourceFor(self, request: Any) -> Any:
        """A whole request: past its address group's --web-requests-per-second, 429 and
        nothing else (a --trusted-proxy's requests are not counted: it carries many clients)."""
        host = str(getattr(request.getClientAddress(), "host", "") or "?")
        if self._counted(host) and not self.requests.allow(_canonical_ip(host) or host):
            self.stats["too_many"] += 1
            request.setHeader(b"Retry-After", b"1")
            return _NotFound(429, b"Too many requests; try again in a moment.\n")
        return Site.getResourceFor(self, request)

    def log(self, request: Any) -> None:
        """No access log of its own: connections are logged by the session."""


def _default_reactor() -> Any:
    from twisted.internet import reactor
    return reactor


def listen_web(reactor: Any, description: str, lobby: LobbyFactory,
               options: WebOptions | None = None, tls: list[Any] | None = None,
               archive: ArchiveSource | None = None) -> Deferred[IListeningPort]:
    """Listen on the endpoint ``description`` with the web client (a Deferred of the port), and
    the log archive's pages when ``archive`` gives it; the reloadable context of a TLS endpoint
    is appended to ``tls`` (protocol.telnet.proxy.tls_endpoint)."""
    from protocol.telnet.proxy import tls_endpoint
    return tls_endpoint(reactor, description, tls).listen(
        WebSite(lobby, options, reactor, default_hosts(description), archive))
