"""The web listener (``--web``) itself: `listen_web` and its `WebSite`, and the WebSocket,
autobahn's protocol under a lobby session: `LobbyWebSocket` (one connection: the budgets
counted before autobahn parses, the close without a closing handshake), its factory and the
resource that takes the upgrade. A module of its own, imported by the server only when it opens
a web listener, so that a server without ``--web``, ``--help`` and the admin commands do not
import autobahn (about 0.13 s of CPU at every start: issue 25, the test suite's time). It
imports protocol.web (the options, the files, MessageTransport), never the other way round.
May import what protocol.web may."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast
from urllib.parse import urlsplit

from autobahn.twisted.resource import WebSocketResource
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket.types import ConnectionDeny
from twisted.internet import address as address_types
from twisted.internet.defer import Deferred
from twisted.internet.error import ConnectionDone
from twisted.internet.interfaces import IListeningPort, ISSLTransport
from twisted.internet.protocol import connectionDone
from twisted.protocols.tls import TLSMemoryBIOProtocol
from twisted.python.failure import Failure
from twisted.web.http import RESPONSES, HTTPChannel
from twisted.web.server import Request, Site

from lobby.events import error_event
from lobby.world.addresses import address_group, is_loopback
from protocol.connection.guard import OpenConnections, Refusal, RequestBudget
from protocol.web import (
    _PHRASES,
    CUT_GRACE,
    LOOPBACK_HOSTS,
    REFUSAL_STATUS,
    SECURITY_HEADERS,
    BudgetedLog,
    LobbyFactory,
    MessageTransport,
    WebOptions,
    WebSession,
    _canonical_ip,
    _default_reactor,
    _forwarded_client,
    _guard_of,
    _lobby_budget,
    _NotFound,
    _Root,
    _trusted,
    default_hosts,
    http_answer,
    log,
    static_files,
)
from protocol.web.archive import Source as ArchiveSource

__all__ = ["LobbyWebSocket", "LobbyWebSocketFactory", "WebChannel", "WebRequest", "WebSite",
           "WebSocketUpgrade", "listen_web"]


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
        """An Origin that autobahn cannot even read is refused like a foreign one: 403, with
        the same plain reason (not autobahn's parser's words)."""
        if reason.startswith("HTTP Origin header invalid"):
            code, reason = 403, "origin not allowed"
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

    def _fail_connection(self, code: int = 1001, reason: str = "going away") -> None:
        """A protocol error (1002), a message over the limit (1009) or bad UTF-8 (1007): the
        close frame goes out at once and so does the TCP connection, without reading on
        (autobahn would wait up to its closing handshake's timeout, reading what comes, for a
        reply that a broken client may never send)."""
        failing = self.state not in (self.STATE_CLOSED, self.STATE_CLOSING)
        super()._fail_connection(code, reason)
        if failing:
            self.cut_off()

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        if self._cut:                 # (a message after a failing frame in the same segment)
            return
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
        if self._cut or (session is not None and not session.ping_received()):
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


class WebSocketUpgrade(WebSocketResource):
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
        root = _Root(static_files(), WebSocketUpgrade(self.websockets), allowed, archive)
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


def listen_web(reactor: Any, description: str, lobby: LobbyFactory,
               options: WebOptions | None = None, tls: list[Any] | None = None,
               archive: ArchiveSource | None = None) -> Deferred[IListeningPort]:
    """Listen on the endpoint ``description`` with the web client (a Deferred of the port), and
    the log archive's pages when ``archive`` gives it; the reloadable context of a TLS endpoint
    is appended to ``tls`` (protocol.telnet.proxy.tls_endpoint)."""
    from protocol.telnet.proxy import tls_endpoint
    return tls_endpoint(reactor, description, tls).listen(
        WebSite(lobby, options, reactor, default_hosts(description), archive))
