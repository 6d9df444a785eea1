"""The web port's cost budget (issue 23, the outside attacker's findings on the web port):
closed WebSockets free themselves at once, the per-address connection budget holds before the
upgrade, every log line goes through the log budget, the byte budget is counted at the TCP
level and aborts, and HTTP requests have a per-address budget."""
from __future__ import annotations

import base64
import gc
import os
import socket
from pathlib import Path
from typing import Any

import pytest_twisted
from twisted.internet import reactor
from twisted.internet.task import deferLater
from twisted.internet.threads import deferToThread

from conftest import started, within
from test_web import WebServer
from web_support import statuses

UPGRADE = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
           "Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
           "{extra}\r\n")


def upgrade_request(port: int, extra: str = "") -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return UPGRADE.format(port=port, key=key, extra=extra).encode()


def upgrade_and_close(port: int, count: int, src: str = "127.0.0.1") -> list[bytes]:
    """``count`` WebSockets that upgrade and close at once, without a word: the answers."""
    answers = []
    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port), timeout=20,
                                      source_address=(src, 0)) as s:
            s.sendall(upgrade_request(port))
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            answers.append(data)
    return answers


LEAKY = ("LobbyWebSocket", "MessageTransport", "Session", "WebChannel", "WebRequest",
         "WebSocketServerProtocol", "PreparedResponse", "FrameHeader", "Telnet", "TelnetTransport")


def live(names: tuple[str, ...] = LEAKY) -> dict[str, int]:
    counts: dict[str, int] = {}
    for o in gc.get_objects():
        name = type(o).__name__
        if name in names:
            counts[name] = counts.get(name, 0) + 1
    return counts


async def settle(running: WebServer) -> None:
    for _ in range(200):
        if not running.server.factory.services.sessions:
            break
        await deferLater(reactor, 0.02, lambda: None)
    await deferLater(reactor, 0.1, lambda: None)


@pytest_twisted.ensureDeferred
async def test_a_closed_websocket_frees_itself_without_a_collection(tmp_path: Path) -> None:
    """Outside finding: a WebSocket that upgraded and closed without logging in kept ~9 KB in
    reference cycles until the hourly thaw of the frozen generation (--gc-freeze-survivors), and
    the thaw then stalled the server for seconds. With the collector off (as good as frozen),
    the server's objects of N closed WebSockets are all gone by reference counting alone."""
    running = WebServer(tmp_path / "lobby.sqlite3")
    async with started(running):
        port = running.web_port
        await within(deferToThread(upgrade_and_close, port, 2))    # warm-up (imports, caches)
        await settle(running)
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            before = live()
            answers = await within(deferToThread(upgrade_and_close, port, 20))
            assert all(b" 101 " in a.split(b"\r\n")[0] for a in answers)
            await settle(running)
            after = live()
        finally:
            gc.enable()
            gc.unfreeze()
        grown = {k: v - before.get(k, 0) for k, v in after.items() if v > before.get(k, 0)}
        assert grown == {}


@pytest_twisted.ensureDeferred
async def test_a_telnet_session_that_played_frees_itself_without_a_collection(
        tmp_path: Path) -> None:
    """The same for telnet: a guest who logs in, talks, opens a table, starts a game with bots
    and leaves leaves none of the connection's objects behind for the collector."""
    running = WebServer(tmp_path / "lobby.sqlite3")
    async with started(running):
        async def play(name: str) -> None:
            c = await running.client()
            await c.login(name)
            c.send("/who")
            c.send("hello")
            c.send("/newroom")
            await c.expect("Table ")
            c.send("/join")
            for _ in range(3):
                c.send("/addbot random")
            c.send("/start")
            await c.expect_any(("and give the key ", "! ["))
            c.send("/quit")
            c.send("/quit")      # (a player is warned once: issue 26, #7)
            await within(c.lost)

        await play("Warmup")
        await settle(running)
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            before = live(("Session", "TelnetLineProtocol", "TextOutput", "ConnectionGuard",
                           "GmcpOption"))
            for i in range(3):
                await play(f"Player{i}")
            await settle(running)
            after = live(("Session", "TelnetLineProtocol", "TextOutput", "ConnectionGuard",
                          "GmcpOption"))
        finally:
            gc.enable()
            gc.unfreeze()
        grown = {k: v - before.get(k, 0) for k, v in after.items() if v > before.get(k, 0)}
        assert grown == {}


def upgrade_answer(port: int, src: str = "127.0.0.1") -> bytes:
    """One upgrade request: everything the server answers until it closes, or until the pong
    to a ping sent after the 101 (b"": closed at once, without a word)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20,
                                  source_address=(src, 0)) as s:
        s.sendall(upgrade_request(port))
        data = b""
        pinged = False
        try:
            while chunk := s.recv(65536):
                data += chunk
                head, end, rest = data.partition(b"\r\n\r\n")
                if end and b" 101 " not in head.split(b"\r\n")[0]:
                    break
                if b'"code"' in data:
                    break
                if end and not pinged:     # an open WebSocket says nothing first: its pong
                    s.sendall(PING)        # ends the answer (a refused one has closed by then)
                    pinged = True
                if PONG in opcodes(rest):
                    break
        except ConnectionResetError:
            pass
        return data


@pytest_twisted.ensureDeferred
async def test_the_connection_budget_holds_before_the_upgrade(tmp_path: Path) -> None:
    """Outside finding W2: about 330 WebSocket upgrades a second from one address, each answered
    101 and only then refused by --connections-per-minute. The refusal that is told is an HTTP
    answer before the upgrade (429, Retry-After, the code; the browser attack's finding: it was
    a 101 and then the error over the WebSocket). Past its address group's
    --refusals-per-minute answers, a connection of the web port is closed at its accept, as on
    the telnet port: no upgrade, not a byte."""
    from protocol.connection.guard import Limits
    running = WebServer(tmp_path / "lobby.sqlite3",
                        limits=Limits(connections_per_minute=2, refusals_per_minute=1,
                                      limit_loopback=True))
    async with started(running):
        port = running.web_port
        first = [await running.ws(), await running.ws()]
        for c in first:
            await c.expect("prompt")
        told = await within(deferToThread(upgrade_answer, port))
        assert told.startswith(b"HTTP/1.1 429 Too Many Requests\r\n"), told   # the one answer
        assert b"\r\nRetry-After: " in told and b"\n! [connecting-too-fast] " in told
        assert b" 101 " not in told
        assert b"\r\nserver:" not in told.lower()           # (autobahn's name and version)
        for _ in range(3):
            assert await within(deferToThread(upgrade_answer, port)) == b""
        site = running.server.web_ports[0].factory
        assert site.stats["closed_at_once"] == 3
        other = await within(deferToThread(upgrade_answer, port, "127.0.0.2"))
        assert b" 101 " in other and b"connecting-too-fast" not in other


def flood_websocket(port: int, total: int, first: tuple[bytes, ...] = (),
                    until: bytes = b"") -> tuple[int, bool]:
    """A WebSocket that sends the messages ``first``, reads until the server said ``until``,
    then ``total`` bytes of 4 KB messages as fast as it can: (bytes sent, whether the server
    stopped it)."""
    import struct
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    s.sendall(upgrade_request(port))
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    for message in first:
        s.sendall(struct.pack("!BB", 0x81, 0x80 | len(message)) + b"\0\0\0\0" + message)
    while until not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    payload = b'{"x":"' + b"a" * 4000 + b'"}'
    frame = struct.pack("!BBH", 0x81, 0x80 | 126, len(payload)) + b"\0\0\0\0" + payload
    chunk = frame * 16
    sent = 0
    stopped = False
    s.settimeout(5)
    try:
        while sent < total:
            s.sendall(chunk)
            sent += len(chunk)
    except OSError:
        stopped = True
    s.close()
    return sent, stopped


@pytest_twisted.ensureDeferred
async def test_a_websocket_over_its_byte_budget_is_cut_off_before_parsing(
        tmp_path: Path) -> None:
    """Outside finding W4: one WebSocket sending 4 KB messages had 148 MB accepted and parsed
    before it was closed, because the bytes were counted only as messages and autobahn went
    on reading through its closing handshake. The bytes are counted as they arrive, before
    autobahn parses them; past the budget the connection is read no more and closed."""
    from autobahn.websocket.protocol import WebSocketProtocol

    from protocol.connection.guard import Limits
    parsed = [0]
    original = WebSocketProtocol._dataReceived

    def counting(self: Any, data: bytes) -> None:
        parsed[0] += len(data)
        original(self, data)

    WebSocketProtocol._dataReceived = counting    # type: ignore[method-assign]
    running = WebServer(tmp_path / "lobby.sqlite3",
                        limits=Limits(input_bytes_per_second=1000, input_bytes_burst=20000))
    try:
        await running.start()
        sent, stopped = await within(deferToThread(flood_websocket, running.web_port,
                                                   8_000_000))
        await settle(running)
        assert stopped
        assert parsed[0] < 20000 + 2 * 65536, (parsed[0], sent)
        assert running.server.factory.services.guard.stats["budget_kicks"] == 1
    finally:
        WebSocketProtocol._dataReceived = original    # type: ignore[method-assign]
        await running.stop()


def opcodes(stream: bytes) -> list[int]:
    """The opcodes of the server's frames (unmasked) in ``stream``, a last partial one too: a
    close frame or a pong is found by walking the frames before it (the greeting's, an error)."""
    found, at = [], 0
    while at + 2 <= len(stream):
        found.append(stream[at] & 0x0F)
        size, at = stream[at + 1] & 0x7F, at + 2
        if size == 126:
            size, at = int.from_bytes(stream[at:at + 2], "big"), at + 2
        elif size == 127:
            size, at = int.from_bytes(stream[at:at + 8], "big"), at + 8
        at += size
    return found


CLOSE, PONG = 8, 10
#: a client's ping without payload (masked, as a client's frames must be)
PING = b"\x89\x80\x00\x00\x00\x00"


def bad_requests(port: int, count: int) -> None:
    """``count`` of each request a client can make the web port log about: an upgrade with a
    foreign Origin, one with a protocol version of the future, a request for a host that is not
    ours, and a WebSocket that sends a frame of a reserved opcode. Each ends at a definite
    answer: the refusal, or after the 101 the close frame the bad frame gets (the frame is sent
    after the 101, as RFC 6455 has a client wait for it: bytes sent along with the upgrade
    request were never read as a frame, and the test waited 2 s for a close that never came)."""
    bad_frame = b"\x83\x80\x00\x00\x00\x00"
    requests = [(upgrade_request(port, "Origin: http://evil.example\r\n"), b""),
                (upgrade_request(port).replace(b"Version: 13", b"Version: 99"), b""),
                (b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", b""),
                (upgrade_request(port), bad_frame)]
    for _ in range(count):
        for request, then in requests:
            with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
                s.sendall(request)
                data = b""
                while chunk := s.recv(65536):     # the answer, and after a 101 the close frame
                    data += chunk
                    head, end, rest = data.partition(b"\r\n\r\n")
                    if end and b" 101 " not in head:
                        break
                    if end and then:
                        s.sendall(then)
                        then = b""
                    if end and CLOSE in opcodes(rest):
                        break
                assert b" 101 " not in data or CLOSE in opcodes(data.partition(b"\r\n\r\n")[2])


@pytest_twisted.ensureDeferred
async def test_every_line_the_web_port_writes_is_within_the_log_budget(tmp_path: Path) -> None:
    """Outside finding W3: an upgrade with a foreign Origin wrote 3 log lines (ours and two of
    autobahn's), a bad Host 1, a bad protocol version 2, a bad frame about 2, none of them
    counted by the log budget (276 KiB/s of log from one address). Every line a client can make
    the web port write (autobahn's and twisted.web's too) goes through the log budget."""
    from twisted.logger import LogLevel

    from conftest import logged_events
    from protocol.connection.guard import Limits
    running = WebServer(tmp_path / "lobby.sqlite3", limits=Limits(log_lines_per_minute=3))
    async with started(running):
        with logged_events() as events:
            await within(deferToThread(bad_requests, running.web_port, 5), 60)
            await settle(running)
        written = [e for e in events if e.get("log_level", LogLevel.debug) >= LogLevel.info]
        namespaces = {e.get("log_namespace") for e in written}
        # 20 connections: a few lines of each kind, not one or more per connection
        assert len(written) <= 12, (len(written), namespaces)
        assert not any(str(n).startswith("autobahn") for n in namespaces), namespaces


@pytest_twisted.ensureDeferred
async def test_the_web_port_answers_429_past_an_address_groups_request_budget(
        tmp_path: Path) -> None:
    """Outside finding W5: the web port served 2900 ``GET /`` a second to one address. Past
    --web-requests-per-second (five seconds' worth at once) an address group's requests are
    answered 429; another address is served."""
    from protocol.web import WebOptions
    running = WebServer(tmp_path / "lobby.sqlite3",
                        web_options=WebOptions(requests_per_second=0.01))
    async with started(running):
        port = running.web_port
        codes = await within(deferToThread(statuses, port, "/", 4))
        assert codes == [200, 429, 429, 429]          # (a burst of one at this rate)
        assert await within(deferToThread(statuses, port, "/app.js", 1, "127.0.0.2")) == [200]
        assert running.server.web_ports[0].factory.stats["too_many"] == 3


@pytest_twisted.ensureDeferred
async def test_a_websocket_the_server_closes_is_read_no_more(tmp_path: Path) -> None:
    """Outside finding W4, the rest of it: a WebSocket the server closed (a refused one,
    too-many-connections, which is now refused before its upgrade; here one that said /quit)
    went on being read and parsed through autobahn's closing handshake, 5 s of whatever the
    client sent. The server sends its close and reads no more."""
    from autobahn.websocket.protocol import WebSocketProtocol

    from protocol.connection.guard import Limits
    parsed = [0]
    original = WebSocketProtocol._dataReceived

    def counting(self: Any, data: bytes) -> None:
        parsed[0] += len(data)
        original(self, data)

    running = WebServer(tmp_path / "lobby.sqlite3",
                        limits=Limits(max_per_ip=1, limit_loopback=True))
    try:
        await running.start()
        WebSocketProtocol._dataReceived = counting    # type: ignore[method-assign]
        sent, stopped = await within(deferToThread(
            flood_websocket, running.web_port, 8_000_000, (b"%json", b"guest", b"/quit"),
            b'"type":"bye"'))
        assert stopped
        assert parsed[0] < 4 * 65536, (parsed[0], sent)
    finally:
        WebSocketProtocol._dataReceived = original    # type: ignore[method-assign]
        await running.stop()


@pytest_twisted.ensureDeferred
async def test_a_websocket_over_tls_the_server_closes_ends_cleanly(tmp_path: Path) -> None:
    """The server's close without a closing handshake over ``--web ssl:...`` too: the TLS
    wrapper passes the pause down to the TCP connection below it; the
    client gets its last line and the close, and nothing fails in the server. The close comes
    without the abort after CUT_GRACE (its clock here never moves): TLS's own close waited to
    read the client's close_notify, which a connection read no more never does, so a wss://
    client saw the close only 5 s later, when a timer aborted it (this test took 5 s)."""
    from twisted.internet.ssl import Certificate, optionsForClientTLS
    from twisted.internet.task import Clock

    from conftest import logged_events
    from test_tls import make_self_signed
    key, cert = make_self_signed(tmp_path)
    running = WebServer(tmp_path / "lobby.sqlite3",
                        web=[f"ssl:0:interface=127.0.0.1:privateKey={key}:certKey={cert}"])
    await running.start()
    site = running.server.web_ports[0].factory
    websockets = getattr(site, "wrappedFactory", site).websockets
    websockets.clock = Clock()                      # no abort after CUT_GRACE
    websockets.closeHandshakeTimeout = 3600         # nor autobahn's after its 5 s
    try:
        with logged_events() as events:
            tls = optionsForClientTLS("localhost",
                                      trustRoot=Certificate.loadPEM(cert.read_bytes()))
            c = await running.ws(tls=tls)
            # nor does the client drop the connection itself (autobahn: after a second)
            c.serverConnectionDropTimeout = c.closeHandshakeTimeout = 3600
            await c.guest()
            c.send("/quit")
            c.send("/quit")      # (a player is warned once: issue 26, #7)
            assert await within(c.closed) is not None
            assert c.clean
            await settle(running)
        assert not [e for e in events if e.get("log_failure") is not None]
        assert not running.server.factory.services.sessions
    finally:
        await running.stop()
