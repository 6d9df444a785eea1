"""Connections that speak another protocol (HTTP, TLS, SSH) get one short answer and are closed,
without a traceback; telnet clients and people typing are never mistaken for them."""
from __future__ import annotations

from typing import Any

import pytest
import pytest_twisted
from twisted.internet import task
from twisted.internet.protocol import Protocol
from twisted.logger import globalLogPublisher

from conftest import RunningServer, server_fixture, within
from protocol.connection.guard import Guard, Limits
from protocol.telnet import sniff
from protocol.telnet.transport import DO, IAC, SGA


def test_classify_signatures_and_prefixes() -> None:
    assert sniff.classify(b"GET / HTTP/1.1\r\n") == "http"
    assert sniff.classify(b"OPTIONS * HTTP/1.1") == "http"
    assert sniff.classify(b"PRI * HTTP/2.0") == "http"
    assert sniff.classify(b"\x16\x03\x01\x02\x00\x01") == "tls"
    assert sniff.classify(b"SSH-2.0-OpenSSH_9.6\r\n") == "ssh"
    assert sniff.classify(b"PROXY TCP4 203.0.113.7 127.0.0.1 5000 4000\r\n"[:9]) == "proxy"
    assert sniff.classify(b"PROX") == sniff.MAYBE
    assert sniff.classify(b"GE") == sniff.MAYBE
    assert sniff.classify(b"SS") == sniff.MAYBE
    assert sniff.classify(b"\x16") == sniff.MAYBE
    assert sniff.classify(b"\r\n\r\n\x00\r\nQUIT\n\x21\x11") == "proxy"    # a v2 header, whole
    assert sniff.classify(b"\r\n\r\n") is None     # its beginning: a person's Return, never held
    for human in (b"GET\r\n", b"Getty\r\n", b"guest\r\n", b"SSHfan\r\n", b"Postman\r\n",
                  b"PROXY\r\n", b"Proxyfan\r\n",
                  bytes((IAC, DO, SGA)), b"\r\n", b"/who\r\n"):
        assert sniff.classify(human[:sniff.MAX_PREFIX]) is None, human


def _lobby(clock: task.Clock) -> Any:
    from conftest import FakeLobby
    lobby = FakeLobby(clock)
    lobby.factory.services.guard = Guard(Limits(), clock, lobby.world)
    return lobby


@pytest.mark.parametrize("first, answer", [
    (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"HTTP/1.1 400 Bad Request\r\n"),
    (b"POST /login HTTP/1.0\r\n", b"HTTP/1.1 400 Bad Request\r\n"),
    (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(40)),
     bytes((0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x28))),
    (b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3\r\n", b"not an SSH server"),
    (b"PROXY TCP4 203.0.113.7 127.0.0.1 56324 4000\r\nAnn\r\n", b"--port haproxy:ENDPOINT"),
])
def test_other_protocols_get_one_answer_and_are_closed(clock: task.Clock, first: bytes,
                                                       answer: bytes) -> None:
    lobby = _lobby(clock)
    watcher = lobby.connect()
    watcher.login("Watcher")
    c = lobby.connect()
    c.raw()                              # the greeting and the prompt went out before
    for i in range(0, len(first), 3):    # in small pieces: the verdict waits for enough bytes
        c.send(first[i:i + 3])
    out = c.raw()
    assert out.startswith(answer) or answer in out
    assert c.closed
    assert b"login:" not in out and b"[bad-name]" not in out
    assert lobby.factory.services.guard.stats["foreign"] == 1
    watcher.raw()
    watcher.send("/who")
    assert watcher.lines() == ["In the lobby (1): Watcher"]


def test_telnet_and_typing_pass_through(clock: task.Clock) -> None:
    lobby = _lobby(clock)
    c = lobby.connect()
    c.send(bytes((IAC, DO, SGA)))
    c.send(b"G")                         # a person typing in character mode
    c.send(b"ETAWAY\r\n")
    assert '"GETAWAY" is not a registered name.' in c.text()
    c.send(b"\r\n")                     # Enter: the guest GETAWAY
    assert "Hello GETAWAY!" in c.text()
    assert not c.closed


@pytest_twisted.ensureDeferred
async def test_http_over_a_real_socket_without_a_traceback(server: RunningServer) -> None:
    from twisted.internet import reactor
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    failures: list[Any] = []

    def observe(event: dict[str, Any]) -> None:
        if event.get("log_failure") is not None or event.get("isError"):
            failures.append(event)

    globalLogPublisher.addObserver(observe)
    try:
        class Raw(Protocol):
            def __init__(self) -> None:
                from twisted.internet.defer import Deferred
                self.data = b""
                self.done: Deferred = Deferred()

            def connectionMade(self) -> None:
                self.transport.write(b"GET /favicon.ico HTTP/1.1\r\nHost: localhost\r\n\r\n")

            def dataReceived(self, data: bytes) -> None:
                self.data += data

            def connectionLost(self, reason: Any = None) -> None:
                self.done.callback(self.data)

        raw = Raw()
        await within(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", server.port), raw))
        data = await within(raw.done)
        assert b"HTTP/1.1 400 Bad Request" in data
        # the server goes on serving people
        c = await server.client()
        assert "Hello Still!" in await c.login("Still")
    finally:
        globalLogPublisher.removeObserver(observe)
    assert failures == []


# ---- the greeting waits for the first bytes ----------------------------------------------------
def _waiting_lobby(clock: task.Clock, delay: float = 0.2) -> Any:
    from conftest import FakeLobby
    lobby = FakeLobby(clock, motd="Welcome.")
    lobby.factory.services.guard = Guard(Limits(greeting_delay=delay), clock, lobby.world)
    return lobby


def test_the_greeting_waits_for_the_first_bytes_or_the_delay(clock: task.Clock) -> None:
    lobby = _waiting_lobby(clock)
    quiet = lobby.connect()
    assert quiet.raw() == b""                      # not even IAC WILL GMCP yet
    clock.advance(0.19)
    assert quiet.raw() == b""
    clock.advance(0.01)                            # a telnet user who sends nothing
    out = quiet.raw()
    assert out.startswith(bytes((255, 251, 201)))  # the GMCP offer, then the greeting
    assert b"Welcome." in out and out.endswith(b"login: ")
    clock.advance(10)
    assert quiet.raw() == b""                      # greeted once
    # a client that speaks first is greeted at once, before its line is read
    eager = lobby.connect()
    eager.send("guest")
    text = eager.text()
    assert text.index("login: ") < text.index("Hello Guest")
    clock.advance(1)
    assert eager.raw() == b""
    # a telnet client's negotiation counts as its first bytes
    nego = lobby.connect()
    nego.send(bytes((IAC, DO, SGA)))
    assert b"login: " in nego.raw()


@pytest.mark.parametrize("first, answer", [
    (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"HTTP/1.1 400 Bad Request\r\n"),
    (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(40)), b"\x15\x03"),
    (b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3\r\n", b"This is a Tichu lobby"),
])
def test_a_foreign_client_gets_its_answer_as_the_first_bytes(clock: task.Clock, first: bytes,
                                                             answer: bytes) -> None:
    lobby = _waiting_lobby(clock)
    c = lobby.connect()
    clock.advance(0.05)
    c.send(first)
    out = c.raw()
    assert out.startswith(answer) and out == sniff.answer(sniff.classify(first[:9]))
    assert c.closed
    clock.advance(1)                                # the greeting's timer was cancelled
    assert c.raw() == b""


class WaitingServer(RunningServer):
    """A real server whose greeting waits 0.2 s for the first bytes (the public default)."""

    server_options = {"limits": Limits(greeting_delay=0.2)}


wserver = server_fixture(WaitingServer, "wserver")


def _in_thread(f: Any, *args: Any) -> Any:
    from twisted.internet import threads
    return within(threads.deferToThread(f, *args), 30)


@pytest_twisted.ensureDeferred
async def test_an_http_client_reads_a_400_response(wserver: WaitingServer) -> None:
    import http.client
    import shutil
    import subprocess

    def get() -> tuple[int, str, str, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", wserver.port, timeout=30)
        try:
            conn.request("GET", "/index.html")
            response = conn.getresponse()
            return (response.status, response.reason, response.getheader("Content-Type", ""),
                    response.read())
        finally:
            conn.close()

    status, reason, content_type, body = await _in_thread(get)
    assert (status, reason) == (400, "Bad Request")
    assert content_type.startswith("text/plain") and b"telnet" in body
    if shutil.which("curl"):                        # what an operator would try first
        result = await _in_thread(lambda: subprocess.run(
            ["curl", "-sS", "-i", "--max-time", "30", f"http://127.0.0.1:{wserver.port}/"],
            capture_output=True, timeout=60))
        assert result.stdout.startswith(b"HTTP/1.1 400 Bad Request\r\n"), result
    c = await wserver.client()                      # and people still get in
    assert "Hello Still!" in await c.login("Still")


@pytest_twisted.ensureDeferred
async def test_a_tls_client_on_the_plain_port_gets_a_tls_alert(wserver: WaitingServer) -> None:
    import socket
    import ssl

    def handshake() -> str:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        with socket.create_connection(("127.0.0.1", wserver.port), timeout=30) as sock:
            try:
                context.wrap_socket(sock, server_hostname="localhost")
            except ssl.SSLError as e:
                return f"{e.reason} {e}"
        return "no error"

    def raw_answer() -> bytes:
        # the first bytes of a real ClientHello (made by the ssl module), then read the answer
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        client = ssl.create_default_context().wrap_bio(incoming, outgoing,
                                                       server_hostname="localhost")
        try:
            client.do_handshake()
        except ssl.SSLWantReadError:
            pass
        hello = outgoing.read()
        with socket.create_connection(("127.0.0.1", wserver.port), timeout=30) as sock:
            sock.sendall(hello)
            data = b""
            while chunk := sock.recv(4096):
                data += chunk
        return data

    error = await _in_thread(handshake)
    assert "ALERT_HANDSHAKE_FAILURE" in error and "WRONG_VERSION_NUMBER" not in error, error
    data = await _in_thread(raw_answer)
    assert data[:2] == b"\x15\x03" and data[3:] == b"\x00\x02\x02\x28", data  # fatal, 40


@pytest_twisted.ensureDeferred
async def test_a_telnet_user_who_sends_nothing_is_greeted(wserver: WaitingServer) -> None:
    c = await wserver.client()                       # sends nothing at all
    greeting = await c.expect("login: ", timeout=30)
    assert greeting.startswith("Welcome to the Tichu lobby.")
    c.send("guest")
    assert "Hello Guest" in await c.expect("/help for the commands.\r\n")
