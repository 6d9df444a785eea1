"""The WebSocket of the web listener (``--web``), autobahn's protocol under a lobby session:
`LobbyWebSocket` (one connection: the budgets counted before autobahn parses, the close without
a closing handshake), its factory and the resource that takes the upgrade. A module of its own,
imported when a web listener is made (`protocol.web.WebSite`), so that a server without
``--web``, ``--help`` and the admin commands do not import autobahn (about 0.4 s of CPU at
every start, most of a server process's start-up: issue 25, the test suite's time).
May import what protocol.web may."""
from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlsplit

from autobahn.twisted.resource import WebSocketResource
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket.types import ConnectionDeny
from twisted.internet import address as address_types
from twisted.internet.defer import Deferred
from twisted.internet.error import ConnectionDone
from twisted.internet.interfaces import ISSLTransport
from twisted.internet.protocol import connectionDone
from twisted.protocols.tls import TLSMemoryBIOProtocol
from twisted.python.failure import Failure
from twisted.web.server import Request

from lobby.events import error_event
from lobby.world.addresses import is_loopback
from protocol.web import (
    CUT_GRACE,
    BudgetedLog,
    LobbyFactory,
    MessageTransport,
    WebOptions,
    WebSession,
    _canonical_ip,
    _default_reactor,
    _lobby_budget,
    _NotFound,
    _trusted,
)

__all__ = ["LobbyWebSocket", "LobbyWebSocketFactory", "WebSocketUpgrade"]


class LobbyWebSocket(WebSocketServerProtocol):
    """One WebSocket: checks the upgrade, then connects a lobby ``Session`` to a
    ``MessageTransport`` and hands it each message as a line."""

    factory: LobbyWebSocketFactory
    session: WebSession | None = None
    _cut = False                 # over the byte budget: nothing more is read
    _peer: Any = None
    _refuses_passwords = True

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
            guard = getattr(getattr(self.factory.lobby, "services", None), "guard", None)
            if forwarded is not None and guard is not None and guard.refused_at_once(host):
                # the client behind the proxy is past its connection budget and its refusals'
                # answers: refused before the upgrade (its own address, not the proxy's)
                raise ConnectionDeny(ConnectionDeny.SERVICE_UNAVAILABLE, "refused")
        if origin is not None and not self._origin_allowed(origin, headers.get("host", ""),
                                                           secure):
            self.log.info("refused a WebSocket from {peer}: origin {origin!r} is not allowed",
                          peer=request.peer, origin=origin[:200])
            raise ConnectionDeny(ConnectionDeny.FORBIDDEN, "origin not allowed")
        kind = address_types.IPv6Address if ":" in host else address_types.IPv4Address
        self._peer = kind("TCP", host, int(getattr(tcp_peer, "port", 0) or 0))
        self._refuses_passwords = not secure and not is_loopback(host)

    def failHandshake(self, reason: str, code: int = 400,
                      responseHeaders: Any = None) -> None:
        """An Origin that autobahn cannot even read is refused like a foreign one: 403."""
        if reason.startswith("HTTP Origin header invalid"):
            code = 403
        super().failHandshake(reason, code, responseHeaders)

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
        """The client an X-Forwarded-For names: the rightmost address that is not a trusted
        proxy (all trusted: the leftmost); None when an entry is no IP address."""
        hops = [_canonical_ip(v) for v in value.split(",")]
        if not hops or any(h is None for h in hops):
            return None
        for hop in reversed(hops):
            assert hop is not None
            if not _trusted(hop, self.factory.options.trusted_proxies):
                return hop
        return hops[0]

    def onOpen(self) -> None:
        lobby = self.factory.lobby
        session = lobby.buildProtocol(self._peer)
        self.session = session
        assert self.transport is not None       # (an open WebSocket has its socket)
        transport = MessageTransport(self, self._peer, self.transport.getHost(),
                                     self._refuses_passwords)
        session.makeConnection(transport)

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
        super().dataReceived(data)

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
        #: no ``Server`` header in the upgrade's answer either (autobahn names its version)
        self.server = None
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

    def render(self, request: Request) -> Any:
        upgrade = (request.getHeader(b"upgrade") or b"").lower()
        if b"websocket" not in upgrade:     # not autobahn's own page, and with our headers
            request.setHeader(b"Upgrade", b"websocket")
            return _NotFound(426, b"This is the WebSocket endpoint: it takes an upgrade to a "
                                  b"WebSocket only.\n").render(request)
        channel = request.channel
        if channel is not None:
            channel.setTimeout(None)
        return WebSocketResource.render(self, request)
