"""Behind a proxy (``--port haproxy:tcp:...``): the PROXY header's address (v1 and v2) is the one
the connection limits, the log-in limits, the guest rules, bans and every log line see; a
connection without a valid header never reaches the lobby (docs/operations.md, "Proxies")."""
from __future__ import annotations

import ipaddress
import socket
import struct
from typing import Any

import pytest_twisted
from twisted.internet import task
from twisted.internet.address import IPv4Address
from twisted.internet.testing import StringTransport
from twisted.logger import formatEvent

from conftest import FakeLobby, LineClient, RunningServer, server_fixture, within
from protocol.connection.guard import Guard, Limits, peer_host
from protocol.telnet.proxy import HeaderFirstFactory, proxied

V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"


def v1(source: str, port: int = 56324) -> bytes:
    family = "TCP6" if ":" in source else "TCP4"
    target = "::1" if family == "TCP6" else "127.0.0.1"
    return f"PROXY {family} {source} {target} {port} 4000\r\n".encode("ascii")


def v2(source: str, port: int = 56324) -> bytes:
    """A binary v2 header (command PROXY, TCP over IPv4 or IPv6), as haproxy's send-proxy-v2."""
    address = ipaddress.ip_address(source)
    if address.version == 4:
        body = address.packed + ipaddress.ip_address("127.0.0.1").packed
        family = 0x11
    else:
        body = address.packed + ipaddress.ip_address("::1").packed
        family = 0x21
    body += struct.pack("!HH", port, 4000)
    return V2_SIGNATURE + bytes((0x21, family)) + struct.pack("!H", len(body)) + body


# ---- the wrapper on a StringTransport with task.Clock ----------------------------------------
def _proxied_connection(lobby: FakeLobby, clock: task.Clock,
                        timeout: float = 120.0) -> tuple[Any, StringTransport]:
    factory = HeaderFirstFactory(lobby.factory, clock, timeout)
    transport = StringTransport(peerAddress=IPv4Address("TCP", "127.0.0.1", 40000))
    wrapper = factory.buildProtocol(transport.getPeer())
    wrapper.makeConnection(transport)
    return wrapper, transport


def test_the_session_is_connected_only_after_the_header(clock: task.Clock, logged: Any) -> None:
    lobby = FakeLobby(clock)
    for header in (v1("203.0.113.7"), v2("203.0.113.7"), v1("2001:db8::7"), v2("2001:db8::7")):
        wrapper, transport = _proxied_connection(lobby, clock)
        session = wrapper.wrappedProtocol
        for i in range(len(header) - 1):            # byte by byte: nothing reaches the lobby
            wrapper.dataReceived(header[i:i + 1])
            assert transport.value() == b"" and session.transport is None
        wrapper.dataReceived(header[-1:] + b"guest\r\n")
        expected = "2001:db8::7" if b"2001" in header or b"\x20\x01" in header else "203.0.113.7"
        assert session.address == expected == peer_host(session)
        assert "Hello Guest" in transport.value().decode("utf-8", "replace")
        name = session.user.name
        wrapper.connectionLost(None)
        assert session not in lobby.factory.services.sessions and lobby.world.online(name) is None
    lines = [formatEvent(e) for e in logged]
    assert any("connection from 203.0.113.7:56324" in t for t in lines)
    assert any("logged in from 2001:db8::7:56324 (guest)" in t for t in lines)
    assert not any("connection from 127.0.0.1" in t for t in lines)
    # PROXY UNKNOWN (15 bytes, shorter than a v2 header) and a v2 LOCAL command (a health
    # check): the proxy's own address
    local = V2_SIGNATURE + bytes((0x20, 0x00)) + struct.pack("!H", 0)
    for header in (b"PROXY UNKNOWN\r\n", local):
        wrapper, transport = _proxied_connection(lobby, clock)
        wrapper.dataReceived(header)
        assert wrapper.wrappedProtocol.address == "127.0.0.1" and not transport.disconnecting
        wrapper.connectionLost(None)


def test_no_header_or_a_bad_one_never_reaches_the_lobby(clock: task.Clock, logged: Any) -> None:
    lobby = FakeLobby(clock)
    for junk in (b"Ann\r\n", b"GET / HTTP/1.1\r\n\r\n", b"PROXY TCP4 nonsense\r\n",
                 V2_SIGNATURE + b"\x99\x11\x00\x0c" + bytes(12)):
        wrapper, transport = _proxied_connection(lobby, clock)
        wrapper.dataReceived(junk)
        assert transport.disconnecting and transport.value() == b""
        assert wrapper.wrappedProtocol.transport is None
        wrapper.connectionLost(None)
    # a proxy that connects and sends nothing: closed after the header timeout (the clock's)
    wrapper, transport = _proxied_connection(lobby, clock, timeout=120.0)
    clock.advance(119)
    assert not transport.disconnecting
    clock.advance(1)
    assert transport.disconnecting and transport.value() == b""
    wrapper.connectionLost(None)
    assert lobby.factory.services.sessions == set()
    lines = [formatEvent(e) for e in logged]
    assert sum("on a PROXY-protocol port" in t for t in lines) == 5
    assert any("no complete PROXY header within 120 s" in t for t in lines)


def test_limits_count_the_address_of_the_header(clock: task.Clock) -> None:
    lobby = FakeLobby(clock)
    lobby.factory.services.guard = Guard(Limits(max_per_ip=2, login_attempts_per_minute=1), clock,
                                lobby.world)
    outputs = []
    for source in ("203.0.113.7", "203.0.113.7", "203.0.113.7", "198.51.100.2"):
        wrapper, transport = _proxied_connection(lobby, clock)
        wrapper.dataReceived(v2(source))
        outputs.append(transport.value().decode("utf-8", "replace"))
    assert ["too-many-connections" in out for out in outputs] == [False, False, True, False]
    assert lobby.factory.services.guard.per_ip == {"203.0.113.7": 2, "198.51.100.2": 1}


def test_a_header_whose_source_is_no_address_of_its_family_is_refused(
        clock: task.Clock, logged: Any) -> None:
    """Found by an external review: any string was taken as the client's address, raw escape
    sequences went into the log and a guest "from 999.1.1.1" could be banned."""
    lobby = FakeLobby(clock)
    bad = ["999.1.1.1", "zz", "1.2.3.4\x1b[31mRED", "evil\x08\x08\x08host", "1.2.3.4/8"]
    headers = [f"PROXY TCP4 {b} 10.0.0.1 1 2\r\n".encode("latin-1") for b in bad]
    headers += [b"PROXY TCP4 ::1 10.0.0.1 1 2\r\n",             # IPv6 under TCP4
                b"PROXY TCP6 203.0.113.7 ::1 1 2\r\n",          # IPv4 under TCP6
                b"PROXY TCP6 fe80::1%eth0 ::1 1 2\r\n"]         # a zone
    for header in headers:
        wrapper, transport = _proxied_connection(lobby, clock)
        wrapper.dataReceived(header + b"guest\r\n")
        assert transport.disconnecting and transport.value() == b"", header
        assert wrapper.wrappedProtocol.transport is None
        wrapper.connectionLost(None)
    assert lobby.factory.services.sessions == set()
    lines = [formatEvent(e) for e in logged]
    assert not any("\x1b" in t or "\x08" in t or "999.1.1.1" in t for t in lines)
    assert sum("not an IP address of its family" in t for t in lines) == len(headers)


def test_connections_of_one_ipv6_64_count_together(clock: task.Clock) -> None:
    """--max-per-ip counts an address group (IPv4: the address, IPv6: its /64), as the log-in
    limits and bans do: an IPv6 client usually has a whole /64 to pick addresses from."""
    lobby = FakeLobby(clock)
    lobby.factory.services.guard = Guard(Limits(max_per_ip=2), clock, lobby.world)
    outputs = []
    for source in ("2001:db8:1:2::1", "2001:db8:1:2::a", "2001:db8:1:2:ffff::1",
                   "2001:db8:1:3::1"):
        wrapper, transport = _proxied_connection(lobby, clock)
        wrapper.dataReceived(v1(source))
        outputs.append(transport.value().decode("utf-8", "replace"))
    assert ["too-many-connections" in out for out in outputs] == [False, False, True, False]
    assert lobby.factory.services.guard.per_ip == {"2001:db8:1:2::/64": 2, "2001:db8:1:3::/64": 1}


# ---- a real server listening on haproxy:tcp:0 --------------------------------------------------
class ProxiedServer(RunningServer):
    """A real server behind a (pretend) proxy: every connection starts with a PROXY header."""

    server_options = {"limits": Limits(max_per_ip=1, greeting_delay=0.2)}
    endpoints = ["haproxy:tcp:0:interface=127.0.0.1"]

    async def client_from(self, header: bytes) -> LineClient:
        c = await self.client()
        c.transport.write(header)
        return c


psrv = server_fixture(ProxiedServer, "psrv")


def _session_of(srv: RunningServer, name: str) -> Any:
    return next(s for s in srv.server.factory.services.sessions
                if s.user is not None and s.user.name == name)


@pytest_twisted.ensureDeferred
async def test_a_proxied_server_sees_the_real_addresses(psrv: ProxiedServer,
                                                        logged: Any) -> None:
    ann = await psrv.client_from(v1("203.0.113.7"))
    assert "Hello Ann!" in await ann.login("Ann")    # greeted after the header, sending nothing
    bob = await psrv.client_from(v2("2001:db8::42", 61000))
    assert "Hello Bob!" in await bob.login("Bob")
    assert _session_of(psrv, "Ann").address == "203.0.113.7"
    assert _session_of(psrv, "Bob").address == "2001:db8::42"
    # --max-per-ip 1 counts the header's address, not the proxy's 127.0.0.1 (loopback exempt)
    again = await psrv.client_from(v2("203.0.113.7", 50001))
    refused = await again.expect("\r\n", timeout=30)
    assert "! [too-many-connections]" in refused
    await within(again.lost, 30)
    cat = await psrv.client_from(v1("198.51.100.2"))
    assert "Hello Cat!" in await cat.login("Cat")
    # a client that sends HTTP through the proxy still gets its 400 as the first bytes
    web = await psrv.client_from(v1("192.0.2.80") + b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    await within(web.lost, 30)
    assert web.buffer.startswith("HTTP/1.1 400 Bad Request\r\n")
    lines = [formatEvent(e) for e in logged]
    assert any("connection from 203.0.113.7:56324" in t for t in lines)
    assert any("Bob logged in from 2001:db8::42:61000" in t for t in lines)
    assert any("refused a connection from 203.0.113.7: too-many-connections" in t for t in lines)
    assert any("192.0.2.80 speaks http" in t for t in lines)
    assert not any("from 127.0.0.1" in t for t in lines), [t for t in lines if "127.0.0.1" in t]


@pytest_twisted.ensureDeferred
async def test_a_connection_without_a_header_is_closed_unseen(psrv: ProxiedServer) -> None:
    def plain() -> bytes:
        with socket.create_connection(("127.0.0.1", psrv.port), timeout=30) as s:
            s.sendall(b"Mallory\r\n")
            data = b""
            while chunk := s.recv(4096):
                data += chunk
            return data
    from twisted.internet import threads
    assert await within(threads.deferToThread(plain), 30) == b""
    assert psrv.server.factory.services.sessions == set()


def test_proxied_endpoint_strings() -> None:
    assert proxied("haproxy:tcp:4000:interface=127.0.0.1") == "tcp:4000:interface=127.0.0.1"
    assert proxied("HAPROXY:ssl:4001") == "ssl:4001"
    assert proxied("tcp:4000") is None
