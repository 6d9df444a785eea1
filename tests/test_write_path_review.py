"""The gathered writes of protocol.telnet (one send per connection and reactor turn) over real
loopback sockets: a failing connection never holds back the others' output, and an aborted
connection sends nothing of what it still had buffered (as with Twisted's own write path)."""
from __future__ import annotations

import socket
from typing import Any

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred
from twisted.internet.protocol import ClientFactory, Factory, Protocol

from protocol.telnet import GMCP, IAC, WILL, TelnetLineProtocol

OFFER_GMCP = bytes((IAC, WILL, GMCP))


class _Client(Protocol):
    def __init__(self) -> None:
        self.received = b""
        self.lost: Deferred[None] = Deferred()
        self._waits: list[tuple[bytes, Deferred[None]]] = []

    def dataReceived(self, data: bytes) -> None:
        self.received += data
        for wanted, d in list(self._waits):
            if wanted in self.received and not d.called:
                self._waits.remove((wanted, d))
                d.callback(None)

    def connectionLost(self, reason: Any = None) -> None:
        if not self.lost.called:
            self.lost.callback(None)

    def wait_for(self, wanted: bytes) -> "Deferred[None]":
        d: Deferred[None] = Deferred()
        if wanted in self.received:
            d.callback(None)
        else:
            self._waits.append((wanted, d))
        return d


class _SingleUse(ClientFactory):
    def __init__(self, proto: Any) -> None:
        self.proto = proto

    def buildProtocol(self, addr: Any) -> Any:
        return self.proto


async def _pairs(protocol: type, count: int) -> tuple[Any, list[Any], list[_Client]]:
    """A listening port with `count` connected clients; the server protocols in connect order,
    each one's GMCP offer received already (nothing is left buffered)."""
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, TCP4ServerEndpoint

    servers: list[Any] = []

    class Server(protocol):  # type: ignore[misc, valid-type]
        def connectionMade(self) -> None:
            super().connectionMade()
            servers.append(self)

    port = await TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1").listen(
        Factory.forProtocol(Server))
    clients = []
    for _ in range(count):
        client = _Client()
        await TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port).connect(
            _SingleUse(client))
        await client.wait_for(OFFER_GMCP).addTimeout(5, reactor)
        clients.append(client)
    return port, servers, clients


@pytest.mark.reactor_timeout(15)
@pytest_twisted.ensureDeferred
async def test_a_connection_failing_in_the_end_of_turn_send_does_not_stop_the_others() -> None:
    """The end-of-turn send meets a broken connection first; its close raises in the protocol.
    The next connection's output of the same turn still goes out (Twisted's reactor logs such
    an exception and goes on with the other sockets)."""
    from twisted.internet import reactor

    class Fragile(TelnetLineProtocol):
        def connectionLost(self, reason: Any = None) -> None:
            super().connectionLost(reason)
            raise RuntimeError("a bug in some connectionLost")

    port, (broken, healthy), (_, client) = await _pairs(Fragile, 2)
    try:
        # the kernel refuses broken's next send (EPIPE): its close runs inside the end-of-turn send
        broken.transport.socket.shutdown(socket.SHUT_WR)
        broken.sendLine("lost anyway")
        healthy.sendLine("hello")
        assert broken._corked and healthy._corked
        await client.wait_for(b"hello\r\n").addTimeout(3, reactor)
        assert healthy._corked is False
        healthy.sendLine("again")          # and the connection is not left gathering for ever
        await client.wait_for(b"again\r\n").addTimeout(3, reactor)
    finally:
        healthy.transport.loseConnection()
        await port.stopListening()


@pytest.mark.reactor_timeout(15)
@pytest_twisted.ensureDeferred
async def test_abort_drops_what_the_turn_had_gathered() -> None:
    """abortConnection drops the buffered output (Twisted's contract, and what happened before
    writes were gathered): a line written in the same turn is not sent."""
    from twisted.internet import reactor

    port, (server,), (client,) = await _pairs(TelnetLineProtocol, 1)
    try:
        server.sendLine("never seen")
        assert server._corked
        server.transport.abortConnection()
        await client.lost.addTimeout(3, reactor)
        assert client.received == OFFER_GMCP
    finally:
        await port.stopListening()
