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

The listener itself (``listen_web``, the site, its requests and channels) and the WebSocket are
in protocol/web/websocket.py, which the server imports only for a web listener: a server
without ``--web`` never imports autobahn.

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
write path), protocol.render, protocol.connection, protocol.option_fields, protocol.web_options
(WebOptions, the --web-* options declared on its fields, re-exported here: the server declares
its options without importing this package), protocol.web; Twisted and autobahn. Never
protocol.commands or protocol.process (tests/project/test_layers.py).
"""
from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Iterable
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol, cast
from urllib.parse import urlsplit

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
from protocol.web_options import (
    HTTP_TIMEOUT,
    MAX_MESSAGE,
    MAX_PENDING,
    REQUEST_TIMEOUT,
    REQUESTS_PER_SECOND,
    WebOptions,
    parse_proxies,
)

__all__ = ["WebOptions", "MessageTransport", "WebSocketSide", "CUT_GRACE",
           "CSP", "SECURITY_HEADERS", "web_strings", "parse_proxies", "default_hosts", "host_name",
           "LOOPBACK_HOSTS", "MAX_PENDING", "REQUEST_TIMEOUT",
           "BudgetedLog", "REQUESTS_PER_SECOND", "MAX_MESSAGE", "HTTP_TIMEOUT"]

log = Logger(namespace="protocol.web")


class _LogBudget(Protocol):
    def allow(self, source: str, kind: str) -> bool: ...


def _lobby_budget(lobby: Any) -> _LogBudget | None:
    """The lobby's log budget (lobby/world/log_budget.py), if it has one."""
    world = getattr(getattr(lobby, "services", None), "world", None)
    budget = getattr(world, "log_budget", None)
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


class WebSocketSide(Protocol):
    """What a MessageTransport asks of its WebSocket (protocol/web/websocket.py
    `LobbyWebSocket`, which imports this module, never the other way round)."""

    transport: Any
    state: int
    STATE_OPEN: int

    def sendClose(self, code: int | None = None, reason: str | None = None) -> None: ...

    def cut_off(self) -> None: ...

    def dropConnection(self, abort: bool = False) -> None: ...


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
#: seconds a WebSocket the server closes (over its byte budget, refused, /quit ...) has to take
#: its last output before it is aborted (it is read no more meanwhile; autobahn's closing
#: handshake waited as long)
CUT_GRACE = 5.0


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
    for table_option in table_options.OPTIONS:
        name = table_option.name.split()[0]
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

    def __init__(self, ws: WebSocketSide, peer: Any, host: Any, refuses_passwords: bool) -> None:
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


def _default_reactor() -> Any:
    from twisted.internet import reactor
    return reactor
