"""Listening behind a TLS terminator or load balancer: the PROXY protocol (``haproxy:ENDPOINT``).

Behind stunnel, haproxy or a cloud load balancer every connection comes from the proxy's address.
With the PROXY protocol (HAProxy's, version 1 text or version 2 binary) the proxy starts each
connection with a header naming the real client. ``--port haproxy:tcp:4000`` is Twisted's endpoint
syntax for it (``twisted.protocols.haproxy``), and Twisted's parsers read the header; after it
``transport.getPeer()`` is the client's address.

Twisted's own wrapper connects the wrapped protocol at once, before the header has arrived, so a
session would see, count, log and ban the proxy's address in ``connectionMade``. Here the
session is connected only once the header has been read: everything that takes a peer address
(``protocol.connection.guard.peer_host``: the connection and log-in limits, ``Session.address``: the guest
rules and address bans, every log line) sees the real client from the start. A connection that
sends no valid header (or none within ``header_timeout`` seconds, the server's
``--login-timeout``) is closed without ever reaching the lobby, with one log line. A header
``PROXY UNKNOWN`` (or a v2 LOCAL command: the proxy's own health check) leaves the proxy's address.

``listen(reactor, description, factory, clock, header_timeout, tls)`` listens on one endpoint
string, with this wrapper for a ``haproxy:`` one. A TLS endpoint (``ssl:...``, behind
``haproxy:`` too) gets a ``ReloadableTLS`` context (appended to ``tls``): ``reload()`` reads its
certificate and key files again (SIGHUP), new connections get the new certificate, open ones keep
theirs, and a file that cannot be read keeps the old one.
"""
from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING, Any, cast

from twisted.internet import address as address_types
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import serverFromString
from twisted.internet.interfaces import (
    IListeningPort,
    IOpenSSLContextFactory,
    IProtocol,
    IStreamServerEndpoint,
    ITransport,
)
from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger

# Twisted's PROXY parsers and wrapper: the public API is only the endpoint (proxyEndpoint), and
# it connects the wrapped protocol too early (see above); tests/e2e/test_proxy.py pins the behaviour.
from twisted.protocols.haproxy._exceptions import InvalidProxyHeader
from twisted.protocols.haproxy._v1parser import V1Parser
from twisted.protocols.haproxy._v2parser import V2Parser
from twisted.protocols.haproxy._wrapper import HAProxyProtocolWrapper, HAProxyWrappingFactory
from twisted.python.failure import Failure
from zope.interface import directlyProvides, implementer, providedBy

__all__ = ["PREFIX", "HeaderFirstWrapper", "HeaderFirstFactory", "ReloadableTLS", "proxied",
           "listen", "tls_endpoint"]

log = Logger(namespace="protocol.proxy")

#: the endpoint prefix of a listener behind a proxy
PREFIX = "haproxy:"
#: bytes a v2 header needs before its version can be read (a v1 header ends at its CR LF first)
_V2_HEAD = 16


class HeaderFirstWrapper(HAProxyProtocolWrapper):
    """Reads the PROXY header, then connects the lobby's protocol (with the client's address)."""

    factory: HeaderFirstFactory
    _connected = False
    _deadline: Any = None
    _head = b""
    _peer: Any = None

    if TYPE_CHECKING:
        # what twisted.protocols.policies.ProtocolWrapper has, without annotations there
        def loseConnection(self) -> None: ...

    def makeConnection(self, transport: Any) -> None:
        # ProtocolWrapper.makeConnection would connect the wrapped protocol now
        directlyProvides(self, providedBy(transport))
        Protocol.makeConnection(self, transport)
        self.factory.registerProtocol(self)
        timeout = self.factory.header_timeout
        if timeout > 0:
            self._deadline = self.factory.clock.callLater(timeout, self._no_header)

    def dataReceived(self, data: bytes) -> None:
        if self._connected:
            self.wrappedProtocol.dataReceived(data)
            return
        if self.disconnecting:
            return
        parser = self._parser
        if parser is None:
            data = self._head + data
            if len(data) < _V2_HEAD and (
                    V2Parser.PREFIX.startswith(data[:12])
                    or (V1Parser.PROXYSTR.startswith(data[:5]) and b"\n" not in data)):
                self._head = data           # not enough to tell the version yet
                return
            self._head = b""
            if len(data) >= _V2_HEAD and data[:12] == V2Parser.PREFIX \
                    and data[12] & 0xF0 == 0x20:
                self._parser = parser = V2Parser()
            elif data[:5] == V1Parser.PROXYSTR:
                self._parser = parser = V1Parser()
                if data.startswith(b"PROXY UNKNOWN\r\n"):
                    # valid by the spec (what follows UNKNOWN may be left out), refused by
                    # Twisted's parser, which wants a space after UNKNOWN
                    data = b"PROXY UNKNOWN \r\n" + data[15:]
            else:
                self._refuse("no PROXY header")
                return
        try:
            info, remaining = parser.feed(data)
        except InvalidProxyHeader:
            self._refuse("an invalid PROXY header")
            return
        if info is None:
            return                          # the header goes on in the next bytes
        if not _plausible(info.source):
            self._refuse("a PROXY header whose source is not an IP address of its family")
            return
        self._proxyInfo = info
        self._peer = _canonical(info.source)
        self._cancel_deadline()
        self._connected = True
        # the wrapper is the wrapped protocol's transport: it provides the interfaces of the
        # real transport (directlyProvides in makeConnection), which a type checker cannot see
        self.wrappedProtocol.makeConnection(cast(ITransport, self))
        if remaining and not self.disconnecting:
            self.wrappedProtocol.dataReceived(remaining)

    def getPeer(self) -> Any:
        """The client's address from the header (IPv6 written in its short form, as a socket
        gives it: Twisted's v2 parser writes every group); the proxy's without one."""
        return self._peer if self._peer is not None else super().getPeer()

    def _refuse(self, what: str) -> None:
        log.info("{peer} sent {what} on a PROXY-protocol port (haproxy:); closed",
                 peer=_peer_text(self.transport), what=what)
        self.loseConnection()

    def _no_header(self) -> None:
        self._deadline = None
        if not self._connected and not self.disconnecting:
            self._refuse(f"no complete PROXY header within {self.factory.header_timeout:g} s")

    def _cancel_deadline(self) -> None:
        call, self._deadline = self._deadline, None
        if call is not None and call.active():
            call.cancel()

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self._cancel_deadline()
        if self._connected:
            # (twisted's ProtocolWrapper.connectionLost has no annotations)
            super().connectionLost(reason)  # type: ignore[no-untyped-call]
        else:                               # the lobby never saw this connection
            self.factory.unregisterProtocol(self)
            # what ProtocolWrapper.connectionLost does too: Twisted declares the attribute an
            # IProtocol, though its own wrapper drops the protocol so
            self.wrappedProtocol = None  # type: ignore[assignment]


class HeaderFirstFactory(HAProxyWrappingFactory):
    """Wraps the lobby's factory: every connection starts with a PROXY header."""

    protocol: type[HAProxyProtocolWrapper] = HeaderFirstWrapper
    noisy = False

    if TYPE_CHECKING:
        # what twisted.protocols.policies.WrappingFactory has, without annotations there
        def registerProtocol(self, p: IProtocol) -> None: ...

        def unregisterProtocol(self, p: IProtocol) -> None: ...

    def __init__(self, wrapped: Any, clock: Any, header_timeout: float = 0.0) -> None:
        # (twisted's WrappingFactory.__init__ has no annotations)
        super().__init__(wrapped)  # type: ignore[no-untyped-call]
        self.clock = clock
        self.header_timeout = header_timeout


def _plausible(address: Any) -> bool:
    """A header's source is an IPv4 address for TCP4, an IPv6 address (no zone) for TCP6, or
    none (UNKNOWN, a v2 LOCAL command); PROXY v2 is accepted with IPv4 and IPv6 sources
    only (an AF_UNIX source has no address to limit or ban): anything else (``999.1.1.1``,
    names, escape sequences meant for an operator's terminal) is refused, never logged,
    counted or banned as given."""
    if address is None:
        return True                 # UNKNOWN (v1), LOCAL (v2): the proxy's own connection
    if not isinstance(address, (address_types.IPv4Address, address_types.IPv6Address)):
        return False                # a v2 AF_UNIX (or any other family's) source: refused
    host = getattr(address, "host", None)
    if not isinstance(host, str) or "%" in host:
        return False
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, address_types.IPv6Address):
        return isinstance(ip, ipaddress.IPv6Address)
    return isinstance(ip, ipaddress.IPv4Address)


def _canonical(address: Any) -> Any:
    """``address`` (an IPv4Address/IPv6Address or None) with its host in the canonical form."""
    host = getattr(address, "host", None)
    if host is None:
        return address
    try:
        canonical = str(ipaddress.ip_address(host))
    except ValueError:
        return address
    if canonical == host:
        return address
    return type(address)(address.type, canonical, address.port)


def _peer_text(transport: Any) -> str:
    try:
        peer = transport.getPeer()
    except Exception:
        return "?"
    return f"{getattr(peer, 'host', peer)}:{getattr(peer, 'port', '')}"


def proxied(description: str) -> str | None:
    """``haproxy:tcp:4000`` -> ``tcp:4000`` (the endpoint behind the proxy); None otherwise."""
    if description[:len(PREFIX)].lower() == PREFIX:
        return description[len(PREFIX):]
    return None


def listen(reactor: Any, description: str, factory: Any, clock: Any,
           header_timeout: float = 0.0, tls: list[ReloadableTLS] | None = None
           ) -> Deferred[IListeningPort]:
    """Listen on the endpoint ``description`` (a Deferred of the port); a ``haproxy:`` endpoint
    reads each connection's PROXY header before ``factory``'s protocol is connected. A TLS
    endpoint's reloadable context is appended to ``tls``."""
    inner = proxied(description)
    if inner is None:
        return tls_endpoint(reactor, description, tls).listen(factory)
    return tls_endpoint(reactor, inner, tls).listen(
        HeaderFirstFactory(factory, clock, header_timeout))


class NotReloaded(str):
    """What a SIGHUP reload says when it failed and kept the old state: the SIGHUP line is then a
    warning (protocol.process.logs.reopen_on_sighup looks for ``failed``)."""
    failed = True


def _endpoint_files(description: str) -> tuple[str, str]:
    """The ``privateKey=`` and ``certKey=`` files of an ``ssl:`` endpoint string (``?`` if none)."""
    fields = dict(part.split("=", 1) for part in description.split(":") if "=" in part)
    key = fields.get("privateKey", "?")
    return key, fields.get("certKey", key)


def tls_reload_failure(description: str, error: BaseException) -> str:
    """Why the key and certificate of `description` could not be loaded, in a sentence that
    names the files (not OpenSSL's raw error list)."""
    key, cert = _endpoint_files(description)
    if isinstance(error, OSError):
        name = error.filename or f"{key} or {cert}"
        return f"cannot read {name}: {error.strerror or error}"
    text = str(error)
    if "mismatch" in text or "do not match" in text:
        return f"the key in {key} does not belong to the certificate in {cert}"
    reasons = re.findall(r"'([^']*)'\)", text)     # OpenSSL's [('lib', 'func', 'reason'), ...]
    why = ", ".join(r for r in reasons if r) or text or type(error).__name__
    return f"{cert} and {key} are no usable PEM certificate and key ({why})"


@implementer(IOpenSSLContextFactory)
class ReloadableTLS:
    """The TLS context of one listening endpoint, replaceable while it listens: Twisted's TLS
    wrapper asks ``getContext()`` for each new connection, and this hands it the context of the
    certificate read last. ``reload()`` parses the endpoint string again (Twisted reads the
    ``privateKey=``/``certKey=`` files then) and says what it did, for the SIGHUP log line."""

    def __init__(self, reactor: Any, description: str, current: Any) -> None:
        self.reactor = reactor
        self.description = description
        self.current = current

    def getContext(self) -> Any:
        return self.current.getContext()

    def reload(self) -> str:
        try:
            fresh = getattr(serverFromString(self.reactor, self.description),
                            "_sslContextFactory", None)
            if fresh is None:
                raise ValueError("no TLS context")
            fresh.getContext()              # a key that does not match its certificate fails here
        except Exception as e:
            return NotReloaded(f"the TLS certificate of {self.description} kept: "
                               f"{tls_reload_failure(self.description, e)}; new connections "
                               "still get the old certificate")
        self.current = fresh
        return f"the TLS certificate of {self.description} reloaded"


def tls_endpoint(reactor: Any, description: str,
                 tls: list[ReloadableTLS] | None = None) -> IStreamServerEndpoint:
    """``serverFromString(reactor, description)``; for a TLS endpoint (``ssl:``) with a
    ``ReloadableTLS`` context in place of its own, appended to ``tls``. (Twisted's TLS server
    endpoint keeps its context factory in ``_sslContextFactory``: no public way to replace it;
    tests/test_tls.py fails if that changes.)"""
    made = serverFromString(reactor, description)
    current = getattr(made, "_sslContextFactory", None)
    if current is not None and tls is not None:
        wrapper = ReloadableTLS(reactor, description, current)
        made._sslContextFactory = wrapper
        tls.append(wrapper)
    endpoint: IStreamServerEndpoint = made
    return endpoint
