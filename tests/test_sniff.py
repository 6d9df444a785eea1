"""Connections that speak another protocol (HTTP, TLS, SSH) get one short answer and are closed,
without a traceback; telnet clients and people typing are never mistaken for them."""
from __future__ import annotations

from typing import Any

import pytest
import pytest_twisted
from twisted.internet import task
from twisted.internet.protocol import Protocol
from twisted.logger import globalLogPublisher

from conftest import RunningServer, within
from protocol import sniff
from protocol.guard import Guard, Limits
from protocol.telnet import DO, IAC, SGA


def test_classify_signatures_and_prefixes() -> None:
    assert sniff.classify(b"GET / HTTP/1.1\r\n") == "http"
    assert sniff.classify(b"OPTIONS * HTTP/1.1") == "http"
    assert sniff.classify(b"PRI * HTTP/2.0") == "http"
    assert sniff.classify(b"\x16\x03\x01\x02\x00\x01") == "tls"
    assert sniff.classify(b"SSH-2.0-OpenSSH_9.6\r\n") == "ssh"
    assert sniff.classify(b"GE") == sniff.MAYBE
    assert sniff.classify(b"SS") == sniff.MAYBE
    assert sniff.classify(b"\x16") == sniff.MAYBE
    for human in (b"GET\r\n", b"Getty\r\n", b"guest\r\n", b"SSHfan\r\n", b"Postman\r\n",
                  bytes((IAC, DO, SGA)), b"\r\n", b"/who\r\n"):
        assert sniff.classify(human[:sniff.MAX_PREFIX]) is None, human


def _lobby(clock: task.Clock) -> Any:
    from conftest import FakeLobby
    lobby = FakeLobby(clock)
    lobby.factory.guard = Guard(Limits(), clock, lobby.world)
    return lobby


@pytest.mark.parametrize("first, answer", [
    (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"HTTP/1.0 400 Bad Request\r\n"),
    (b"POST /login HTTP/1.0\r\n", b"HTTP/1.0 400 Bad Request\r\n"),
    (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(40)),
     bytes((0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x28))),
    (b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3\r\n", b"not an SSH server"),
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
    assert lobby.factory.guard.stats["foreign"] == 1
    watcher.raw()
    watcher.send("/who")
    assert watcher.lines() == ["In the Lobby (1): Watcher"]


def test_telnet_and_typing_pass_through(clock: task.Clock) -> None:
    lobby = _lobby(clock)
    c = lobby.connect()
    c.send(bytes((IAC, DO, SGA)))
    c.send(b"G")                         # a person typing in character mode
    c.send(b"ETAWAY\r\n")
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
        assert b"HTTP/1.0 400 Bad Request" in data
        # the server goes on serving people
        c = await server.client()
        assert "Hello Still!" in await c.login("Still")
    finally:
        globalLogPublisher.removeObserver(observe)
    assert failures == []
