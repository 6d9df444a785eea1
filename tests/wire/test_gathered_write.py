"""protocol/telnet/gathered_write.py (one send per connection and reactor turn) over real loopback
sockets, on both write paths: a failing connection never holds back the others' output, and an
aborted connection sends nothing of what it still had buffered (as with Twisted's own write
path). The start-up probe of Twisted's private names: a missing one means one warning and
Twisted's own write path for every connection."""
from __future__ import annotations

import socket
from typing import Any

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred
from twisted.internet.protocol import ClientFactory, Factory, Protocol

from conftest import WAIT, logged_events
from protocol.telnet import gathered_write
from protocol.telnet.transport import GMCP, IAC, WILL, TelnetLineProtocol

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

    def wait_for(self, wanted: bytes) -> Deferred[None]:
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
        await client.wait_for(OFFER_GMCP).addTimeout(WAIT, reactor)
        clients.append(client)
    return port, servers, clients


@pytest_twisted.ensureDeferred
async def test_a_connection_failing_in_the_end_of_turn_send_does_not_stop_the_others(
        write_path: str) -> None:
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
        gathering = write_path == "gathered"
        assert broken._gathering is gathering and healthy._gathering is gathering
        await client.wait_for(b"hello\r\n").addTimeout(WAIT, reactor)
        assert healthy._gathering is False
        healthy.sendLine("again")          # and the connection is not left gathering for ever
        await client.wait_for(b"again\r\n").addTimeout(WAIT, reactor)
    finally:
        healthy.transport.loseConnection()
        await port.stopListening()


@pytest_twisted.ensureDeferred
async def test_abort_drops_what_the_turn_had_gathered(write_path: str) -> None:
    """abortConnection drops the buffered output (Twisted's contract, and what happened before
    writes were gathered): a line written in the same turn is not sent."""
    from twisted.internet import reactor

    port, (server,), (client,) = await _pairs(TelnetLineProtocol, 1)
    try:
        server.sendLine("never seen")
        assert server._gathering is (write_path == "gathered")
        server.transport.abortConnection()
        await client.lost.addTimeout(WAIT, reactor)
        assert client.received == OFFER_GMCP
    finally:
        await port.stopListening()


# ---- the start-up probe ---------------------------------------------------------------------
@pytest.fixture
def fresh_probe() -> Any:
    """The probe's answer forgotten before and after the test."""
    gathered_write.reset()
    yield
    gathered_write.reset()


def test_the_installed_twisted_and_reactor_have_every_name() -> None:
    from twisted.internet import reactor
    assert gathered_write.probe(reactor) == []


def test_a_reactor_without_the_write_handler_is_reported() -> None:
    """Twisted's select reactor (not the asyncio one) has no `_readOrWrite`."""
    from twisted.internet.selectreactor import SelectReactor
    other = SelectReactor()
    try:
        assert gathered_write.probe(other) == ["_readOrWrite"]
    finally:
        other.waker.connectionLost(None)


def test_a_name_of_another_kind_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from twisted.internet import reactor
    names = dict(gathered_write.TRANSPORT_NAMES, _tempDataLen=list)
    monkeypatch.setattr(gathered_write, "TRANSPORT_NAMES", names)
    assert gathered_write.probe(reactor) == ["_tempDataLen"]


@pytest_twisted.ensureDeferred
async def test_a_missing_private_name_means_one_warning_and_twisteds_write_path(
        monkeypatch: pytest.MonkeyPatch, fresh_probe: None) -> None:
    """As if a Twisted release had renamed `_tempDataLen`: the first connection's probe logs one
    warning naming it; no connection gathers (each write registers the socket for writing, as
    Twisted's write does), and the output still arrives in order."""
    from twisted.internet import reactor
    names = {("_tempDataSize" if k == "_tempDataLen" else k): v
             for k, v in gathered_write.TRANSPORT_NAMES.items()}
    monkeypatch.setattr(gathered_write, "TRANSPORT_NAMES", names)
    with logged_events() as events:
        port, servers, clients = await _pairs(TelnetLineProtocol, 2)
        try:
            for server in servers:
                assert server._may_gather is False
                server.sendLine("one")
                assert server._gathering is False
                assert server.transport in reactor.getWriters()
                server.sendLine("two")
            for client in clients:
                await client.wait_for(b"one\r\ntwo\r\n").addTimeout(WAIT, reactor)
                assert client.received == OFFER_GMCP + b"one\r\ntwo\r\n"
        finally:
            for server in servers:
                server.transport.loseConnection()
            await port.stopListening()
    warnings = [e for e in events if e.get("log_namespace") == "protocol.gathered_write"]
    assert len(warnings) == 1
    assert warnings[0]["log_level"].name == "warn"
    assert warnings[0]["names"] == "_tempDataSize"
    assert gathered_write.available(reactor) is False


@pytest_twisted.ensureDeferred
async def test_with_every_name_present_connections_gather(fresh_probe: None) -> None:
    """The other side of the probe: nothing logged, a write of an idle connection is gathered
    (the socket is not registered for writing) and sent at the end of the turn."""
    from twisted.internet import reactor
    with logged_events() as events:
        port, (server,), (client,) = await _pairs(TelnetLineProtocol, 1)
        try:
            assert server._may_gather is True
            server.sendLine("one")
            assert server._gathering is True
            assert server.transport not in reactor.getWriters()
            await client.wait_for(b"one\r\n").addTimeout(WAIT, reactor)
        finally:
            server.transport.loseConnection()
            await port.stopListening()
    assert not [e for e in events if e.get("log_namespace") == "protocol.gathered_write"]
